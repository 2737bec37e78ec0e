// Syntax errors in a kernel and in host code: the message gives the first and counts the rest.
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x
  if (i < n)
    x[i] = 2.0f * ;
}

int host_side( {
  return 0
}
