#include "CuptiActivity.h"

#include "../ForkedChild.h"

#include <cstdlib>

namespace roofcheck::runtime {

namespace {
// CUPTI's buffer callbacks carry no user pointer: the one instance registers itself here.
CuptiActivity *active = nullptr;
constexpr size_t bufferAlignment = 8;
} // namespace

bool CuptiActivity::enable(uint32_t flushPeriodMs) {
  active = this;
  if (!diagnostics_.cupti(cuptiActivityRegisterCallbacks(&CuptiActivity::requestBuffer, &CuptiActivity::completeBuffer),
                          "cuptiActivityRegisterCallbacks"))
    return false;
  CUptiResult result = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (result != CUPTI_SUCCESS) {
    diagnostics_.warn("activity", "kernel durations are off: cuptiActivityEnable(CONCURRENT_KERNEL) failed: " +
                                      Diagnostics::cuptiError(result));
    return false;
  }
  enabled_ = true;
  if (flushPeriodMs > 0)
    diagnostics_.cupti(cuptiActivityFlushPeriod(flushPeriodMs), "cuptiActivityFlushPeriod");
  return true;
}

void CuptiActivity::flushAll() {
  if (enabled_)
    diagnostics_.cupti(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
}

void CuptiActivity::flushCompleted() {
  if (enabled_)
    diagnostics_.cupti(cuptiActivityFlushAll(0), "cuptiActivityFlushAll");
}

void CUPTIAPI CuptiActivity::requestBuffer(uint8_t **buffer, size_t *size, size_t *maxNumRecords) {
  *buffer = nullptr;
  *size = 0;
  *maxNumRecords = 0;
  CuptiActivity *self = active;
  if (!self || inForkedChild())
    return;
  // Over the cap CUPTI gets no buffer and drops records; completeBuffer counts them.
  if (self->outstanding_.fetch_add(1) >= self->maxBuffers_) {
    self->outstanding_.fetch_sub(1);
    self->diagnostics_.warn("activity-cap", "activity buffers are full (" + std::to_string(self->maxBuffers_) +
                                                " outstanding): kernel records are being dropped");
    return;
  }
  void *memory = std::aligned_alloc(bufferAlignment, self->bufferBytes_);
  if (!memory) {
    self->outstanding_.fetch_sub(1);
    return;
  }
  *buffer = static_cast<uint8_t *>(memory);
  *size = self->bufferBytes_;
}

void CUPTIAPI CuptiActivity::completeBuffer(CUcontext context, uint32_t streamId, uint8_t *buffer, size_t,
                                            size_t validSize) {
  CuptiActivity *self = active;
  if (inForkedChild()) {
    std::free(buffer); // the parent's records: not this process's to write
    return;
  }
  if (self && buffer && validSize > 0) {
    std::vector<KernelRecord> records;
    records.reserve(validSize / sizeof(CUpti_ActivityKernel10) + 1);
    CUpti_Activity *record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
      if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && record->kind != CUPTI_ACTIVITY_KIND_KERNEL)
        continue;
      const auto *k = reinterpret_cast<const CUpti_ActivityKernel10 *>(record);
      if (k->end == 0 || k->end < k->start)
        continue; // a kernel still running when a forced flush handed its buffer over: no duration known
      KernelRecord r;
      r.correlationId = k->correlationId;
      r.start = k->start;
      r.end = k->end;
      r.deviceId = k->deviceId;
      r.contextId = k->contextId;
      r.streamId = k->streamId;
      r.grid = {k->gridX, k->gridY, k->gridZ};
      r.block = {k->blockX, k->blockY, k->blockZ};
      r.cluster = {k->clusterX ? k->clusterX : 1, k->clusterY ? k->clusterY : 1, k->clusterZ ? k->clusterZ : 1};
      r.registers = k->registersPerThread;
      r.sharedStatic = k->staticSharedMemory;
      r.sharedDynamic = k->dynamicSharedMemory;
      if (k->name)
        r.name = k->name;
      r.graphId = k->graphId;
      records.push_back(std::move(r));
    }
    if (self->diagnostics_.tracing())
      self->diagnostics_.trace("CUPTI handed over a buffer of " + std::to_string(records.size()) + " kernel records");
    if (!records.empty())
      self->sink_(std::move(records));
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, streamId, &dropped) == CUPTI_SUCCESS && dropped > 0) {
      self->dropped_ += static_cast<int64_t>(dropped);
      self->diagnostics_.warn("activity-dropped", "CUPTI dropped kernel activity records: some launches have no duration");
    }
  }
  if (buffer) {
    std::free(buffer);
    if (self)
      self->outstanding_.fetch_sub(1);
  }
}

} // namespace roofcheck::runtime
