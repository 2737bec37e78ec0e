// A block-stride loop whose variable the optimiser widens to 64 bits for the addresses while
// the exit test stays on its int value, `ncols2 > trunc(col2 + 32)`, as in ggml's half-precision
// matrix-vector product: the test is matched at its own width and the loop keeps its trip count.
// RUN: roofcheck-lint %s --grid 2 --block 32 --arg ncols2=1000 --arg stride_row=2000 | FileCheck %s
#include <cuda_fp16.h>

// 2 rows of 1000 half2 products summed in half2 (a multiply and an add of two lanes: 4 fp16 FLOPs a trip),
// 32 threads a row, then one fp32 add a thread: 8000 fp16 and 64 fp32 FLOPs. Reads: the two rows of x, 8000
// bytes, and y once, 8000.
__global__ void halfRow(const half *x, const float *y, float *dst, int ncols2, int stride_row) {
  const half2 *x2 = (const half2 *)(x + (long long)blockIdx.x * stride_row);
  const float2 *y2 = (const float2 *)y;
  half2 sum = make_half2(0.0f, 0.0f);
  for (int col2 = threadIdx.x; col2 < ncols2; col2 += 32) {
    const float2 b = y2[col2];
    sum += x2[col2] * make_half2(b.x, b.y);
  }
  dst[blockIdx.x * 32 + threadIdx.x] = __low2float(sum) + __high2float(sum);
}

// CHECK-LABEL: kernel halfRow
// CHECK: flops.total {{.*}} = 8064{{$}}
// CHECK: flops.fp32 {{.*}} = 64{{$}}
// CHECK: flops.fp16 {{.*}} = 8000{{$}}
// CHECK: bytes.read {{.*}} = 16000{{$}}
// CHECK: bytes.write {{.*}} = 256{{$}}
// CHECK-NOT: unknown
