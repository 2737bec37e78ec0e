// A branch the guards cannot express is never dropped in silence: a test of loaded data or of the thread
// coordinates in a form the engine does not model makes the counts below it unknown, with the cause. A
// grid flattened in two dimensions is one axis, and its guard is modelled.
// RUN: roofcheck-lint %s --grid 4,2 --block 128 --arg n=1000 --verbose | FileCheck %s

#define FLAT_ID (((gridDim.x) * (blockIdx.y) + (blockIdx.x)) * (blockDim.x) + (threadIdx.x))

// 4 x 2 blocks of 128 = 1024 threads, 1000 pass the guard.
__global__ void flattened(float *a, int n) {
  if (FLAT_ID < n)
    a[FLAT_ID] = a[FLAT_ID] + 1.0f;
}

// Only positive inputs are scaled: how many depends on the data.
__global__ void positive_only(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.0f)
    out[i] = 2.0f * in[i];
}

// One lane in 32 adds: the lane test is not a bound the guards express.
__global__ void lane_zero(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (threadIdx.x & 31) == 0)
    out[i / 32] = in[i] + 1.0f;
}

// CHECK-LABEL: kernel flattened
// CHECK: flops.total {{.*}} = 1000{{$}}
// CHECK: bytes.read 4 * min(n, blockDim.x * gridDim.x * gridDim.y) = 4000{{$}}
// CHECK-LABEL: kernel positive_only
// CHECK: flops.total unknown
// CHECK: bytes.read 4 * min(n, blockDim.x * gridDim.x) = 2048{{$}}
// CHECK: bytes.write unknown
// CHECK: unknown: branch on values loaded from memory
// CHECK-LABEL: kernel lane_zero
// CHECK: flops.total unknown
// CHECK: unknown: guard on the thread coordinates it cannot express
// CHECK: note: kernel 'positive_only': branch on values loaded from memory (the count depends on the data) [unknown: data-dependent-branch]
// CHECK: note: kernel 'lane_zero': guard on the thread coordinates it cannot express {{.*}} [unknown: analysis]

// An early exit of some threads in front of a loop is not the loop's own zero-trip test: it does not share
// the loop's bound, so it stays a guard (here one the guards cannot express: an unknown, never dropped).
// RUN: roofcheck-lint %s --kernel unpack_blocks --grid 4 --block 32 --arg nblocks=20 | FileCheck %s --check-prefix=EARLY
__global__ void unpack_blocks(const unsigned char *packed, float *out, int nblocks) {
  int sub = threadIdx.x % 8;
  if (8 * blockIdx.x + sub >= nblocks)
    return;
  for (int l = 0; l < 4; ++l)
    out[256 * blockIdx.x + 32 * sub + 4 * (threadIdx.x / 8) + l] = packed[18 * (8 * blockIdx.x + sub) + l];
}
// EARLY: bytes.read unknown
// EARLY: unknown: guard on the thread coordinates it cannot express
