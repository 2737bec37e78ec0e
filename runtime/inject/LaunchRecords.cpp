#include "LaunchRecords.h"

#include "../SignalFlush.h"

#include "roofcheck/Metrics.h"

#include <cupti.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>

namespace roofcheck::runtime {

namespace {

// How often the records of finished kernels are taken from CUPTI while the program runs: what CUPTI still
// holds when the program is killed (SIGKILL) is lost.
constexpr std::chrono::milliseconds flushPeriod{100};

} // namespace

void LaunchRecords::start() {
  std::thread(&LaunchRecords::processQueue, this).detach(); // never destroyed, like the Shim
}

int64_t LaunchRecords::newLaunch() {
  ++seen_;
  return nextIndex_++;
}

void LaunchRecords::addLaunch(PendingLaunch &&launch) {
  std::lock_guard<std::mutex> lock(arrivalsMutex_);
  arrivedLaunches_.push_back(std::move(launch));
}

void LaunchRecords::addCounters(LaunchCounters &&counters) {
  std::lock_guard<std::mutex> lock(arrivalsMutex_);
  arrivedCounters_.push_back(std::move(counters));
}

void LaunchRecords::addGraphRanges(uint32_t correlationId, std::vector<std::string> &&ranges) {
  std::lock_guard<std::mutex> lock(arrivalsMutex_);
  arrivedGraphRanges_.emplace_back(correlationId, std::move(ranges));
}

void LaunchRecords::queueBatch(std::vector<KernelRecord> &&records) {
  {
    std::lock_guard<std::mutex> lock(queueMutex_);
    queue_.push_back(std::move(records));
  }
  queueChanged_.notify_all();
}

void LaunchRecords::wake() {
  {
    std::lock_guard<std::mutex> lock(queueMutex_);
    arrivalsWaiting_ = true;
  }
  queueChanged_.notify_all();
}

void LaunchRecords::processQueue() {
  blockFlushedSignalsOnThisThread();
  auto lastFlush = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(queueMutex_);
  while (!stopping_) {
    // Awake at least every flushPeriod, to collect CUPTI's completed records and look after a launch
    // being profiled.
    bool work = queueChanged_.wait_for(lock, flushPeriod,
                                       [this] { return stopping_ || !queue_.empty() || arrivalsWaiting_; });
    lock.unlock();
    sessions_.warnIfStuck();
    if (auto now = std::chrono::steady_clock::now(); now - lastFlush >= flushPeriod) {
      activity_.flushCompleted(); // its records come back through queueBatch, handled next round
      lastFlush = now;
    }
    lock.lock();
    if (stopping_)
      break;
    // Sampled traffic is settled as time passes, and samples no launch needs are dropped, work or not.
    if (!work && options_.sampledTrafficIntervalNs == 0)
      continue;
    // Everything queued is handled and written in one go: one write(2) however many buffers CUPTI
    // handed over meanwhile.
    ++busy_;
    arrivalsWaiting_ = false;
    std::deque<std::vector<KernelRecord>> batches;
    batches.swap(queue_);
    lock.unlock();
    handleBatches(batches);
    writeReady();
    lock.lock();
    --busy_;
    queueChanged_.notify_all();
  }
}

void LaunchRecords::drain() {
  std::unique_lock<std::mutex> lock(queueMutex_);
  // A batch the handler thread holds is finished in a moment.
  queueChanged_.wait_for(lock, std::chrono::seconds(10), [this] { return busy_ == 0; });
  stopping_ = true;
  arrivalsWaiting_ = false;
  std::deque<std::vector<KernelRecord>> batches;
  batches.swap(queue_);
  lock.unlock();
  queueChanged_.notify_all();
  handleBatches(batches);
}

void LaunchRecords::handleBatches(std::deque<std::vector<KernelRecord>> &batches) {
  std::lock_guard<std::mutex> lock(mutex_);
  int64_t started = timing_.start();
  // The launches of these records all arrived before their kernels ran, so before the records.
  absorbArrivalsLocked();
  for (const std::vector<KernelRecord> &batch : batches)
    for (const KernelRecord &r : batch)
      onKernelRecordLocked(r);
  settleTrafficLocked(false);
  timing_.stop(ShimTiming::Match, started);
}

void LaunchRecords::absorbArrivalsLocked() {
  std::vector<PendingLaunch> launches;
  std::vector<LaunchCounters> counters;
  std::vector<std::pair<uint32_t, std::vector<std::string>>> graphRanges;
  // Read before the launches are taken: those handed over after it are made after it.
  uint64_t reading = 0;
  diagnostics_.cupti(cuptiGetTimestamp(&reading), "cuptiGetTimestamp");
  {
    std::lock_guard<std::mutex> lock(arrivalsMutex_);
    launches.swap(arrivedLaunches_);
    counters.swap(arrivedCounters_);
    graphRanges.swap(arrivedGraphRanges_);
  }
  uint64_t notBefore = unrecorded_.takeIn(reading, launches.size());
  for (PendingLaunch &p : launches) {
    p.notBefore = notBefore;
    p.launch.name = p.kernel->name;
    p.launch.mangled = p.kernel->mangled;
    p.launch.registers = registersOf(*p.kernel); // the activity record's, when one comes, replaces it
    p.launch.args = kernels_.decode(*p.kernel, p.argumentBytes);
    p.kernel.reset();
    p.argumentBytes = {};
    uint32_t id = p.correlationId;
    pending_.insert_or_assign(id, std::move(p));
  }
  for (auto &[id, ranges] : graphRanges)
    graphNvtx_[id] = std::move(ranges);
  for (LaunchCounters &arrival : counters) {
    auto it = pending_.find(arrival.correlationId);
    if (it == pending_.end())
      continue;
    PendingLaunch &p = it->second;
    p.awaitingMetrics = false;
    if (arrival.metrics) {
      p.launch.profiled = true;
      p.launch.replayPasses = arrival.passes;
      p.launch.metrics = std::move(*arrival.metrics);
      // Under kernel replay CUPTI gives the launch no activity record: its duration is the counter's, and
      // with a set that has none (a printing kernel's FLOP counters) it has none to wait for.
      auto duration = p.launch.metrics.find(metrics::Duration);
      if (!p.timed && duration != p.launch.metrics.end()) {
        p.launch.durationNs = static_cast<int64_t>(duration->second);
        markTimedLocked(p);
      }
    }
    if (p.timed || p.launch.profiled) {
      forgetLocked(p);
      emitLocked(std::move(p.launch));
      pending_.erase(it);
    }
  }
}

void LaunchRecords::markTimedLocked(PendingLaunch &p) {
  if (!p.timed)
    unrecorded_.recorded(p.notBefore);
  p.timed = true;
}

void LaunchRecords::forgetLocked(const PendingLaunch &p) {
  if (!p.timed) // a profiled launch without a duration: no record comes for it
    unrecorded_.recorded(p.notBefore);
}

// CUPTI's activity record and Nsight Compute agree on a kernel's registers; the function attribute, the
// compiler's count, agrees with both above 16 and is raised to 16 by both below it (numRegs 12 was 16 on
// the H200; 22, 32, 40, 64, 128 were themselves: bench/registers-probe.sh).
int LaunchRecords::registersOf(const KernelInfo &kernel) const {
  auto learned = activityRegisters_.find(kernel.mangled);
  if (learned != activityRegisters_.end())
    return learned->second;
  constexpr int FewestAllocated = 16;
  return kernel.registers > 0 ? std::max(kernel.registers, FewestAllocated) : 0;
}

void LaunchRecords::onKernelRecordLocked(const KernelRecord &r) {
  auto fill = [&](Launch &l) {
    l.durationNs = static_cast<int64_t>(r.end >= r.start ? r.end - r.start : 0);
    l.device = static_cast<int>(r.deviceId);
    l.context = r.contextId;
    l.stream = r.streamId;
    l.grid = r.grid;
    l.block = r.block;
    l.cluster = r.cluster;
    l.registers = r.registers;
    l.sharedStatic = r.sharedStatic;
    activityRegisters_[r.name] = r.registers;
    l.sharedDynamic = r.sharedDynamic;
  };
  auto it = pending_.find(r.correlationId);
  if (it != pending_.end()) {
    PendingLaunch &p = it->second;
    fill(p.launch);
    markTimedLocked(p);
    if (!p.awaitingMetrics) {
      completeLocked(std::move(p.launch), r);
      pending_.erase(it);
    }
    return;
  }
  // Kernels of a graph (and every kernel when the callbacks are off) exist only as activity records.
  if (r.graphId == 0 && callbacksOn_)
    return; // a launch the filters passed over, or a replay of a profiled one
  Launch l;
  l.index = newLaunch();
  l.mangled = r.name;
  l.name = demangle(l.mangled.c_str());
  if (!selector_.decide(l.name, l.mangled, r.grid, r.block).record)
    return;
  fill(l);
  if (auto nvtx = graphNvtx_.find(r.correlationId); nvtx != graphNvtx_.end())
    l.nvtx = nvtx->second;
  completeLocked(std::move(l), r);
}

void LaunchRecords::completeLocked(Launch &&launch, const KernelRecord &record) {
  if (!traffic_.samples(launch.device)) {
    emitLocked(std::move(launch));
    return;
  }
  auto id = static_cast<uint64_t>(launch.index);
  traffic_.addSpan(id, launch.device, {record.start, record.end});
  awaitingTraffic_.emplace(id, std::move(launch));
}

void LaunchRecords::settleTrafficLocked(bool all) {
  // Without the launch callbacks every kernel is known by its record alone, as a graph's are.
  uint64_t recordedBefore = callbacksOn_ ? unrecorded_.recordedBefore() : 0;
  for (TrafficLedger::Settled &s : all ? traffic_.finish() : traffic_.settle(recordedBefore)) {
    auto it = awaitingTraffic_.find(s.id);
    if (it == awaitingTraffic_.end())
      continue;
    Launch &l = it->second;
    l.sampled = std::move(s.traffic.values);
    l.sampledShared = !l.sampled.empty() && s.traffic.shared;
    emitLocked(std::move(l));
    awaitingTraffic_.erase(it);
  }
}

void LaunchRecords::emitLocked(Launch &&launch) {
  ++recorded_;
  if (launch.profiled)
    ++profiled_;
  ready_.push_back(std::move(launch));
}

void LaunchRecords::writeReady() {
  std::vector<Launch> batch;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    batch.swap(ready_);
  }
  if (!batch.empty())
    file_.write(batch);
}

// CUPTI writes a kernel's end time into its record a while after the kernel ends, and a forced flush hands
// over a record without one (skipped: no duration). After a signal a launch without its record is not
// written, so a program that aborts right after cudaDeviceSynchronize could lose a finished launch (seen
// once in seven runs on the H200): completed buffers are asked for first, for up to 100 ms while a
// recorded launch still waits for its record.
void LaunchRecords::awaitKernelRecords() {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  for (;;) {
    activity_.flushCompleted();
    drain();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (std::none_of(pending_.begin(), pending_.end(), [](const auto &p) { return !p.second.timed; }))
        return;
    }
    if (std::chrono::steady_clock::now() >= deadline)
      return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

RunCounts LaunchRecords::finish(bool includeUntimed) {
  RunCounts counts;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    settleTrafficLocked(true);
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (it->second.timed || includeUntimed) {
        forgetLocked(it->second);
        emitLocked(std::move(it->second.launch));
        it = pending_.erase(it);
      } else {
        ++it;
      }
    }
    counts.launchesSeen = seen_;
    counts.launchesRecorded = recorded_;
    counts.launchesProfiled = profiled_;
  }
  writeReady();
  return counts;
}

} // namespace roofcheck::runtime
