// NVTX ranges of both kinds around launches: push/pop ranges belong to their thread, start/end ranges
// (plain, Ex and in a domain) to the process, ending wherever nvtxRangeEnd is called. Each launch's tag
// says which ranges must be open at it, outermost (earliest started) first.
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <thread>

__global__ void tagged(int *out, int tag) { out[threadIdx.x] = tag; }

int main() {
  int *out = nullptr;
  if (cudaMalloc(&out, 32 * sizeof(int)) != cudaSuccess)
    return 2;
  tagged<<<1, 32>>>(out, 0); // no range
  nvtxRangeId_t phase = nvtxRangeStartA("phase");
  tagged<<<1, 32>>>(out, 1); // phase
  std::thread([&] { tagged<<<1, 32>>>(out, 2); }).join(); // phase, from another thread
  nvtxRangePushA("inner");
  tagged<<<1, 32>>>(out, 3); // phase/inner
  std::thread([&] { nvtxRangeEnd(phase); }).join(); // ended on another thread
  tagged<<<1, 32>>>(out, 4); // inner
  nvtxEventAttributes_t attributes = {};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = "ex";
  nvtxRangeId_t ex = nvtxRangeStartEx(&attributes);
  tagged<<<1, 32>>>(out, 5); // inner/ex
  nvtxRangePop();
  tagged<<<1, 32>>>(out, 6); // ex
  nvtxDomainHandle_t domain = nvtxDomainCreateA("roofcheck-test");
  attributes.message.ascii = "in-domain";
  nvtxRangeId_t inDomain = nvtxDomainRangeStartEx(domain, &attributes);
  tagged<<<1, 32>>>(out, 7); // ex/in-domain
  nvtxRangeEnd(ex);
  nvtxDomainRangeEnd(domain, inDomain);
  tagged<<<1, 32>>>(out, 8); // no range
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 2;
  std::printf("nvtx_ranges ok\n");
  return 0;
}
