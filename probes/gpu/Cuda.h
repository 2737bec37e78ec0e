// Checked CUDA runtime and cuBLASLt calls, and owners for device memory, streams and events. A failed call
// throws roofcheck::Error naming the call and CUDA's message, so the probe stops with one line and exit 2
// instead of measuring garbage.
#pragma once

#include "roofcheck/Error.h"

#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

namespace roofcheck::probe {

inline void checkCuda(cudaError_t status, const char *call) {
  if (status != cudaSuccess)
    throw Error(std::string(call) + " failed: " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status));
}

inline void checkCublas(cublasStatus_t status, const char *call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw Error(std::string(call) + " failed: " + cublasLtGetStatusName(status) + ": " +
                cublasLtGetStatusString(status));
}

#define ROOFCHECK_CUDA(call) ::roofcheck::probe::checkCuda((call), #call)
#define ROOFCHECK_CUBLAS(call) ::roofcheck::probe::checkCublas((call), #call)

/// Checks the launch that was just enqueued (bad configuration, missing kernel image).
inline void checkLaunch(const char *kernel) { checkCuda(cudaGetLastError(), kernel); }

/// Device memory, freed on destruction. Errors while freeing are not thrown from the destructor.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes) : bytes_(bytes) {
    if (bytes)
      ROOFCHECK_CUDA(cudaMalloc(&ptr_, bytes));
  }
  DeviceBuffer(DeviceBuffer &&other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept {
    std::swap(ptr_, other.ptr_);
    std::swap(bytes_, other.bytes_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer() {
    if (ptr_)
      cudaFree(ptr_);
  }

  template <typename T> T *as() const { return static_cast<T *>(ptr_); }
  void *get() const { return ptr_; }
  size_t bytes() const { return bytes_; }

private:
  void *ptr_ = nullptr;
  size_t bytes_ = 0;
};

class Stream {
public:
  Stream() { ROOFCHECK_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream() { cudaStreamDestroy(stream_); }
  cudaStream_t get() const { return stream_; }
  void synchronize() const { ROOFCHECK_CUDA(cudaStreamSynchronize(stream_)); }

private:
  cudaStream_t stream_ = nullptr;
};

class Event {
public:
  Event() { ROOFCHECK_CUDA(cudaEventCreate(&event_)); }
  Event(Event &&other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event() {
    if (event_)
      cudaEventDestroy(event_);
  }
  cudaEvent_t get() const { return event_; }

private:
  cudaEvent_t event_ = nullptr;
};

} // namespace roofcheck::probe
