// Prints to both streams and exits 7 after one launch: the launcher must pass all three through.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void touch(int *x, int value) { *x = value; }

int main() {
  int *x = nullptr;
  if (cudaMalloc(&x, sizeof(int)) != cudaSuccess)
    return 2;
  touch<<<1, 1>>>(x, 42);
  int got = 0;
  cudaMemcpy(&got, x, sizeof got, cudaMemcpyDeviceToHost);
  std::printf("stdout line value=%d\n", got);
  std::fprintf(stderr, "stderr line\n");
  return 7;
}
