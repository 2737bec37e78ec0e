// A `static __global__` kernel (CUTLASS declares every kernel so) has no internal-linkage marker in the
// binary nvcc builds, where clang's mangling gives it one (`_ZN4demoL5scaleEPfi`): the runtime records
// launches by nvcc's symbol, so the static file names the kernel as nvcc does, or the report could not join
// the two.
// RUN: roofcheck-lint %s --grid 1 --block 64 --arg n=64 --json %t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: roofcheck-lint %s --kernel _ZN4demo5scaleEPfi | FileCheck %s --check-prefix=BY-SYMBOL

namespace demo {
static __global__ void scale(float *x, int n) {
  if (threadIdx.x < n)
    x[threadIdx.x] *= 2.0f;
}

template <typename T> static __global__ void shift(T *x) { x[threadIdx.x] += T(1); }
} // namespace demo

static __global__ void halve(float *x) { x[threadIdx.x] *= 0.5f; }

namespace {
// Internal by its namespace, which nvcc names its own way: the name stays clang's.
__global__ void negate(float *x) { x[threadIdx.x] = -x[threadIdx.x]; }
} // namespace

void launchAll(float *x) {
  demo::scale<<<1, 64>>>(x, 64);
  demo::shift<float><<<1, 64>>>(x);
  halve<<<1, 64>>>(x);
  negate<<<1, 64>>>(x);
}

// CHECK: kernel scale (_ZN4demo5scaleEPfi)
// CHECK: flops.fp32 {{.*}} = 64{{$}}
// CHECK: kernel shift<float> (_ZN4demo5shiftIfEEvPT_)
// CHECK: kernel halve (_Z5halvePf)
// CHECK: kernel negate (_ZN12_GLOBAL__N_16negateEPf)

// JSON: "mangled": "_ZN4demo5scaleEPfi"
// JSON: "mangled": "_ZN4demo5shiftIfEEvPT_"
// JSON: "mangled": "_Z5halvePf"

// BY-SYMBOL: kernel scale (_ZN4demo5scaleEPfi)
// BY-SYMBOL-NOT: : kernel
