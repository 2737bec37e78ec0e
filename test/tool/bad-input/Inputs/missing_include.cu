// A header that is not there (a missing -I, a generated header not yet generated).
#include "generated/kernel_params.h"

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}
