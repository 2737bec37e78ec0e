// Prints to both streams and exits 7 after one launch (or none): the launcher must pass all three through.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

__global__ void touch(int *x, int value) { *x = value; }

int main(int argc, char **argv) {
  // "count": the devices counted and no launch, so that the exit comes while the shim's thread still makes
  // the counter configurations.
  // "context": a context made (the allocation) and no launch, so that the exit comes while the shim's
  // sampling thread may still be starting PM sampling there.
  if (argc > 1 && std::strcmp(argv[1], "context") == 0) {
    int *x = nullptr;
    if (cudaMalloc(&x, sizeof(int)) != cudaSuccess)
      return 2;
    std::printf("context made\n");
    return 7;
  }
  if (argc > 1) {
    int devices = 0;
    cudaGetDeviceCount(&devices);
    std::printf("devices counted\n");
    return 7;
  }
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
