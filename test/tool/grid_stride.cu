// Grid-stride loop: the launch (4 x 128 = 512 threads) is smaller than n; each element is visited once.
// RUN: roofcheck-lint %s --grid 4 --block 128 --arg n=10000 | FileCheck %s
// RUN: roofcheck-lint %s | FileCheck %s --check-prefix=SYMBOLIC
//
// By hand: over all threads the loop runs for every i in [0, n) exactly once: 10000 iterations, one FMA
// (2 flops) each -> fp32 = 20000. in and out: 4 * 10000 = 40000 B each. The trip count of one thread,
// ceil((n - i0) / (gridDim.x*blockDim.x)), depends on the thread; the sum over threads is n.
__global__ void scale_shift(const float *in, float *out, float s, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = s * in[i] + 1.0f;
}

// CHECK-LABEL: kernel scale_shift
// CHECK: flops.total {{.*}} = 20000{{$}}
// CHECK: bytes.read 4 * n = 40000{{$}}
// CHECK: bytes.write 4 * n = 40000{{$}}
// CHECK: bytes.predicted 8 * n = 80000{{$}}
// SYMBOLIC: flops.fp32 2 * blockDim.y * blockDim.z * gridDim.y * gridDim.z * n{{$}}

// The same loop with an extra exit that stops a thread before `i += stride` could wrap past UINT_MAX (ggml's
// binary ops): it leaves exactly where `i < n` would leave next, so the count is the plain loop's.
__global__ void scale_no_wrap(const float *in, float *out, float s, unsigned n) {
  const unsigned stride = blockDim.x * gridDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = s * in[i] + 1.0f;
    if (n - i <= stride)
      break;
  }
}

// CHECK-LABEL: kernel scale_no_wrap
// CHECK: flops.total {{.*}} = 20000{{$}}
// CHECK: bytes.read 4 * n = 40000{{$}}
// CHECK: bytes.write 4 * n = 40000{{$}}
// CHECK-NOT: unknown:
