// Findings silenced by roofcheck-ignore comments (test/tool/suppressions.test).
__global__ void column_store(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i * n] = in[i]; // roofcheck-ignore(roofcheck-uncoalesced-access)
}

__global__ void promoted(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    // roofcheck-ignore-next-line(roofcheck-fp64-promotion)
    out[i] = in[i] * 0.1;
    out[i] += in[i] * 0.25;
    out[i * n] = in[i]; // roofcheck-ignore(roofcheck-fp64-promotion)
  }
}

// roofcheck-ignore-kernel(roofcheck-cache-reliant-reuse)
__global__ void naive(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc * 0.1;
}

// roofcheck-ignore-kernel
__global__ void anything_goes(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i * n] = in[i] * 0.1;
}

// roofcheck-ignore-kernel(roofcheck-uncoalesced-acess)
__global__ void misspelt(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i * n] = in[i];
}
