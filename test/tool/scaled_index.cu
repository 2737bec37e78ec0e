// Guards on a scaled index bound the threads: with i = global index * 8, `i < N` admits ceil_div(N, 8)
// threads, so a kernel that handles eight elements per thread counts 8 * N FLOPs, in terms of N.
// RUN: roofcheck-lint %s --grid 64 --block 256 --arg N=100000 --rules=-roofcheck-uncoalesced-access | FileCheck %s
//
// 16384 threads; ceil_div(100000, 8) = 12500 of them pass the guard: 8 FLOPs and 32 bytes each way each.
// In the float4 kernel, ceil_div(100000, 4) = 25000 > 16384 threads: every thread, 16 bytes each way.

__global__ void eight_per_thread(float *out, const float *in, int N) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  if (i < N) {
    for (int k = 0; k < 8; ++k)
      out[i + k] = in[i + k] * 2.0f;
  }
}

__global__ void vector_of_four(float4 *out, const float4 *in, int N) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i < N) {
    float4 v = in[i / 4];
    v.x *= 2.0f;
    out[i / 4] = v;
  }
}

// CHECK-LABEL: kernel eight_per_thread
// CHECK: flops.total {{.*}}min(ceil_div(N, 8), blockDim.x * gridDim.x) = 100000{{$}}
// CHECK: bytes.read 32 * min(ceil_div(N, 8), blockDim.x * gridDim.x) = 400000{{$}}
// CHECK: bytes.write 32 * min(ceil_div(N, 8), blockDim.x * gridDim.x) = 400000{{$}}
// The loop over k fills the 32 bytes between neighbouring threads: no sector inflation of the DRAM bytes.
// CHECK: bytes.predicted 64 * min(ceil_div(N, 8), blockDim.x * gridDim.x) = 800000{{$}}
// CHECK-LABEL: kernel vector_of_four
// CHECK: flops.total {{.*}} = 16384{{$}}
// CHECK: bytes.read 16 * min(ceil_div(N, 4), blockDim.x * gridDim.x) = 262144{{$}}
// CHECK-NOT: unknown:
