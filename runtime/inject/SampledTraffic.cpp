#include "SampledTraffic.h"

#include "../SignalFlush.h"

#include "roofcheck/Metrics.h"

#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace roofcheck::runtime {

namespace {

// Decoded this often: at 10 us samples the H200's 512 MiB hardware buffer held 10 ms of them with room to
// spare, and at 1 us it overflowed (docs/benchmarks.md).
constexpr std::chrono::milliseconds decodePeriod{10};
constexpr size_t hardwareBufferBytes = size_t(512) << 20;
constexpr uint32_t samplesPerDecode = 20000;

// A kernel's record reaches the shim up to a few hundred milliseconds after the kernel ends (CUPTI hands
// over buffers every 10 ms, the handler asks for completed ones every 100 ms): a span is settled only
// once this much GPU time has passed since its samples, so that every kernel sharing them is known.
constexpr uint64_t recordLatencyNs = 300'000'000;

// The longest a program's exit or a context's destruction waits for the sampling thread.
constexpr std::chrono::seconds patience{1};

} // namespace

void SampledTraffic::startDevice(int device, CUcontext context, int64_t intervalNs) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (finishing_ || !devices_.try_emplace(device, Device{context, intervalNs}).second)
    return;
  if (!threadStarted_) {
    threadStarted_ = true;
    std::thread(&SampledTraffic::run, this).detach(); // the Shim, which owns this, is never destroyed
  }
  changed_.notify_all();
}

template <typename Done> void SampledTraffic::await(std::unique_lock<std::mutex> &lock, Done done) {
  changed_.wait_for(lock, patience, done);
}

void SampledTraffic::stopDevice(int device) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto it = devices_.find(device);
  if (it == devices_.end() || !threadStarted_)
    return;
  it->second.stopRequested = true;
  changed_.notify_all();
  await(lock, [&] { return it->second.stopped || finished_; });
}

bool SampledTraffic::samples(int device) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = devices_.find(device);
  return it != devices_.end() && it->second.started;
}

std::unique_ptr<CuptiPmSampling> SampledTraffic::begin(int device, const Device &d) {
  if (!diagnostics_.driver(cuCtxSetCurrent(d.context), "cuCtxSetCurrent") || !counters_.initializeProfiler())
    return nullptr;
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = static_cast<size_t>(device);
  if (!diagnostics_.cupti(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName") || !chip.pChipName)
    return nullptr;
  auto pm = std::make_unique<CuptiPmSampling>(diagnostics_);
  if (!pm->enable(device, chip.pChipName, {metrics::DramRead, metrics::DramWrite},
                  static_cast<uint64_t>(d.intervalNs), hardwareBufferBytes, samplesPerDecode) ||
      !pm->start()) {
    diagnostics_.warn("sampled-traffic", "device " + std::to_string(device) +
                                             ": PM sampling did not start, so its launches have no sampled DRAM bytes");
    return nullptr;
  }
  diagnostics_.trace("PM sampling started on device " + std::to_string(device));
  return pm;
}

void SampledTraffic::drain(int device, CuptiPmSampling &pm) {
  bool overflow = false;
  std::vector<PmSample> samples = pm.drain(&overflow);
  if (overflow)
    diagnostics_.warn("sampled-traffic-overflow", "PM sampling's hardware buffer filled on device " +
                                                      std::to_string(device) +
                                                      ": launches of that time have no sampled DRAM bytes");
  if (samples.empty())
    return;
  std::lock_guard<std::mutex> lock(ledgerMutex_);
  ledger_.addSamples(device, std::move(samples));
}

void SampledTraffic::run() {
  blockFlushedSignalsOnThisThread();
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait_for(lock, decodePeriod);
    // At exit no PM sampling call is made: the earlier form's stop, decode and disable in the exit handler
    // is the first suspect for its fault on the H200 (docs/benchmarks.md). The last decode period's samples go.
    if (finishing_) {
      finished_ = true;
      changed_.notify_all();
      return;
    }
    // Map nodes stay where they are while the lock is let go: only this thread touches a device's pm.
    for (auto &[device, d] : devices_) {
      if (!d.tried) {
        d.tried = true;
        lock.unlock();
        std::unique_ptr<CuptiPmSampling> pm = begin(device, d);
        lock.lock();
        d.pm = std::move(pm);
        d.started = d.pm != nullptr;
      }
      if (!d.pm)
        continue;
      bool stopping = d.stopRequested;
      lock.unlock();
      if (stopping)
        d.pm->stop();
      drain(device, *d.pm);
      lock.lock();
      if (d.stopRequested && !d.stopped) {
        d.pm.reset(); // disabled while its context still exists
        d.stopped = true;
        changed_.notify_all();
      }
    }
  }
}

void SampledTraffic::addSpan(uint64_t id, int device, KernelSpan span) {
  std::lock_guard<std::mutex> lock(ledgerMutex_);
  ledger_.addSpan(id, device, span);
}

std::vector<TrafficLedger::Settled> SampledTraffic::settle() {
  std::vector<int> ids;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto &[id, d] : devices_)
      ids.push_back(id);
  }
  uint64_t now = 0;
  if (ids.empty() || !diagnostics_.cupti(cuptiGetTimestamp(&now), "cuptiGetTimestamp"))
    return {};
  uint64_t recordsBy = now > recordLatencyNs ? now - recordLatencyNs : 0;
  std::vector<TrafficLedger::Settled> all;
  std::lock_guard<std::mutex> lock(ledgerMutex_);
  for (int id : ids) {
    std::vector<TrafficLedger::Settled> settled = ledger_.settle(id, std::min(ledger_.sampledUntil(id), recordsBy));
    all.insert(all.end(), std::make_move_iterator(settled.begin()), std::make_move_iterator(settled.end()));
  }
  return all;
}

std::vector<TrafficLedger::Settled> SampledTraffic::finish() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    finishing_ = true;
    if (threadStarted_) {
      changed_.notify_all();
      await(lock, [this] { return finished_; }); // a decode under way ends first
    }
  }
  std::lock_guard<std::mutex> lock(ledgerMutex_);
  return ledger_.settleAll();
}

} // namespace roofcheck::runtime
