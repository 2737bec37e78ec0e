// Kernels a library instantiates from the file's host code (CUB here; Thrust's algorithms go through the
// same headers) are the program's launches too: they are estimated and written to the JSON, marked
// "library", so that the report can join their launches. They are never linted (their source is not the
// user's), and the terminal lists them only under --verbose.
// RUN: rm -rf %t && mkdir -p %t
// RUN: roofcheck-lint %s --json %t/static.json 2> %t/stderr | FileCheck %s --check-prefix=TEXT --implicit-check-not=cub/
// RUN: FileCheck %s --check-prefix=NOTE < %t/stderr
// RUN: %python -c "import json,sys; [print('library' if k.get('library') else 'user', k['name'].split('<')[0]) for k in json.load(open(sys.argv[1]))['kernels']]" %t/static.json | FileCheck %s --check-prefix=JSON
// RUN: roofcheck-lint %s --verbose 2> /dev/null | FileCheck %s --check-prefix=VERBOSE
#include <cub/device/device_reduce.cuh>

// TEXT: library_kernels.cu:[[@LINE+1]]: kernel squares
__global__ void squares(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * in[i];
}

// NOTE: roofcheck-lint: note: {{[0-9]+}} kernels from library headers (CUB, Thrust) estimated, not linted: --verbose prints them, --json writes them

// JSON-DAG: user squares
// JSON-DAG: library DeviceReduceKernel
// JSON-DAG: library DeviceReduceSingleTileKernel

// VERBOSE-DAG: kernel squares
// VERBOSE-DAG: cub/device/dispatch/kernels/reduce.cuh:{{[0-9]+}}: kernel DeviceReduceKernel<

float sumOfSquares(const float *in, float *squared, float *sum, int n) {
  squares<<<(n + 255) / 256, 256>>>(in, squared, n);
  void *temp = nullptr;
  size_t bytes = 0;
  cub::DeviceReduce::Sum(temp, bytes, squared, sum, n);
  cudaMalloc(&temp, bytes);
  cub::DeviceReduce::Sum(temp, bytes, squared, sum, n);
  float result = 0;
  cudaMemcpy(&result, sum, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(temp);
  return result;
}
