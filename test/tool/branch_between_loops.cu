// A test with a loop on each side chooses between the loops: it is no loop's guard, and each side is counted
// times its test, never both sides (a GEMM epilogue that reads its source fragment by fragment only when
// beta is not zero), and so is the footprint of what only one side reads. A test whose other side goes where
// the loop ends guards that loop, as a rotated loop's is.
// RUN: roofcheck-lint %s --grid 1 --block 32 --arg n=5 --arg beta=0.5 | FileCheck %s
// RUN: roofcheck-lint %s --kernel epilogueFragments --grid 1 --block 32 --arg beta=0 | FileCheck %s --check-prefix=ZERO

__global__ void epilogueFragments(float *out, const float *source, float alpha, float beta) {
  float frag[8];
  for (int i = 0; i < 8; ++i)
    frag[i] = out[threadIdx.x * 8 + i];
  if (beta != 0.0f) {
    for (int i = 0; i < 8; ++i)
      frag[i] = alpha * frag[i] + beta * source[threadIdx.x * 8 + i];
  } else {
    for (int i = 0; i < 8; ++i)
      frag[i] = alpha * frag[i];
  }
  for (int i = 0; i < 8; ++i)
    out[threadIdx.x * 8 + i] = frag[i];
}

// 8 FMAs and 8 multiplies a thread where beta != 0, 8 multiplies where it is 0; 32 bytes of out a thread, and
// 32 of source where beta != 0.
// CHECK-LABEL: kernel epilogueFragments
// CHECK: flops.fp32 16 * {{.*}} * ne(beta, 0.0) + 8 * {{.*}} = 768{{$}}
// CHECK: bytes.read 32 * blockDim.x * ne(beta, 0.0) + 32 * blockDim.x = 2048{{$}}
// CHECK: bytes.write 32 * blockDim.x = 1024{{$}}
// CHECK-NOT: unknown
// ZERO: flops.fp32 {{.*}} = 256{{$}}
// ZERO: bytes.read {{.*}} = 1024{{$}}

// 5 trips of one FMA: 10 FLOPs a thread, 32 threads; the test in front of the loop is its own.
__global__ void guardedRows(float *out, float alpha, int n) {
  float acc = 0;
  if (n > 0)
    for (int r = 0; r < n; ++r)
      acc = acc * alpha + out[r * 32 + threadIdx.x];
  out[threadIdx.x] = acc;
}

// CHECK-LABEL: kernel guardedRows
// CHECK: flops.fp32 {{.*}}n{{.*}} = 320{{$}}
// CHECK-NOT: unknown:
