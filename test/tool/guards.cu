// Guards bound the active threads: early returns, `==`/`!=` tests and block-level conditions.
// RUN: roofcheck-lint --verbose %s --grid 8 --block 128 --arg n=1000 --arg m=5 --arg flag=3 | FileCheck %s
// RUN: roofcheck-lint %s --kernel flagged --grid 8 --block 128 --arg n=1000 --arg flag=0 | FileCheck %s --check-prefix=UNFLAGGED
// RUN: roofcheck-lint %s --kernel flagged --grid 8 --block 128 --arg n=-4 --arg flag=1 | FileCheck %s --check-prefix=EMPTY
//
// interior: threads i in [0, 8*128) = [0, 1024); `i >= n - 1` returns, `i == 0` returns, so the
// multiply runs for i in [1, n - 1) = [1, 999): min(n - 1, 1024) - 1 = 998 threads.
// flops.fp32 = 998; in[i] and out[i] over 998 elements: read = write = 4 * 998 = 3992.
__global__ void interior(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n - 1)
    return;
  if (i == 0)
    return;
  out[i] = in[i] * 3.0f;
}

// per_block: blocks with blockIdx.x < m (m = 5 of 8) and in them only threadIdx.x == 0: 5 threads.
// flops.fp32 = 5; in[blockIdx.x] and partial[blockIdx.x]: read = write = 4 * 5 = 20.
// Every thread of a warp reads the same address (stride 0): 1 sector per request, coalesced.
__global__ void per_block(const float *in, float *partial, int m) {
  if (blockIdx.x >= m)
    return;
  if (threadIdx.x == 0)
    partial[blockIdx.x] = in[blockIdx.x] * 2.0f;
}

// flagged: whether the multiply runs depends on `flag`: the FLOPs and the footprints of x and y are counted
// times the test, `ne(flag, 0)` (never both sides counted). The early return on `n <= 0` only excludes empty
// launches: everything below it is counted times `n > 0`, so a launch with a negative n moves nothing.
__global__ void flagged(const float *x, float *y, const float *z, float *w, int flag, int n) {
  if (n <= 0)
    return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag)
    y[i] = 2.0f * x[i];
  if (i < n)
    w[i] = z[i];
}

// CHECK-LABEL: kernel interior
// CHECK: flops.fp32 {{.*}} = 998{{$}}
// CHECK: bytes.read 4 * min(n - 1, blockDim.x * gridDim.x) - 4 = 3992{{$}}
// CHECK: bytes.write 4 * min(n - 1, blockDim.x * gridDim.x) - 4 = 3992{{$}}
// CHECK-LABEL: kernel per_block
// CHECK: flops.fp32 {{.*}} = 5{{$}}
// CHECK: bytes.read 4 * min(m, gridDim.x) = 20{{$}}
// CHECK: bytes.write 4 * min(m, gridDim.x) = 20{{$}}
// CHECK: load in: stride 0 B, 1 sectors/request, coalesced
// CHECK-LABEL: kernel flagged
// CHECK: flops.total {{.*}} * ne(flag, 0) = 1000{{$}}
// CHECK: bytes.read 4 * min(n, blockDim.x * gridDim.x) * ne(flag, 0) - {{.*}}lt(n, 1){{.*}} = 8000{{$}}
// CHECK: bytes.write 4 * min(n, blockDim.x * gridDim.x) * ne(flag, 0) - {{.*}}lt(n, 1){{.*}} = 8000{{$}}
// CHECK: load z: stride 4 B, 4 sectors/request, coalesced
// CHECK-NOT: unknown
// UNFLAGGED: flops.total {{.*}} * ne(flag, 0) = 0{{$}}
// UNFLAGGED: bytes.read {{.*}} = 4000{{$}}
// UNFLAGGED: bytes.write {{.*}} = 4000{{$}}
// EMPTY: flops.total {{.*}} = 0{{$}}
// EMPTY: bytes.read {{.*}} = 0{{$}}
// EMPTY: bytes.write {{.*}} = 0{{$}}
