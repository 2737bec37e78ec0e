// Pointers a kernel reads from a struct passed by value (a lambda's captures, a functor's members) are
// arrays like pointer parameters: each field is counted under the parameter's name and the field's byte
// offset. A pointer loaded from global memory (an array of pointers) stays an unknown.
// RUN: roofcheck-lint %s --grid 1024 --block 256 --arg n=262144 | FileCheck %s

template <typename Op> __global__ void apply(unsigned long n, Op op) {
  for (unsigned long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    op(i);
}

struct Saxpy {
  const float *x;
  float *y;
  float a;
  __device__ void operator()(unsigned long i) const { y[i] = a * x[i] + y[i]; }
};

template void __global__ apply<Saxpy>(unsigned long, Saxpy);

void scale_add(const double *x, double *y, double a, unsigned long n) {
  apply<<<1024, 256>>>(n, [=] __device__(unsigned long i) { y[i] += a * x[i]; });
}

__global__ void gather_rows(float *const *rows, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = rows[i][0];
}

// x: 262144 floats read; y: read and written.
// CHECK-LABEL: kernel apply<Saxpy>
// CHECK: bytes.read 8 * n = 2097152{{$}}
// CHECK: bytes.write 4 * n = 1048576{{$}}
// CHECK-LABEL: kernel apply<(lambda
// CHECK: bytes.read 16 * n = 4194304{{$}}
// CHECK: bytes.write 8 * n = 2097152{{$}}
// CHECK-LABEL: kernel gather_rows
// CHECK: bytes.read unknown
// CHECK: unknown: pointer it cannot follow (load)
