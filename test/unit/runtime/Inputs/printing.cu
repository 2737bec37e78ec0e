// Kernels for CubinExternsTest, compiled to a cubin by nvcc at build time (no GPU needed): two print (one
// itself, one through a device function it calls), one allocates on the device heap, one does neither.
#include <cstdio>

__device__ __noinline__ void report(int value) { printf("value %d\n", value); }

__global__ void printsItself(int value) { printf("value %d\n", value); }
__global__ void printsThroughCall(int value) { report(value); }
__global__ void allocates(int **out) { *out = static_cast<int *>(malloc(sizeof(int))); }
__global__ void quiet(float *data) { data[threadIdx.x] += 1.0f; }
