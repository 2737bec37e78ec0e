// SCALE comes from the command line; without it the file does not compile.
__global__ void scaled(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * SCALE;
}
