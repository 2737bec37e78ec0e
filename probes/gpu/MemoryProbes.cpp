#include "Kernels.h"
#include "Probes.h"

#include "CeilingsView.h"

namespace roofcheck::probe {

double peakSmClock(const Provenance &p, const DeviceProperties &device) {
  return highestSmClock(p).value_or(device.maxSmClockMHz);
}

namespace {

void checkAgainstPeak(ProbeContext &context, const std::string &what, double median, const Provenance &p) {
  if (auto warning = clockMovedWarning(what, p))
    context.warnings.push_back(*warning);
  const Json &peak = p.parameters["theoretical_peak"];
  if (median > peak["value"].get<double>())
    context.warnings.push_back(what + ": measured rate exceeds the theoretical peak (" +
                               peak["basis"].get<std::string>() + "): a measurement bug, do not trust this ceiling");
}

} // namespace

void ProbeContext::addMemory(MemoryCeiling ceiling) {
  std::string what = ceiling.level + " " + ceiling.variant;
  checkAgainstPeak(*this, what, ceiling.bytesPerSecond, ceiling.provenance);
  progress(what + ": " + formatRate(ceiling.bytesPerSecond, "B/s") + " (" + ceiling.provenance.kernel + ")");
  doc.memory.push_back(std::move(ceiling));
}

void ProbeContext::addCompute(ComputeCeiling ceiling) {
  std::string what = ceiling.bucket + " " + ceiling.dtype;
  checkAgainstPeak(*this, what, ceiling.flopsPerSecond, ceiling.provenance);
  progress(what + ": " + formatRate(ceiling.flopsPerSecond, "FLOP/s") + " (" + ceiling.path + ")");
  doc.compute.push_back(std::move(ceiling));
}

namespace {

struct Candidate {
  std::string kernel;
  Json parameters;
  Launch launch;
};

/// Screens every candidate with a short run, measures the fastest one again with the full plan.
Provenance measureBest(ProbeContext &context, const std::vector<Candidate> &candidates,
                                        double work) {
  Json screened = Json::array();
  size_t best = 0;
  double bestRate = 0;
  for (size_t i = 0; i < candidates.size(); ++i) {
    Measurement m = context.measurer.measure(candidates[i].launch, work, screeningPlan(context.options.quick));
    screened.push_back({{"kernel", candidates[i].kernel}, {"parameters", candidates[i].parameters},
                        {"median", m.rate.median}});
    if (m.rate.median > bestRate) {
      bestRate = m.rate.median;
      best = i;
    }
  }
  Measurement m = context.measurer.measure(candidates[best].launch, work, fullPlan(context.options.quick));
  Json parameters = candidates[best].parameters;
  parameters["candidates"] = screened;
  return provenanceOf(candidates[best].kernel, parameters, m);
}

std::string streamKernelName(const char *kernel, const StreamConfig &c) {
  return std::string(kernel) + " (" + c.str() + ")";
}

} // namespace

void probeDram(ProbeContext &context) {
  const DeviceProperties &device = context.device;
  const int64_t bytes = dramBufferBytes(device, context.options.quick);
  const int64_t vectors = bytes / 16;
  DeviceBuffer source(bytes), destination(bytes), sink(16);
  kernels::fillRandomBits(source.get(), bytes, context.seed(), context.stream);
  kernels::fillRandomBits(destination.get(), bytes, context.seed(), context.stream);
  ROOFCHECK_CUDA(cudaStreamSynchronize(context.stream));
  const uint32_t sentinel = static_cast<uint32_t>(context.seed());

  auto base = [&](const StreamConfig &c) {
    Json p = {{"buffer_bytes", bytes}, {"access_bytes", 16}, {"config", c.toJson()},
              {"blocks", streamGrid(c, vectors)}};
    return p;
  };

  struct Variant {
    const char *name;
    const char *kernel;
    double work;
  };
  for (const Variant &variant : {Variant{"copy", "copyKernel", 2.0 * bytes}, Variant{"read", "readKernel", 1.0 * bytes},
                                 Variant{"write", "writeKernel", 1.0 * bytes}}) {
    std::string name = variant.name;
    std::vector<Candidate> candidates;
    for (const StreamConfig &c : dramConfigs(context.options.quick)) {
      Launch launch;
      if (name == "copy")
        launch = [&, c](cudaStream_t s) { kernels::copy(source.get(), destination.get(), vectors, c, s); };
      else if (name == "read")
        launch = [&, c](cudaStream_t s) {
          kernels::read(source.get(), vectors, sentinel, sink.as<uint32_t>(), c, s);
        };
      else
        launch = [&, c](cudaStream_t s) { kernels::write(destination.get(), vectors, sentinel, c, s); };
      candidates.push_back({streamKernelName(variant.kernel, c), base(c), launch});
    }
    if (name == "copy") // the driver's own copy: the best-known method is a candidate too
      candidates.push_back({"cudaMemcpyAsync device-to-device", Json{{"buffer_bytes", bytes}},
                            [&](cudaStream_t s) {
                              ROOFCHECK_CUDA(cudaMemcpyAsync(destination.get(), source.get(), bytes,
                                                             cudaMemcpyDeviceToDevice, s));
                            }});
    Provenance provenance = measureBest(context, candidates, variant.work);
    // The winner's launches ran last: a copy that did not copy every byte is no ceiling.
    if (name == "copy") {
      int64_t wrong = kernels::countDifferences(source.get(), destination.get(), vectors,
                                                sink.as<unsigned long long>(), context.stream);
      if (wrong != 0)
        throw Error("dram copy: " + provenance.kernel + " left " + std::to_string(wrong) +
                    " of " + std::to_string(vectors) + " 16-byte vectors different from the source");
    }
    double memoryMHz = provenance.clocksDuring.memoryMHz.value_or(device.memoryClockMHz);
    char basis[160];
    std::snprintf(basis, sizeof basis, "2 x %.0f MHz x %d bit bus / 8", memoryMHz, device.memoryBusWidthBits);
    provenance.parameters["bytes_counted"] = name == "copy" ? "read + written" : name == "read" ? "read" : "written";
    provenance.parameters["theoretical_peak"] =
        peakJson(theoreticalDramBandwidth(device.memoryBusWidthBits, memoryMHz), basis);
    context.addMemory({"dram", name, provenance.median, provenance});
  }
}

void probeL2(ProbeContext &context) {
  const DeviceProperties &device = context.device;
  const int64_t bytes = l2WorkingSetBytes(device);
  const int64_t vectors = bytes / 16;
  const int64_t perLaunch = context.options.quick ? (int64_t(1) << 30) : (int64_t(4) << 30);
  const int passes = static_cast<int>(std::max<int64_t>(1, perLaunch / bytes));
  const int threads = 512;
  const int64_t blocks = residentGrid(device, threads);
  DeviceBuffer data(bytes), sink(16);
  kernels::fillRandomBits(data.get(), bytes, context.seed(), context.stream);
  const uint32_t sentinel = static_cast<uint32_t>(context.seed());
  Launch launch = [&](cudaStream_t s) {
    kernels::readL2(data.get(), vectors, passes, sentinel, sink.as<uint32_t>(), blocks, threads, s);
  };
  double work = double(bytes) * passes;
  Measurement m = context.measurer.measure(launch, work, fullPlan(context.options.quick));
  Json parameters = {{"working_set_bytes", bytes}, {"l2_bytes", device.l2Bytes}, {"passes", passes},
                     {"access_bytes", 16},         {"load", "ld.global.cg (L2 only)"},
                     {"blocks", blocks},           {"threads", threads}};
  Provenance p = provenanceOf("readL2Kernel", parameters, m);
  double clock = peakSmClock(p, device);
  p.parameters["theoretical_peak"] = l2Peak(device, clock);
  context.addMemory({"l2", "read", p.median, p});
}

void probeShared(ProbeContext &context) {
  const DeviceProperties &device = context.device;
  const int threads = 512;
  const int64_t blocks = residentGrid(device, threads);
  const int iterations = context.options.quick ? 256 : 1024;
  DeviceBuffer tile(kernels::SharedTileFloats * sizeof(float)), sink(16);
  kernels::fillRandomValues(tile.get(), kernels::SharedTileFloats, kernels::ValueType::F32, context.seed(),
                            context.stream);
  const float sentinel = 1e30f; // the sums stay far below it: the store never happens
  Launch launch = [&](cudaStream_t s) {
    kernels::readShared(tile.as<float>(), sink.as<float>(), iterations, sentinel, blocks, threads, s);
  };
  double work = double(blocks) * threads * iterations * kernels::SharedUnroll * 16;
  Measurement m = context.measurer.measure(launch, work, fullPlan(context.options.quick));
  Json parameters = {{"tile_bytes", kernels::SharedTileFloats * 4}, {"access_bytes", 16},
                     {"iterations", iterations},                    {"loads_per_iteration", kernels::SharedUnroll},
                     {"blocks", blocks},                            {"threads", threads}};
  Provenance p = provenanceOf("sharedReadKernel (LDS.128)", parameters, m);
  double clock = peakSmClock(p, device);
  p.parameters["theoretical_peak"] = peakJson(theoreticalPeak(PeakUnit::SharedMemory, device.multiprocessors, clock),
                                              peakBasis(PeakUnit::SharedMemory, device.multiprocessors, clock));
  context.addMemory({"shared", "read", p.median, p});
}

} // namespace roofcheck::probe
