#include "Kernels.h"
#include "Probes.h"

namespace roofcheck::probe {

void probeFma(ProbeContext &context, ProbeGroup group) {
  struct Kind {
    const char *dtype;
    const char *path;
    kernels::FmaType type;
    kernels::ValueType fill;
    int fillPerValue;   ///< scalars per chain value (2 for the packed types)
    int flopsPerFma;    ///< per instruction and thread: 2 per lane
    int iterations;     ///< per launch, about a millisecond at the peak rate
    PeakUnit unit;
  };
  Kind kind;
  switch (group) {
  case ProbeGroup::FP64: kind = {"fp64", "DFMA", kernels::FmaType::FP64, kernels::ValueType::F64, 1, 2, 8192, PeakUnit::DFMA}; break;
  case ProbeGroup::FP32: kind = {"fp32", "FFMA", kernels::FmaType::FP32, kernels::ValueType::F32, 1, 2, 16384, PeakUnit::FFMA}; break;
  case ProbeGroup::FP16: kind = {"fp16", "HFMA2", kernels::FmaType::FP16x2, kernels::ValueType::F16, 2, 4, 8192, PeakUnit::HFMA2}; break;
  case ProbeGroup::BF16: kind = {"bf16", "HFMA2.BF16", kernels::FmaType::BF16x2, kernels::ValueType::BF16, 2, 4, 8192, PeakUnit::HFMA2}; break;
  default: throw Error(std::string("probeFma: not an FMA group: ") + toString(group));
  }
  const DeviceProperties &device = context.device;
  const int threads = 256;
  const int64_t blocks = residentGrid(device, threads);
  const int64_t lanes = blocks * threads;
  const int iterations = context.options.quick ? kind.iterations / 4 : kind.iterations;
  const size_t valueBytes = kernels::fmaValueBytes(kind.type);
  DeviceBuffer seeds(lanes * kernels::FmaChains * valueBytes), sink(lanes * valueBytes);
  kernels::fillRandomValues(seeds.get(), lanes * kernels::FmaChains * kind.fillPerValue, kind.fill, context.seed(),
                            context.stream);
  Launch launch = [&](cudaStream_t s) {
    kernels::fmaChains(kind.type, seeds.get(), sink.get(), iterations, blocks, threads, s);
  };
  double work = double(lanes) * iterations * kernels::FmaChains * kind.flopsPerFma;
  Measurement m = context.measurer.measure(launch, work, fullPlan(context.options.quick));
  Json parameters = {{"blocks", blocks},
                     {"threads", threads},
                     {"independent_chains", kernels::FmaChains},
                     {"iterations", iterations},
                     {"flops_per_instruction_per_thread", kind.flopsPerFma}};
  Provenance p = provenanceOf(std::string("fmaKernel<") + kind.dtype + ">", parameters, m);
  double clock = peakSmClock(p, device);
  p.parameters["theoretical_peak"] = peakJson(theoreticalPeak(kind.unit, device.multiprocessors, clock),
                                              peakBasis(kind.unit, device.multiprocessors, clock));
  context.addCompute({kind.dtype, kind.dtype, kind.path, p.median, p});
}

} // namespace roofcheck::probe
