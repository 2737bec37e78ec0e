// Where the write-back of a kernel's output is counted. fill writes BYTES (32 MiB: less than the H100's and
// H200's L2, so its lines stay dirty there when it ends); sum then reads BYTES of another buffer, and the
// lines it brings in evict fill's, which are written to DRAM during sum. Five rounds with the kernels back to
// back, then five with 2 ms of idle after each kernel. Run under ncu and under roofcheck's sampled traffic
// (bench/l2-writeback.sh): ncu and PM sampling then say whether sum's DRAM writes hold fill's write-back.
// Prints the checksum, which must not change under either.
#include <cstdio>
#include <chrono>
#include <thread>
#include <cuda_runtime.h>

constexpr size_t Bytes = size_t(32) << 20;
constexpr size_t Words = Bytes / sizeof(float4);

__global__ void fill(float4 *out, float value) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < Words; i += size_t(gridDim.x) * blockDim.x)
    out[i] = make_float4(value, value, value, value);
}

__global__ void sum(const float4 *in, float *total) {
  float s = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < Words; i += size_t(gridDim.x) * blockDim.x)
    s += in[i].x + in[i].y + in[i].z + in[i].w;
  atomicAdd(total, s);
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "l2-writeback: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

int main() {
  float4 *written, *read;
  float *total;
  check(cudaMalloc(&written, Bytes), "cudaMalloc");
  check(cudaMalloc(&read, Bytes), "cudaMalloc");
  check(cudaMalloc(&total, sizeof(float)), "cudaMalloc");
  check(cudaMemset(read, 0, Bytes), "cudaMemset");
  check(cudaMemset(total, 0, sizeof(float)), "cudaMemset");
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
  for (int idle = 0; idle < 2; ++idle)
    for (int round = 0; round < 5; ++round) {
      fill<<<4 * sms, 256>>>(written, float(round));
      if (idle) {
        check(cudaDeviceSynchronize(), "fill");
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
      sum<<<4 * sms, 256>>>(read, total);
      check(cudaDeviceSynchronize(), "sum");
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  float result = 0;
  check(cudaMemcpy(&result, total, sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
  std::printf("checksum %g\n", result);
  return 0;
}
