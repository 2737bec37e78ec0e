// Tree reduction in shared memory: for (s = blockDim.x/2; s > 0; s >>= 1) if (tid < s) ...
// RUN: roofcheck-lint %s --grid 64 --block 256 --arg n=16384 | FileCheck %s
//
// By hand: per block 128 + 64 + ... + 1 = 255 = blockDim.x - 1 adds, 64 blocks -> fp32 = 16320.
// in: min(n, 64*256) = 16384 floats = 65536 B; partial[blockIdx.x]: 64 floats = 256 B.
__global__ void reduce_sum(const float *in, float *partial, int n) {
  __shared__ float sdata[256];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = sdata[0];
}

// CHECK-LABEL: kernel reduce_sum
// CHECK: flops.fp32 {{.*}} = 16320{{$}}
// CHECK: bytes.read 4 * min(n, blockDim.x * gridDim.x) = 65536{{$}}
// CHECK: bytes.write 4 * gridDim.x = 256{{$}}
// CHECK-NOT: unknown:
