// What runs on one side of a test of the kernel's parameters alone (a mode, a flag, a threshold, an optional
// pointer) is counted times the test: 1 where it holds, 0 where it does not, written with lt, le, eq and ne and
// with pointers standing for whether they are given (1) or null (0). A launch's counts are then those of the
// side it takes, never both sides; so is its footprint: what is read or written on one side only is counted
// times that side's test, and one array written on several sides once where any of them holds (the max of
// their tests). 1,000 elements; 4 blocks of 256 threads.
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1000 --arg op=0 --arg f.bias=1 --arg f.gate=1 \
// RUN:   --arg f.gated=1 --arg f.clamp=0.5 --arg limit=4096 --arg mode=2 --arg gate=1 | FileCheck %s --check-prefixes=CHECK,FIRST
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1000 --arg op=1 --arg f.bias=0 --arg f.gate=1 \
// RUN:   --arg f.gated=0 --arg f.clamp=0 --arg limit=500 --arg mode=3 --arg gate=0 | FileCheck %s --check-prefixes=CHECK,SECOND
// RUN: roofcheck-lint %s --kernel glu --grid 4 --block 256 --arg n=1000 --arg op=7 | FileCheck %s --check-prefix=DEFAULT

enum GluOp { Swiglu = 0, Geglu = 1, Plain = 2 };

// A switch on an enum parameter: each case times eq(op, case), the default times none of them.
__global__ void glu(float *dst, float *aux, const float *x, const float *gate, int n, GluOp op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i], g = gate[i];
  switch (op) {
  case Swiglu: // an FMA and a multiply
    dst[i] = v * g + g * g;
    break;
  case Geglu: // two multiplies and an add
    aux[i] = v * g * g + 1.0f;
    break;
  default: // one multiply
    dst[i] = v * g;
    aux[i] = v;
    break;
  }
}

struct Fusion {
  const float *bias;
  const float *gate;
  bool gated;
  float clamp;
};

// Members of a by-value struct: an optional pointer, a bool and a float threshold, and the null side.
__global__ void fused(float *dst, const float *x, int n, Fusion f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  if (f.bias) // an add where the bias is given
    v += f.bias[i];
  else // a multiply where it is not
    v *= 3.0f;
  if (f.gated && f.gate) // a multiply where both hold
    v *= f.gate[i];
  if (f.clamp > 0.0f) // a multiply where the threshold is positive
    v = fminf(v, f.clamp) * 0.5f;
  dst[i] = v;
}

// Integer tests joined with a thread guard: the guard bounds the threads, the parameters decide the side (an
// early return where they fail, after the compiler's reordering).
__global__ void limited(float *dst, const float *x, int n, int limit, int mode) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && n > limit && mode != 1)
    dst[i] = x[i] * x[i] * 2.0f + x[i];
}

// dst is written by case 0 and the default, aux by case 1 and the default: 4,000 bytes in either case, 8,000
// by the default.
// The sum of a warp's values, every lane's: five shuffles and adds a thread, in a loop of constant trips.
__device__ float warpSum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, offset, 32);
  return v;
}

// A test in front of a loop of constant trips is not that loop's guard (the loop runs its trips wherever it
// runs): the gate's reduction is counted times whether the gate is given, as ggml's fused matrix-vector
// product reduces its gate's sum only where there is one.
__global__ void gatedSums(float *sums, float *gateSums, const float *x, const float *gate) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sums[i] = warpSum(x[i]);
  if (gate)
    gateSums[i] = warpSum(gate[i]);
}

// CHECK-LABEL: kernel glu
// CHECK: flops.fp32 {{.*}}eq(op, 0){{.*}}eq(op, 1)
// FIRST-SAME: = 3000{{$}}
// SECOND-SAME: = 3000{{$}}
// CHECK: bytes.read 8 * min(n, blockDim.x * gridDim.x) = 8000{{$}}
// CHECK: bytes.write 4 * max(1 - eq(op, 0) - eq(op, 1), eq(op, 0)) * {{.*}} + 4 * max(1 - eq(op, 0) - eq(op, 1), eq(op, 1)) * {{.*}} = 4000{{$}}
// CHECK-NOT: unknown
// DEFAULT: flops.fp32 {{.*}} = 1000{{$}}
// DEFAULT: bytes.write {{.*}} = 8000{{$}}

// x always, the bias where given, the gate where given and used.
// CHECK-LABEL: kernel fused
// CHECK: flops.fp32 {{.*}}f.gate * f.gated{{.*}}lt(0.0, f.clamp)
// FIRST-SAME: = 3000{{$}}
// SECOND-SAME: = 1000{{$}}
// CHECK: bytes.read 4 * f.gate * f.gated * {{.*}} + 4 * f.bias * {{[^=]*}}
// FIRST-SAME: = 12000{{$}}
// SECOND-SAME: = 4000{{$}}
// CHECK-NOT: unknown

// CHECK-LABEL: kernel limited
// CHECK: flops.fp32 3 * {{.*}}lt(limit, n){{.*}}ne(mode, 1)
// FIRST-SAME: = 0{{$}}
// SECOND-SAME: = 3000{{$}}
// CHECK: bytes.read 4 * lt(limit, n) * min(n, blockDim.x * gridDim.x) * ne(mode, 1)
// FIRST-SAME: = 0{{$}}
// SECOND-SAME: = 4000{{$}}
// CHECK-NOT: unknown:

// 5 adds a thread for x's sum, 5 more for the gate's where it is given; 4,096 bytes read and written for each.
// CHECK-LABEL: kernel gatedSums
// CHECK: flops.fp32 5 * {{.*}} * gate * {{[^=]*}}
// FIRST-SAME: = 10240{{$}}
// SECOND-SAME: = 5120{{$}}
// CHECK: bytes.read 4 * blockDim.x * gate * gridDim.x + 4 * blockDim.x * gridDim.x
// FIRST-SAME: = 8192{{$}}
// SECOND-SAME: = 4096{{$}}
// CHECK-NOT: unknown
