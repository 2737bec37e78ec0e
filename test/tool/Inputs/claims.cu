// Two kernels with claims above them; lint attaches each comment to the kernel that follows it.

// roofcheck-claim: flops == n; bytes == 12 * n
// roofcheck-claim: intensity >= 1 / 12.0
__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

/* roofcheck-claim: bound == memory */
__global__ void scale(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= s;
}
