// The remainder of a grid-stride loop's index (a row broadcast along a flat index: ggml's binary ops take
// src1[i0 % ne10] inside `for (i0 = global; i0 < ne0; i0 += blockDim.x * gridDim.x)`) is a digit of the
// index the loop walks over [0, n): the broadcast row's footprint is min(n, cols) elements.
// RUN: roofcheck-lint %s --kernel addRowBias --grid 4 --block 64 --arg n=10000 --arg cols=96 | FileCheck %s
// RUN: roofcheck-lint %s --kernel addRowBias --grid 4 --block 64 --arg n=50 --arg cols=96 | FileCheck %s --check-prefix=SHORT
// RUN: roofcheck-lint %s --kernel rowOfEach --grid 4 --block 64 --arg n=10000 --arg cols=96 | FileCheck %s --check-prefix=ROWS
// RUN: roofcheck-lint %s --kernel fromOne --grid 4 --block 64 --arg n=10000 --arg cols=96 | FileCheck %s --check-prefix=OFFSET

// Reads 10000 values and a row of 96 biases, writes 10000: 40000 + 384 bytes read, 40000 written.
__global__ void addRowBias(const float *x, const float *bias, float *y, unsigned n, unsigned cols) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = x[i] + bias[i % cols];
}

// CHECK-LABEL: kernel addRowBias
// CHECK: bytes.read {{.*}} = 40384{{$}}
// CHECK: bytes.write {{.*}} = 40000{{$}}
// CHECK-NOT: unknown:

// Fewer values than a row: only the first 50 biases are read.
// SHORT: bytes.read {{.*}} = 400{{$}}

// The quotient picks the row: one scale a row, ceil(10000 / 96) = 105 of them.
__global__ void rowOfEach(const float *x, const float *scale, float *y, unsigned n, unsigned cols) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = x[i] * scale[i / cols];
}

// ROWS-LABEL: kernel rowOfEach
// ROWS: bytes.read {{.*}} = 40420{{$}}
// ROWS-NOT: unknown:

// A loop that does not start at the first position: its digits are not the loop's span; an unknown.
__global__ void fromOne(const float *x, const float *bias, float *y, unsigned n, unsigned cols) {
  for (unsigned i = 1 + blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = x[i] + bias[i % cols];
}

// OFFSET-LABEL: kernel fromOne
// OFFSET: bytes.read unknown
