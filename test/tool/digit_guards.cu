// Guards on the digits of a flat index (col = idx % n, row = idx / n) keep a stencil's neighbours inside the
// grid: each neighbour is a box beside the centre, and the read footprint is their union, the grid once.
// RUN: roofcheck-lint %s --kernel five_point --grid 256 --block 256 --arg n=256 | FileCheck %s
// RUN: roofcheck-lint %s --kernel five_point --grid 128 --block 256 --arg n=256 | FileCheck %s --check-prefix=HALF
// RUN: roofcheck-lint %s --kernel interior_only --grid 256 --block 256 --arg n=256 | FileCheck %s --check-prefix=INTERIOR
//
// 256 x 256 doubles: 524288 bytes read and written.

__global__ void five_point(unsigned n, double w, const double *__restrict__ in, double *__restrict__ out) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n * n) {
    int col = idx % n;
    int row = idx / n;
    double left = col > 0 ? in[idx - 1] : 0.0;
    double right = col < n - 1 ? in[idx + 1] : 0.0;
    double up = row > 0 ? in[idx - n] : 0.0;
    double down = row < n - 1 ? in[idx + n] : 0.0;
    out[idx] = (1.0 - 4.0 * w) * in[idx] + w * (left + right + up + down);
  }
}
// CHECK-LABEL: kernel five_point
// CHECK: bytes.read {{.*}} = 524288{{$}}
// CHECK: bytes.write 8 * min(n * n, blockDim.x * gridDim.x) = 524288{{$}}

// Half the grid's threads: rows 0-127 are computed, and the last of them reads row 128 below it.
// HALF: bytes.read {{.*}} = 264192{{$}}
// HALF: bytes.write 8 * min(n * n, blockDim.x * gridDim.x) = 262144{{$}}

// Where the guarded access is along the index itself, the guard leaves out the first column: 255 of 256.
__global__ void interior_only(unsigned n, float *data) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n * n && idx % n > 0)
    data[idx] = 0.0f;
}
// INTERIOR: bytes.write {{.*}} = 261120{{$}}

// An address that does not move along the index (one flag per block, set where a row starts): which blocks
// hold a row's start is not modelled, and says so.
// RUN: roofcheck-lint %s --kernel row_starts --grid 256 --block 256 --arg n=300 | FileCheck %s --check-prefix=STARTS
__global__ void row_starts(unsigned n, int *flags) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n * n && idx % n == 0)
    flags[blockIdx.x] = 1;
}
// STARTS: bytes.write unknown
// STARTS: unknown: guard on a digit of a flat index (i % n, i / n) that the address does not follow
