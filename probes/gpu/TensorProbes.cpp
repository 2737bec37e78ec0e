// Tensor-core ceilings through cuBLASLt: for each dtype, the heuristic's first few algorithms are screened
// on a large square product, in the TN layout (A transposed, column-major; the one fp8 supports) and the
// NN layout (what a row-major framework's a @ b becomes), and the fastest is measured again, in bursts
// from idle and sustained.
#include "Kernels.h"
#include "Probes.h"

#include <memory>

namespace roofcheck::probe {

namespace {

struct GemmKind {
  const char *dtype;
  const char *path;
  cudaDataType_t ab, cd;
  cublasComputeType_t compute;
  cudaDataType_t scale;
  kernels::ValueType fill;
  size_t abBytes, cdBytes;
  PeakUnit unit;
  int minComputeCapability; ///< major * 10 + minor
  bool transposedAOnly;      ///< fp8 needs the TN layout
};

const GemmKind gemmKinds[] = {
    {"fp16", "tensor MMA via cuBLASLt: fp16 inputs, fp32 accumulate", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F,
     CUDA_R_32F, kernels::ValueType::F16, 2, 2, PeakUnit::TensorFP16, 70, false},
    {"bf16", "tensor MMA via cuBLASLt: bf16 inputs, fp32 accumulate", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F,
     CUDA_R_32F, kernels::ValueType::BF16, 2, 2, PeakUnit::TensorFP16, 80, false},
    {"tf32", "tensor MMA via cuBLASLt: fp32 data as tf32, fp32 accumulate", CUDA_R_32F, CUDA_R_32F,
     CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F, kernels::ValueType::F32, 4, 4, PeakUnit::TensorTF32, 80, false},
    {"fp8", "tensor MMA via cuBLASLt: fp8 e4m3 inputs, fp32 accumulate, bf16 out", CUDA_R_8F_E4M3, CUDA_R_16BF,
     CUBLAS_COMPUTE_32F, CUDA_R_32F, kernels::ValueType::FP8E4M3, 1, 2, PeakUnit::TensorFP8, 89, true},
    {"fp64", "DMMA tensor cores via cuBLASLt: fp64", CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, CUDA_R_64F,
     kernels::ValueType::F64, 8, 8, PeakUnit::TensorFP64, 80, false},
};

struct LtDeleter {
  void operator()(cublasLtMatmulDescOpaque_t *d) const { cublasLtMatmulDescDestroy(d); }
  void operator()(cublasLtMatrixLayoutOpaque_t *l) const { cublasLtMatrixLayoutDestroy(l); }
  void operator()(cublasLtMatmulPreferenceOpaque_t *p) const { cublasLtMatmulPreferenceDestroy(p); }
};
using MatmulDesc = std::unique_ptr<cublasLtMatmulDescOpaque_t, LtDeleter>;
using Layout = std::unique_ptr<cublasLtMatrixLayoutOpaque_t, LtDeleter>;
using Preference = std::unique_ptr<cublasLtMatmulPreferenceOpaque_t, LtDeleter>;

class LtHandle {
public:
  LtHandle() { ROOFCHECK_CUBLAS(cublasLtCreate(&handle_)); }
  ~LtHandle() { cublasLtDestroy(handle_); }
  LtHandle(const LtHandle &) = delete;
  LtHandle &operator=(const LtHandle &) = delete;
  cublasLtHandle_t get() const { return handle_; }

private:
  cublasLtHandle_t handle_ = nullptr;
};

Layout layout(cudaDataType_t type, uint64_t rows, uint64_t cols) {
  cublasLtMatrixLayout_t l = nullptr;
  ROOFCHECK_CUBLAS(cublasLtMatrixLayoutCreate(&l, type, rows, cols, static_cast<int64_t>(rows)));
  return Layout(l);
}

Json algorithmJson(const cublasLtMatmulAlgo_t &algo, int rank, size_t workspace) {
  auto attribute = [&](cublasLtMatmulAlgoConfigAttributes_t which, const char *name) -> Json {
    int32_t value = 0; // ID, TILE_ID, SPLITK_NUM and STAGES_ID are all 32-bit
    size_t written = 0;
    cublasStatus_t status = cublasLtMatmulAlgoConfigGetAttribute(&algo, which, &value, sizeof value, &written);
    if (status != CUBLAS_STATUS_SUCCESS)
      throw Error(std::string("cublasLtMatmulAlgoConfigGetAttribute(") + name + ") failed: " +
                  cublasLtGetStatusString(status));
    return value;
  };
  return Json{{"heuristic_rank", rank},
              {"algo_id", attribute(CUBLASLT_ALGO_CONFIG_ID, "ID")},
              {"tile_id", attribute(CUBLASLT_ALGO_CONFIG_TILE_ID, "TILE_ID")},
              {"stages_id", attribute(CUBLASLT_ALGO_CONFIG_STAGES_ID, "STAGES_ID")},
              {"split_k", attribute(CUBLASLT_ALGO_CONFIG_SPLITK_NUM, "SPLITK_NUM")},
              {"workspace_bytes", workspace}};
}

void probeGemm(ProbeContext &context, LtHandle &handle, const GemmKind &kind, DeviceBuffer &workspace) {
  const DeviceProperties &device = context.device;
  const uint64_t n = static_cast<uint64_t>(gemmSize(context.options.quick));
  DeviceBuffer a(n * n * kind.abBytes), b(n * n * kind.abBytes), d(n * n * kind.cdBytes);
  kernels::fillRandomValues(a.get(), n * n, kind.fill, context.seed(), context.stream);
  kernels::fillRandomValues(b.get(), n * n, kind.fill, context.seed(), context.stream);
  kernels::fillRandomValues(d.get(), n * n, kind.fill == kernels::ValueType::FP8E4M3 ? kernels::ValueType::BF16 : kind.fill,
                            context.seed(), context.stream);

  Layout aLayout = layout(kind.ab, n, n), bLayout = layout(kind.ab, n, n), dLayout = layout(kind.cd, n, n);
  cublasLtMatmulPreference_t rawPref = nullptr;
  ROOFCHECK_CUBLAS(cublasLtMatmulPreferenceCreate(&rawPref));
  Preference pref(rawPref);
  const uint64_t workspaceBytes = workspace.bytes();
  ROOFCHECK_CUBLAS(cublasLtMatmulPreferenceSetAttribute(pref.get(), CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                        &workspaceBytes, sizeof workspaceBytes));

  // One operation descriptor per layout; each heuristic answer belongs to its descriptor.
  struct Candidate {
    const char *layout;
    cublasLtMatmulDesc_t desc;
    cublasLtMatmulHeuristicResult_t result;
    int rank;
  };
  std::vector<MatmulDesc> descs;
  std::vector<Candidate> candidates;
  const int perLayout = context.options.quick ? 2 : 4;
  for (const char *layoutName : {"TN", "NN"}) {
    const bool transposedA = layoutName[0] == 'T';
    if (!transposedA && kind.transposedAOnly)
      continue;
    cublasLtMatmulDesc_t rawDesc = nullptr;
    ROOFCHECK_CUBLAS(cublasLtMatmulDescCreate(&rawDesc, kind.compute, kind.scale));
    descs.emplace_back(rawDesc);
    const int32_t transA = transposedA ? CUBLAS_OP_T : CUBLAS_OP_N, transB = CUBLAS_OP_N;
    ROOFCHECK_CUBLAS(cublasLtMatmulDescSetAttribute(rawDesc, CUBLASLT_MATMUL_DESC_TRANSA, &transA, sizeof transA));
    ROOFCHECK_CUBLAS(cublasLtMatmulDescSetAttribute(rawDesc, CUBLASLT_MATMUL_DESC_TRANSB, &transB, sizeof transB));
    cublasLtMatmulHeuristicResult_t results[8] = {};
    int returned = 0;
    cublasStatus_t status = cublasLtMatmulAlgoGetHeuristic(handle.get(), rawDesc, aLayout.get(), bLayout.get(),
                                                           dLayout.get(), dLayout.get(), pref.get(), 8, results,
                                                           &returned);
    if (status == CUBLAS_STATUS_NOT_SUPPORTED)
      continue;
    checkCublas(status, "cublasLtMatmulAlgoGetHeuristic");
    for (int i = 0; i < std::min(returned, perLayout); ++i)
      if (results[i].state == CUBLAS_STATUS_SUCCESS)
        candidates.push_back({layoutName, rawDesc, results[i], i});
  }
  if (candidates.empty()) {
    context.warnings.push_back(std::string("tensor ") + kind.dtype + ": cuBLASLt has no algorithm for it here; skipped");
    return;
  }

  const float alpha32 = 1, beta32 = 0;
  const double alpha64 = 1, beta64 = 0;
  const bool doubleScale = kind.scale == CUDA_R_64F;
  const void *alpha = doubleScale ? static_cast<const void *>(&alpha64) : &alpha32;
  const void *beta = doubleScale ? static_cast<const void *>(&beta64) : &beta32;
  auto launchWith = [&](const Candidate &c) -> Launch {
    return [&, c](cudaStream_t s) {
      ROOFCHECK_CUBLAS(cublasLtMatmul(handle.get(), c.desc, alpha, a.get(), aLayout.get(), b.get(), bLayout.get(),
                                      beta, d.get(), dLayout.get(), d.get(), dLayout.get(), &c.result.algo,
                                      workspace.get(), c.result.workspaceSize, s));
    };
  };
  auto describe = [&](const Candidate &c) {
    Json j = algorithmJson(c.result.algo, c.rank, c.result.workspaceSize);
    j["layout"] = c.layout;
    return j;
  };

  const double flops = 2.0 * double(n) * double(n) * double(n);
  Json screened = Json::array();
  size_t best = 0;
  double bestRate = 0;
  for (size_t i = 0; i < candidates.size(); ++i) {
    Measurement m = context.measurer.measure(launchWith(candidates[i]), flops, screeningPlan(context.options.quick));
    Json entry = describe(candidates[i]);
    entry["median"] = m.rate.median;
    screened.push_back(entry);
    if (m.rate.median > bestRate) {
      bestRate = m.rate.median;
      best = i;
    }
  }
  // The ceiling is the best a run of products reaches: bursts from idle, which run near the top clock, and
  // the rate a long run sustains at the power cap, kept beside it (the lower of the two, as a rule).
  Measurement sustained =
      context.measurer.measure(launchWith(candidates[best]), flops, sustainedPlan(context.options.quick));
  const BurstPlan bursts = burstPlan(context.options.quick);
  Measurement burst = context.measurer.measureBursts(launchWith(candidates[best]), flops, bursts);
  const Measurement &m = burst.rate.median >= sustained.rate.median ? burst : sustained;
  Json parameters = {{"m", n},
                     {"n", n},
                     {"k", n},
                     {"storage", "column-major"},
                     {"algorithm", describe(candidates[best])},
                     {"candidates", screened},
                     {"measured_as", &m == &burst ? "bursts" : "sustained"},
                     {"bursts",
                      {{"count", bursts.bursts},
                       {"launches_each", bursts.launchesPerBurst},
                       {"window", bursts.window},
                       {"idle_seconds", bursts.idleSeconds},
                       {"best_window_medians", burst.burstMedians},
                       {"sm_mhz_during_best", burst.during.smMHz ? Json(*burst.during.smMHz) : Json()}}},
                     {"sustained",
                      {{"median", sustained.rate.median},
                       {"min", sustained.rate.min},
                       {"max", sustained.rate.max},
                       {"launches", sustained.rate.count},
                       {"sm_mhz_during", sustained.during.smMHz ? Json(*sustained.during.smMHz) : Json()}}}};
  Provenance p = provenanceOf(std::string("cublasLtMatmul ") + kind.dtype, parameters, m);
  double clock = peakSmClock(p, device);
  p.parameters["theoretical_peak"] = peakJson(theoreticalPeak(kind.unit, device.multiprocessors, clock),
                                              peakBasis(kind.unit, device.multiprocessors, clock));
  context.addCompute({"tensor", kind.dtype, kind.path, p.median, p});
}

} // namespace

void probeTensor(ProbeContext &context) {
  LtHandle handle;
  DeviceBuffer workspace(64u << 20);
  const int capability = context.device.computeMajor * 10 + context.device.computeMinor;
  for (const GemmKind &kind : gemmKinds) {
    if (capability < kind.minComputeCapability) {
      context.warnings.push_back(std::string("tensor ") + kind.dtype + ": not supported by compute capability " +
                                 std::to_string(context.device.computeMajor) + "." +
                                 std::to_string(context.device.computeMinor) + "; skipped");
      continue;
    }
    probeGemm(context, handle, kind, workspace);
  }
}

} // namespace roofcheck::probe
