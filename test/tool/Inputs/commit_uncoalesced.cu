// A kernel a commit should not let through: it writes a column per thread.
__global__ void write_columns(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i * n] = in[i];
}
