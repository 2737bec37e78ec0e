// Template kernels are analysed per instantiation; --kernel selects with or without template arguments.
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1000 | FileCheck %s
// RUN: roofcheck-lint %s --kernel 'axpby<double>' --grid 4 --block 256 --arg n=1000 | FileCheck %s --check-prefix=ONE
//
// 1 mul + 1 FMA = 3 flops per element, 1000 elements:
//   axpby<float>:  fp32 = 3000, read 8000 (x, y), write 4000
//   axpby<double>: fp64 = 3000, fp32 = 0, read 16000, write 8000
template <typename T>
__global__ void axpby(int n, T a, const T *x, T b, T *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + b * y[i];
}
template __global__ void axpby<float>(int, float, const float *, float, float *);
template __global__ void axpby<double>(int, double, const double *, double, double *);

// CHECK-LABEL: kernel axpby<float> (_Z5axpbyIfEviT_PKS0_S0_PS0_)
// CHECK: flops.fp32 {{.*}} = 3000{{$}}
// CHECK: bytes.read {{.*}} = 8000{{$}}
// CHECK: bytes.write {{.*}} = 4000{{$}}
// CHECK-LABEL: kernel axpby<double> (_Z5axpbyIdEviT_PKS0_S0_PS0_)
// CHECK: flops.fp64 {{.*}} = 3000{{$}}
// CHECK: flops.fp32 0{{$}}
// CHECK: bytes.read {{.*}} = 16000{{$}}
// ONE-NOT: axpby<float>
// ONE: kernel axpby<double>
// ONE-NOT: axpby<float>
