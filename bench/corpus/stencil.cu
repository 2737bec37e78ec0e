// Corpus: stencils (1D 3-point, 2D 5-point), interior points only.
//
// Every kernel has an "ideal:" block right above it with the hand-derived
// expectations (DESIGN.md: add/sub/mul = 1 flop, FMA = 2, special functions
// apart; ideal bytes = unique global footprint read once + written once), then
// the values for the default size in main(). Neighbouring threads re-read the
// same input elements; the ideal counts each input byte once.
//
// Usage: corpus-stencil [--reps K]   (default 2 launches per kernel)

#include <cuda_runtime.h>

#include "corpus_util.h"

// Outputs i in [1, n-2]; per output 3 muls + 2 adds (the compiler emits
// FMUL + 2 FFMA: also 5 flops). Reads touch all of in[0..n-1].
// ideal: flops.total = 5(n-2), fp32 = 5(n-2), special = 0, bytes.read = 4n, bytes.write = 4(n-2)
// default n = 67108864: flops.total = 335544310, fp32 = 335544310, special = 0,
//   bytes.read = 268435456, bytes.write = 268435448
__global__ void stencil_1d_3pt(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) {
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
  }
}

// Interior points (nx-2)(ny-2); per point 4 adds + 1 mul. The input footprint is
// the whole nx*ny grid except its 4 corners (no interior point touches them).
// ideal: flops.total = 5(nx-2)(ny-2), fp32 = 5(nx-2)(ny-2), special = 0,
//   bytes.read = 4(nx*ny - 4), bytes.write = 4(nx-2)(ny-2)
// default nx = ny = 8192: flops.total = 335380500, fp32 = 335380500, special = 0,
//   bytes.read = 268435440, bytes.write = 268304400
__global__ void stencil_2d_5pt(const float* in, float* out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1) {
    int c = y * nx + x;
    out[c] = 0.2f * (in[c] + in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx]);
  }
}

// ---------------------------------------------------------------- host side

static int g_reps = 2;
static bool g_ok = true;

static void run_stencil_1d() {
  const int n = 1 << 26;
  Rng rng(11);
  std::vector<float> hin(n);
  for (auto& v : hin) v = rng.uniform(-1.0f, 1.0f);
  float* din = device_copy(hin);
  float* dout = device_alloc<float>(n);
  float ms = time_launches(
      g_reps, [&] { poison(dout, n * sizeof(float)); },
      [&] { stencil_1d_3pt<<<(n + 255) / 256, 256>>>(din, dout, n); });
  std::vector<float> out = host_copy(dout, n);
  double err = 0.0;
  for (int i = 1; i < n - 1; ++i) {
    double ref = 0.25 * hin[i - 1] + 0.5 * hin[i] + 0.25 * hin[i + 1];
    err = std::max(err, rel_err(out[i], ref, 1.0));
  }
  g_ok &= report("stencil_1d_3pt", "n=67108864", err, 1e-5, ms, g_reps);
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
}

static void run_stencil_2d() {
  const int nx = 8192, ny = 8192;
  const size_t elems = (size_t)nx * ny;
  Rng rng(12);
  std::vector<float> hin(elems);
  for (auto& v : hin) v = rng.uniform(-1.0f, 1.0f);
  float* din = device_copy(hin);
  float* dout = device_alloc<float>(elems);
  dim3 block(32, 8);
  dim3 grid((nx + 31) / 32, (ny + 7) / 8);
  float ms = time_launches(
      g_reps, [&] { poison(dout, elems * sizeof(float)); },
      [&] { stencil_2d_5pt<<<grid, block>>>(din, dout, nx, ny); });
  std::vector<float> out = host_copy(dout, elems);
  double err = 0.0;
  for (int y = 1; y < ny - 1; ++y) {
    for (int x = 1; x < nx - 1; ++x) {
      size_t c = (size_t)y * nx + x;
      double ref = 0.2 * ((double)hin[c] + hin[c - 1] + hin[c + 1] + hin[c - nx] + hin[c + nx]);
      err = std::max(err, rel_err(out[c], ref, 1.0));
    }
  }
  g_ok &= report("stencil_2d_5pt", "nx=8192 ny=8192", err, 1e-5, ms, g_reps);
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
}

int main(int argc, char** argv) {
  g_reps = parse_reps(argc, argv, "corpus-stencil", 2);
  run_stencil_1d();
  run_stencil_2d();
  return g_ok ? 0 : 1;
}
