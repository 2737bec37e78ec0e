// Host code that nvcc accepts is not checked by the device compilation: a host template calling the host's
// isfinite on a float, clock() in a host function, and omp.h (nvcc's host compiler finds it in its own
// include folder, without -fopenmp). The kernel is analysed.
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1000 -- -std=c++17 | FileCheck %s
#include <cmath>
#include <ctime>
#include <omp.h>

template <class T> bool allFinite(const T *values, int count) {
  for (int i = 0; i < count; ++i)
    if (!isfinite(values[i]))
      return false;
  return true;
}

double seconds() { return static_cast<double>(clock()) / CLOCKS_PER_SEC; }

__global__ void twice(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
}

int main() {
  float host[4] = {};
  int threads = 0;
#pragma omp parallel
  threads = omp_get_num_threads();
  return allFinite(host, 4) && seconds() >= 0 && threads > 0 ? 0 : 1;
}

// CHECK-LABEL: kernel twice
// CHECK: flops.fp32 {{.*}} = 1000{{$}}
// CHECK: bytes.read {{.*}} = 4000{{$}}
// CHECK-NOT: unknown:
