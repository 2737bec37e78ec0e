#include "SampledTraffic.h"

#include "../SignalFlush.h"

#include "roofcheck/Metrics.h"

#include <cupti_profiler_target.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

namespace roofcheck::runtime {

namespace {

// Decoded this often. A decode that fills its image loses the records it had read past it, so each of the two
// images is larger than what waits after one period: ~3,300 samples at 10 us, the decoder taking 2.4-5.4 us of
// CPU a sample on H100s with the evaluation on a thread of its own (docs/benchmarks.md). Images of what the
// hardware buffer holds (~32,000 samples, ~100 MB each) made the 0.4 s 10,400-launch program ~0.4 s longer, and
// no run lost samples with these. A round stops after roundLimit, so that a new device or a stop never waits
// long for it.
constexpr std::chrono::milliseconds decodePeriod{5};
constexpr uint32_t samplesPerDecode = 10000; // ~32 MB an image
constexpr std::chrono::milliseconds roundLimit{100};
// ~2.1 KB a sample on the H200: 64 MiB hold ~0.3 s of 10 us samples (16 MiB overflowed with decodes 80 ms
// apart), and SetConfig takes ~90 ms where 512 MiB took ~300, time every first launch waits.
constexpr size_t hardwareBufferBytes = size_t(64) << 20;

// A kernel's record reaches the shim up to a few hundred milliseconds after the kernel ends (CUPTI hands
// over buffers every 10 ms, the handler asks for completed ones every 100 ms): a span whose neighbours are
// not known otherwise (a graph's kernels come as records alone) is settled once this much GPU time has
// passed since its samples. Where they are known (UnrecordedKernels), as soon as their records are in,
// less a margin for the activity records' clock against CUPTI's timestamp: the settled launches are then
// written while the program runs rather than all at its exit (a 0.5 s run of 104,000 launches held ~80,000).
constexpr uint64_t recordLatencyNs = 300'000'000;
constexpr uint64_t clockMarginNs = 1'000'000;

// The time the sampling thread has to decode a stopped device's last samples, and the longest a context's
// destruction or the program's exit waits for it (a little longer: one image).
constexpr std::chrono::seconds patience{1};
constexpr std::chrono::milliseconds exitPatience{1100};
// The longest a device's first launch waits for its sampling to start: its configuration, when not made
// ahead, takes ~0.4 s on the H200.
constexpr std::chrono::seconds startPatience{5};

} // namespace

void SampledTraffic::prepare(int64_t intervalNs) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (threadStarted_)
    return;
  intervalNs_ = intervalNs;
  threadStarted_ = true;
  std::thread(&SampledTraffic::run, this).detach(); // the Shim, which owns this, is never destroyed
}

void SampledTraffic::startDevice(int device, CUcontext context) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!threadStarted_ || finishing_ || !devices_.try_emplace(device, Device{context}).second)
    return;
  ++unsettled_;
  changed_.notify_all();
}

void SampledTraffic::awaitStart(int device) {
  if (unsettled_ == 0)
    return; // every launch but a device's first few: no lock
  std::unique_lock<std::mutex> lock(mutex_);
  auto it = devices_.find(device);
  if (it == devices_.end() || it->second.settled)
    return;
  changed_.wait_for(lock, startPatience, [&] { return it->second.settled || finishing_; });
}

template <typename Done> void SampledTraffic::await(std::unique_lock<std::mutex> &lock, Done done) {
  changed_.wait_for(lock, exitPatience, done);
}

bool SampledTraffic::done(const Device &d) { return d.stopped || (d.settled && !d.started); }

void SampledTraffic::stopDevice(int device) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto it = devices_.find(device);
  if (it == devices_.end() || !threadStarted_)
    return;
  it->second.stopRequested = true;
  changed_.notify_all();
  await(lock, [&] { return done(it->second) || finished_; });
}

void SampledTraffic::stopAll() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!threadStarted_)
    return;
  diagnostics_.trace("PM sampling: stopping every device");
  for (auto &[device, d] : devices_)
    d.stopRequested = true;
  changed_.notify_all();
  await(lock, [&] {
    return finished_ || std::all_of(devices_.begin(), devices_.end(), [](const auto &d) { return done(d.second); });
  });
}

bool SampledTraffic::samples(int device) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = devices_.find(device);
  return it != devices_.end() && it->second.started;
}

std::unique_ptr<CuptiPmSampling> SampledTraffic::configure(int device) {
  if (!diagnostics_.driver(cuInit(0), "cuInit") || !counters_.initializeProfiler())
    return nullptr;
  std::optional<std::string> chip = counters_.chipOf(device);
  if (!chip)
    return nullptr;
  auto pm = std::make_unique<CuptiPmSampling>(diagnostics_);
  // Device 0's, made ahead, without its counter availability where CUPTI knows the chip: the first launch
  // waits for it, and a later device's keeps it as the range profiler's configurations do.
  bool askAvailability = device != 0 || !CuptiProfilerHost::knowsChip(*chip);
  if (!pm->configure(device, *chip, {metrics::DramRead, metrics::DramWrite}, askAvailability))
    return nullptr;
  return pm;
}

std::unique_ptr<CuptiPmSampling> SampledTraffic::begin(int device, CUcontext context,
                                                       std::unique_ptr<CuptiPmSampling> prepared) {
  std::unique_ptr<CuptiPmSampling> pm = prepared ? std::move(prepared) : configure(device);
  if (!pm || !diagnostics_.driver(cuCtxSetCurrent(context), "cuCtxSetCurrent") ||
      !pm->enable(device, static_cast<uint64_t>(intervalNs_), hardwareBufferBytes) || !pm->start()) {
    diagnostics_.warn("sampled-traffic", "device " + std::to_string(device) +
                                             ": PM sampling did not start, so its launches have no sampled DRAM bytes");
    return nullptr;
  }
  diagnostics_.trace("PM sampling started on device " + std::to_string(device));
  return pm;
}

bool SampledTraffic::drain(int device, CuptiPmSampling &pm, std::chrono::steady_clock::time_point until,
                           uint64_t enough, bool pipelined) {
  auto began = std::chrono::steady_clock::now();
  CuptiPmSampling::Drained drained = pm.drain(until, enough, pipelined);
  std::vector<PmSample> &samples = drained.samples;
  if (diagnostics_.tracing() && drained.decoded != 0)
    diagnostics_.trace("PM sampling: " + std::to_string(drained.decoded) + " samples decoded in " +
                       std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                          std::chrono::steady_clock::now() - began)
                                          .count()) +
                       " ms" + (drained.more ? ", more waiting" : "") + "; " + std::to_string(samples.size()) +
                       " evaluated");
  if (drained.overflow)
    diagnostics_.warn("sampled-traffic-overflow", "PM sampling's hardware buffer filled on device " +
                                                      std::to_string(device) +
                                                      ": launches of that time have no sampled DRAM bytes");
  if (!samples.empty()) {
    std::lock_guard<std::mutex> lock(ledgerMutex_);
    if (log_)
      for (const PmSample &s : samples) {
        // Samples that counted nothing too: they are part of the time a kernel's rate is taken over.
        std::fprintf(log_.get(), "sample %d %llu %llu", device, static_cast<unsigned long long>(s.start),
                     static_cast<unsigned long long>(s.end));
        for (const auto &[name, value] : s.values)
          std::fprintf(log_.get(), " %s=%.17g", name.c_str(), value);
        std::fputc('\n', log_.get());
      }
    ledger_.addSamples(device, std::move(samples));
  }
  return drained.more;
}

void SampledTraffic::drainUntilNow(int device, CuptiPmSampling &pm, std::chrono::steady_clock::time_point deadline) {
  // Samples reach the hardware buffer some milliseconds after their end: before a stop, those up to the
  // present are waited for, so that the last kernels' samples are among the decoded ones. Those after it
  // are not needed (the device's kernels have ended, or the program is exiting), and the decoder, ~9 us a
  // sample on the H100 against 10 us samples, would chase them until its deadline (docs/benchmarks.md).
  uint64_t now = 0;
  if (!diagnostics_.cupti(cuptiGetTimestamp(&now), "cuptiGetTimestamp"))
    return;
  for (;;) {
    drain(device, pm, deadline, now, /*pipelined=*/false);
    {
      std::lock_guard<std::mutex> lock(ledgerMutex_);
      if (ledger_.sampledUntil(device) >= now)
        return;
    }
    if (std::chrono::steady_clock::now() >= deadline)
      return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void SampledTraffic::run() {
  blockFlushedSignalsOnThisThread();
  // Made while the program makes its first context (a few hundred ms), so that its first launch waits
  // little: most programs run on device 0.
  std::unique_ptr<CuptiPmSampling> prepared = configure(0);
  std::unique_lock<std::mutex> lock(mutex_);
  auto untried = [this] {
    return std::any_of(devices_.begin(), devices_.end(), [](const auto &d) { return !d.second.tried; });
  };
  bool behind = false; // samples left waiting by the last round
  for (;;) {
    changed_.wait_for(lock, behind ? std::chrono::milliseconds(0) : decodePeriod,
                      [&] { return finishing_ || untried(); });
    bool last = finishing_;
    behind = false;
    // Map nodes stay where they are while the lock is let go: only this thread touches a device's pm.
    for (auto &[device, d] : devices_) {
      if (!d.tried && d.stopRequested) { // its contexts went, or the program exits, before it was started
        d.tried = d.settled = true;
        --unsettled_;
        changed_.notify_all();
      }
      if (!d.tried && !last) {
        d.tried = true;
        lock.unlock();
        std::unique_ptr<CuptiPmSampling> pm = begin(device, d.context, device == 0 ? std::move(prepared) : nullptr);
        lock.lock();
        d.started = pm != nullptr;
        d.settled = true;
        --unsettled_;
        changed_.notify_all(); // the device's launches go on meanwhile: the samples wait in the hardware buffer
        lock.unlock();
        if (pm && !pm->makeCounterData(samplesPerDecode)) {
          diagnostics_.warn("sampled-traffic", "device " + std::to_string(device) +
                                                   ": PM samples cannot be decoded, so its launches have no sampled "
                                                   "DRAM bytes");
          pm.reset();
        }
        lock.lock();
        d.pm = std::move(pm);
        d.started = d.pm != nullptr;
      }
      if (!d.pm)
        continue;
      // In the shim's own exit handler no PM sampling call is made: there, after the CUDA runtime's teardown,
      // cuptiPmSamplingStop and DecodeData did not return on the H200 (docs/benchmarks.md). stopAll, at exit
      // before that teardown, has stopped every device by then.
      if (last)
        continue;
      bool stopping = d.stopRequested;
      lock.unlock();
      auto deadline = std::chrono::steady_clock::now() + (stopping ? patience : roundLimit);
      if (stopping) {
        drainUntilNow(device, *d.pm, deadline);
        d.pm->stop();
        diagnostics_.trace("PM sampling: stopped on device " + std::to_string(device));
      } else {
        behind |= drain(device, *d.pm, deadline, UINT64_MAX, /*pipelined=*/true);
      }
      lock.lock();
      if (stopping) {
        if (uint64_t missing = d.pm->missingNs()) {
          char ms[32];
          std::snprintf(ms, sizeof ms, "%.2f", static_cast<double>(missing) / 1e6);
          diagnostics_.warn("sampled-traffic-missing",
                            "PM sampling on device " + std::to_string(device) + " returned no samples for " + ms +
                                " ms of GPU time (the decoder fell behind): launches then have no sampled bytes");
        }
        d.pm.reset(); // disabled while its context still exists
        diagnostics_.trace("PM sampling: disabled on device " + std::to_string(device));
        d.stopped = true;
        changed_.notify_all();
      }
    }
    if (last) {
      finished_ = true;
      changed_.notify_all();
      return;
    }
  }
}

void SampledTraffic::logTo(const std::string &path) {
  std::lock_guard<std::mutex> lock(ledgerMutex_);
  log_.reset(std::fopen(path.c_str(), "w"));
  if (!log_)
    diagnostics_.warn("sampled-traffic", "cannot write the samples to '" + path + "'");
}

void SampledTraffic::addSpan(uint64_t id, int device, KernelSpan span) {
  std::lock_guard<std::mutex> lock(ledgerMutex_);
  if (log_)
    std::fprintf(log_.get(), "span %d %llu %llu %llu\n", device, static_cast<unsigned long long>(id),
                 static_cast<unsigned long long>(span.start), static_cast<unsigned long long>(span.end));
  ledger_.addSpan(id, device, span);
}

std::vector<TrafficLedger::Settled> SampledTraffic::settle(uint64_t recordedBefore) {
  std::vector<int> ids;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto &[id, d] : devices_)
      ids.push_back(id);
  }
  uint64_t now = 0;
  if (ids.empty() || !diagnostics_.cupti(cuptiGetTimestamp(&now), "cuptiGetTimestamp"))
    return {};
  uint64_t recordsBy = std::max(now > recordLatencyNs ? now - recordLatencyNs : 0,
                                recordedBefore > clockMarginNs ? recordedBefore - clockMarginNs : 0);
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
      await(lock, [this] { return finished_; });
    }
  }
  std::lock_guard<std::mutex> lock(ledgerMutex_);
  return ledger_.settleAll();
}

} // namespace roofcheck::runtime
