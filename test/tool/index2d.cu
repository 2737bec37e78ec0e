// 2D indices: x from blockIdx.x/threadIdx.x, y from blockIdx.y/threadIdx.y, with a partial last block
// column (cols = 50 is not a multiple of blockDim.x = 32).
// RUN: roofcheck-lint %s --grid 2,25 --block 32,4 --arg rows=100 --arg cols=50 | FileCheck %s
//
// By hand: x threads = min(cols, 2*32) = 50, y threads = min(rows, 25*4) = 100: 5000 active threads,
// one add each (fmaxf is a comparison: 0 flops) -> fp32 = 5000.
// in[r*cols + c]: 50 x 100 distinct floats = 20000 B; bias[c]: 50 floats = 200 B -> read = 20200.
// out: 20000 B. All accesses 4 B apart along threadIdx.x: predicted = ideal = 40200.
__global__ void add_bias_relu(const float *in, const float *bias, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c >= cols)
    return;
  if (r >= rows)
    return;
  float v = in[r * cols + c] + bias[c];
  out[r * cols + c] = fmaxf(v, 0.0f);
}

// CHECK-LABEL: kernel add_bias_relu
// CHECK: flops.total {{.*}} = 5000{{$}}
// CHECK: flops.special 0{{$}}
// CHECK: bytes.read {{.*}} = 20200{{$}}
// CHECK: bytes.write 4 * min(cols, blockDim.x * gridDim.x) * min(rows, blockDim.y * gridDim.y) = 20000{{$}}
// CHECK: bytes.predicted {{.*}} = 40200{{$}}
