// The same kernel, writing rows: nothing to report.
__global__ void write_rows(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}
