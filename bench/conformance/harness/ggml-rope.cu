// Launches ggml's rotary position embedding (rope_norm and rope_neox, src/ggml-cuda/rope.cu) through ggml's
// own host wrappers, as ggml runs them on a contiguous f32 tensor of HEAD_DIM x HEADS x TOKENS, for the static
// estimate of those kernels (their bytes depend on which of the kernel's tests of parameters hold) to be
// checked against Nsight Compute on code we did not write. Built against a ggml checkout with the corpus's
// flags (bench/conformance/corpus.json), which only this file's includes reach: nothing of ggml is kept here.
//
//   nvcc <ggml flags> -I$GGML/src/ggml-cuda ggml-rope.cu -Xlinker --unresolved-symbols=ignore-all
//
// usage: ggml-rope HEAD_DIM HEADS TOKENS   for each of rope_norm and rope_neox: every dimension rotated; half
// of them rotated (the rest copied, as for a partial rotary model); every dimension rotated in place; and
// every dimension rotated with per-frequency factors
#include "rope.cu"

#include <cstdio>
#include <cstdlib>

enum class Variant { Full, HalfRotated, InPlace, FrequencyFactors };

static const char *variantName(Variant variant) {
  switch (variant) {
  case Variant::Full:
    return "full";
  case Variant::HalfRotated:
    return "half rotated";
  case Variant::InPlace:
    return "in place";
  case Variant::FrequencyFactors:
    return "frequency factors";
  }
  return "?";
}

static bool rope(bool neox, Variant variant, int headDim, int heads, int tokens) {
  const size_t elements = size_t(headDim) * heads * tokens;
  float *x = nullptr, *dst = nullptr, *factors = nullptr;
  int32_t *positions = nullptr;
  if (cudaMalloc(&x, elements * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dst, elements * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&factors, headDim / 2 * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&positions, tokens * sizeof(int32_t)) != cudaSuccess)
    return false;
  cudaMemset(x, 0, elements * sizeof(float));
  cudaMemset(factors, 0, headDim / 2 * sizeof(float));
  cudaMemset(positions, 0, tokens * sizeof(int32_t));
  const bool inPlace = variant == Variant::InPlace;
  float *out = inPlace ? x : dst;
  const int dims = variant == Variant::HalfRotated ? headDim / 2 : headDim;
  const float *frequencyFactors = variant == Variant::FrequencyFactors ? factors : nullptr;
  // Contiguous strides in elements, as ggml_cuda_op_rope passes them (nb / type size); ne03 = 1.
  const int s1 = headDim, s2 = headDim * heads, s3 = headDim * heads * tokens;
  const rope_corr_dims corrections{{0.0f, 0.0f}};
  const int rows = heads * tokens;
  if (neox)
    rope_neox_cuda<true>(x, out, headDim, heads, tokens, s1, s2, s3, s1, s2, s3, dims, 0, rows, positions, 1.0f,
                         10000.0f, 0.0f, 1.0f, corrections, frequencyFactors, nullptr, 0, inPlace, nullptr);
  else
    rope_norm_cuda<true>(x, out, headDim, heads, tokens, s1, s2, s3, s1, s2, s3, dims, 0, rows, positions, 1.0f,
                         10000.0f, 0.0f, 1.0f, corrections, frequencyFactors, nullptr, 0, inPlace, nullptr);
  bool ok = cudaDeviceSynchronize() == cudaSuccess;
  std::printf("%s %s head_dim %d heads %d tokens %d n_dims %d: %s\n", neox ? "rope_neox" : "rope_norm",
              variantName(variant), headDim, heads, tokens, dims,
              ok ? "ok" : cudaGetErrorString(cudaGetLastError()));
  for (void *p : {static_cast<void *>(x), static_cast<void *>(dst), static_cast<void *>(factors),
                  static_cast<void *>(positions)})
    cudaFree(p);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: ggml-rope HEAD_DIM HEADS TOKENS\n");
    return 2;
  }
  const int headDim = std::atoi(argv[1]), heads = std::atoi(argv[2]), tokens = std::atoi(argv[3]);
  // ggml's launch helper asks its device table (another file of ggml) whether to launch rope_neox with
  // programmatic dependent launch; a plain launch is what ggml does with GGML_CUDA_PDL=0.
  setenv("GGML_CUDA_PDL", "0", 1);
  if (headDim <= 0 || headDim % 4 != 0 || heads <= 0 || tokens <= 0) {
    std::fprintf(stderr, "ggml-rope: HEAD_DIM must be a positive multiple of 4, HEADS and TOKENS positive\n");
    return 2;
  }
  for (bool neox : {false, true})
    for (Variant variant : {Variant::Full, Variant::HalfRotated, Variant::InPlace, Variant::FrequencyFactors})
      if (!rope(neox, variant, headDim, heads, tokens))
        return 1;
  return 0;
}
