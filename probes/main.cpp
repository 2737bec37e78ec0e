// roofcheck-probe: measures the ceilings of the GPU it runs on and writes roofcheck.ceilings/1.
#include "CeilingsView.h"
#include "Cuda.h"
#include "DeviceModel.h"
#include "Measure.h"
#include "Nvml.h"
#include "ProbeOptions.h"
#include "Probes.h"

#include "roofcheck/Contracts.h"
#include "roofcheck/ExitCode.h"
#include "roofcheck/System.h"
#include "roofcheck/Version.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>

#include <unistd.h>

namespace roofcheck::probe {
namespace {

std::string cudaVersionText(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

int attribute(cudaDeviceAttr which, int device, const char *name) {
  int value = 0;
  checkCuda(cudaDeviceGetAttribute(&value, which, device), name);
  return value;
}

/// Selects device 0 (after CUDA_VISIBLE_DEVICES) or says why there is none.
int openDevice() {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0)
    throw Error(std::string("no usable CUDA GPU (") +
                (status != cudaSuccess ? cudaGetErrorString(status) : "no device listed") +
                "): run on a machine with an NVIDIA GPU and its driver, and check CUDA_VISIBLE_DEVICES");
  ROOFCHECK_CUDA(cudaSetDevice(0));
  return 0;
}

DeviceProperties queryDevice(int device) {
  cudaDeviceProp prop{};
  ROOFCHECK_CUDA(cudaGetDeviceProperties(&prop, device));
  DeviceProperties p;
  p.name = prop.name;
  p.computeMajor = prop.major;
  p.computeMinor = prop.minor;
  p.multiprocessors = attribute(cudaDevAttrMultiProcessorCount, device, "cudaDevAttrMultiProcessorCount");
  p.l2Bytes = attribute(cudaDevAttrL2CacheSize, device, "cudaDevAttrL2CacheSize");
  p.sharedPerBlockOptin =
      attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, device, "cudaDevAttrMaxSharedMemoryPerBlockOptin");
  p.maxThreadsPerMultiprocessor =
      attribute(cudaDevAttrMaxThreadsPerMultiProcessor, device, "cudaDevAttrMaxThreadsPerMultiProcessor");
  p.memoryBusWidthBits = attribute(cudaDevAttrGlobalMemoryBusWidth, device, "cudaDevAttrGlobalMemoryBusWidth");
  p.maxSmClockMHz = attribute(cudaDevAttrClockRate, device, "cudaDevAttrClockRate") / 1000.0;
  p.memoryClockMHz = attribute(cudaDevAttrMemoryClockRate, device, "cudaDevAttrMemoryClockRate") / 1000.0;
  p.globalMemoryBytes = static_cast<int64_t>(prop.totalGlobalMem);
  size_t freeBytes = 0, totalBytes = 0;
  ROOFCHECK_CUDA(cudaMemGetInfo(&freeBytes, &totalBytes));
  p.freeMemoryBytes = static_cast<int64_t>(freeBytes);
  return p;
}

int runProbe(const ProbeOptions &options) {
  auto started = std::chrono::steady_clock::now();
  int device = openDevice();
  DeviceProperties props = queryDevice(device);
  if (std::string why = unsupportedReason(props); !why.empty())
    throw Error(why);

  cudaDeviceProp prop{};
  ROOFCHECK_CUDA(cudaGetDeviceProperties(&prop, device));
  char busId[32] = {};
  ROOFCHECK_CUDA(cudaDeviceGetPCIBusId(busId, sizeof busId, device));
  Nvml nvml(busId);
  std::vector<std::string> warnings;
  if (!nvml.available())
    warnings.push_back("NVML unavailable (" + nvml.unavailableReason() + "): clocks, temperature and power are not recorded");

  int driverApi = 0, runtime = 0;
  ROOFCHECK_CUDA(cudaDriverGetVersion(&driverApi));
  ROOFCHECK_CUDA(cudaRuntimeGetVersion(&runtime));

  CeilingsDocument doc;
  doc.roofcheckVersion = std::string(Version) + " (" + GitRevision + ")";
  doc.measuredAt = utcTimestamp();
  doc.device = {device,
                props.name,
                deviceUuidText(prop.uuid.bytes),
                std::to_string(props.computeMajor) + "." + std::to_string(props.computeMinor),
                props.multiprocessors,
                props.l2Bytes,
                props.globalMemoryBytes};
  doc.driverVersion = nvml.driverVersion().value_or("CUDA driver API " + cudaVersionText(driverApi));
  doc.cudaVersion = cudaVersionText(runtime);

  ClockSample maxClocks = nvml.maxClocks();
  Json environment = {{"start", nvml.state()},
                      {"device_properties", toJson(props)},
                      {"pci_bus_id", busId},
                      {"max_clocks", {{"sm_mhz", maxClocks.smMHz ? Json(*maxClocks.smMHz) : Json()},
                                      {"memory_mhz", maxClocks.memoryMHz ? Json(*maxClocks.memoryMHz) : Json()}}},
                      {"cuda_driver_api_version", cudaVersionText(driverApi)},
                      {"nvml", nvml.available() ? Json("available") : Json(nvml.unavailableReason())},
                      {"spec", specValues(props.name)}};

  const bool terminal = isatty(STDERR_FILENO);
  std::vector<ProbeGroup> groups;
  for (ProbeGroup g : allProbeGroups())
    if (options.runs(g))
      groups.push_back(g);
  if (terminal)
    std::fprintf(stderr, "roofcheck-probe: %s (sm_%d%d, %d SMs), %zu probe group(s)%s\n", props.name.c_str(),
                 props.computeMajor, props.computeMinor, props.multiprocessors, groups.size(),
                 options.quick ? ", quick" : "");

  Stream stream;
  Measurer measurer(nvml, stream.get());
  ProbeContext context{options, props, nvml, stream.get(), measurer, doc, warnings,
                       [&](const std::string &line) {
                         if (terminal)
                           std::fprintf(stderr, "  %s\n", line.c_str());
                       }};
  for (size_t i = 0; i < groups.size(); ++i) {
    if (terminal)
      std::fprintf(stderr, "[%zu/%zu] %s\n", i + 1, groups.size(), toString(groups[i]));
    switch (groups[i]) {
    case ProbeGroup::Dram: probeDram(context); break;
    case ProbeGroup::L2: probeL2(context); break;
    case ProbeGroup::Shared: probeShared(context); break;
    case ProbeGroup::Tensor: probeTensor(context); break;
    default: probeFma(context, groups[i]); break;
    }
  }

  for (const std::string &problem : nvml.problems())
    warnings.push_back("NVML: " + problem);
  environment["end"] = nvml.state();
  environment["options"] = {{"quick", options.quick}, {"only", Json::array()}};
  for (ProbeGroup g : groups)
    environment["options"]["only"].push_back(toString(g));
  environment["warnings"] = warnings;
  environment["wall_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  doc.environment = environment;

  saveCeilingsFile(options.outPath, doc);

  std::printf("roofcheck-probe: %s (sm_%d%d, %d SMs), driver %s, CUDA %s%s\n", props.name.c_str(), props.computeMajor,
              props.computeMinor, props.multiprocessors, doc.driverVersion.c_str(), doc.cudaVersion.c_str(),
              options.quick ? " (--quick: smoke run, not ceilings to keep)" : "");
  std::fputs(summaryTable(doc).c_str(), stdout);
  std::printf("wrote %s (%zu memory, %zu compute ceilings) in %.1f s\n", options.outPath.c_str(), doc.memory.size(),
              doc.compute.size(), environment["wall_seconds"].get<double>());
  std::fflush(stdout);
  for (const std::string &w : warnings)
    std::fprintf(stderr, "roofcheck-probe: warning: %s\n", w.c_str());
  return ExitSuccess;
}

} // namespace
} // namespace roofcheck::probe

int main(int argc, char **argv) {
  return roofcheck::runGuarded("roofcheck-probe", [&] {
    using namespace roofcheck::probe;
    ProbeOptions options = parseProbeOptions(std::vector<std::string>(argv + 1, argv + argc));
    if (options.help) {
      std::cout << probeUsage();
      return 0;
    }
    if (options.version) {
      std::cout << "roofcheck-probe " << roofcheck::Version << " (" << roofcheck::GitRevision << ")\n";
      return 0;
    }
    return runProbe(options);
  });
}
