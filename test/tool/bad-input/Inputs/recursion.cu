// Recursion in device code. The tail-recursive factorial becomes a loop in the optimiser; the mutual
// recursion of even/odd and the tree walk stay calls, whose work per call nothing bounds, as does a
// __noinline__ helper's. even/odd touch no memory; walk and fetch read.
__device__ int factorial(int n, int product) { return n <= 1 ? product : factorial(n - 1, product * n); }

__device__ float odd(float x, int n);
__device__ float even(float x, int n) { return n == 0 ? 1.0f : x * odd(x, n - 1); }
__device__ float odd(float x, int n) { return n == 0 ? x : x + even(x, n - 1); }

__device__ float walk(const float *tree, int node, int size) {
  if (node >= size)
    return 0.0f;
  return tree[node] + walk(tree, 2 * node + 1, size) + walk(tree, 2 * node + 2, size);
}

__global__ void factorials(int *out, int n) { out[blockIdx.x * blockDim.x + threadIdx.x] = factorial(n, 1); }

__global__ void parity(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = even(in[i], n);
}

__global__ void tree_sums(float *out, const float *tree, int size) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = walk(tree, threadIdx.x, size);
}

__device__ __noinline__ float fetch(const float *p, int i) { return p[i]; }

__global__ void fetched(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = fetch(in, i);
}
