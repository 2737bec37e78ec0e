// The measured programs of bench/faults/run-faults.sh. Each mode launches tiny kernels, waits for them,
// prints a checksum of what they computed and, last, `launches completed: N` (flushed), then meets its
// fault. The output depends only on the mode and N, so a run under `roofcheck run` can be compared byte for
// byte with a native one, and N is what the measured file must at least hold.
// usage: faults MODE [N]   (modes below; N defaults to the mode's own count)
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace {

using Clock = std::chrono::steady_clock;

// No mode waits longer than this for its fault (or for a signal from outside): the suite never hangs on it.
constexpr auto patience = std::chrono::seconds(15);

void check(cudaError_t status, const char *what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "faults: %s: %s\n", what, cudaGetErrorString(status));
    std::exit(2);
  }
}

__global__ void addValue(unsigned long long *sum, unsigned long long value) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    atomicAdd(sum, value);
}

__global__ void mixMultiply(unsigned *data, unsigned factor) { data[threadIdx.x] = data[threadIdx.x] * factor + 1u; }

__global__ void mixXor(unsigned *data, unsigned mask) { data[threadIdx.x] ^= mask + threadIdx.x; }

__global__ void mixRotate(unsigned *data, int by) {
  unsigned v = data[threadIdx.x];
  data[threadIdx.x] = (v << by) | (v >> (32 - by));
}

// Launch i (counted from 1) adds i: after n completed launches the device holds n(n+1)/2.
struct Counter {
  unsigned long long *device = nullptr;
  unsigned long long launched = 0;

  Counter() {
    const unsigned long long zero = 0;
    check(cudaMalloc(&device, sizeof zero), "cudaMalloc");
    check(cudaMemcpy(device, &zero, sizeof zero, cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  void launch(unsigned long long count, cudaStream_t stream = nullptr) {
    for (unsigned long long i = 0; i < count; ++i)
      addValue<<<1, 32, 0, stream>>>(device, ++launched);
    check(cudaGetLastError(), "launch");
  }
  unsigned long long waitAndRead() {
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    unsigned long long sum = 0;
    check(cudaMemcpy(&sum, device, sizeof sum, cudaMemcpyDeviceToHost), "cudaMemcpy");
    return sum;
  }
};

constexpr unsigned mixWidth = 256;

unsigned *mixBuffer(unsigned seed, cudaStream_t stream) {
  std::vector<unsigned> host(mixWidth);
  for (unsigned i = 0; i < mixWidth; ++i)
    host[i] = seed * mixWidth + i;
  unsigned *data = nullptr;
  check(cudaMalloc(&data, mixWidth * sizeof(unsigned)), "cudaMalloc");
  check(cudaMemcpyAsync(data, host.data(), mixWidth * sizeof(unsigned), cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return data;
}

// FNV-1a over the buffer's words, continuing from `hash`.
unsigned long long foldBuffer(const unsigned *data, cudaStream_t stream, unsigned long long hash) {
  std::vector<unsigned> host(mixWidth);
  check(cudaMemcpyAsync(host.data(), data, mixWidth * sizeof(unsigned), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  for (unsigned word : host) {
    hash ^= word;
    hash *= 1099511628211ull;
  }
  return hash;
}

void report(unsigned long long checksum, unsigned long long completed) {
  std::printf("checksum: %016llx\nlaunches completed: %llu\n", checksum, completed);
  std::fflush(stdout);
}

void waitForever(const char *what) {
  auto end = Clock::now() + patience;
  while (Clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::fprintf(stderr, "faults: %s did not end the process\n", what);
  std::_Exit(3);
}

// n launches waited for and reported, n more still in flight, then the fault.
int faultAfter(unsigned long long n, void (*fault)(), const char *what) {
  Counter counter;
  counter.launch(n);
  report(counter.waitAndRead(), n);
  counter.launch(n);
  fault();
  waitForever(what);
  return 3;
}

int *volatile nowhere = nullptr; // volatile: the compiler cannot turn the write below into a trap

int abortMode(unsigned long long n) {
  return faultAfter(n, [] { std::abort(); }, "abort()");
}

int segfaultMode(unsigned long long n) {
  return faultAfter(n, [] { *nowhere = 1; }, "a null write");
}

int sigtermSelfMode(unsigned long long n) {
  return faultAfter(n, [] { ::kill(::getpid(), SIGTERM); }, "SIGTERM to itself");
}

// Reports, then keeps launching (100 at a time) until a signal from outside ends it.
int untilKilledMode(unsigned long long n) {
  std::fprintf(stderr, "faults: pid %d\n", static_cast<int>(::getpid()));
  Counter counter;
  counter.launch(n);
  report(counter.waitAndRead(), n);
  auto end = Clock::now() + patience;
  while (Clock::now() < end) {
    counter.launch(100);
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::fprintf(stderr, "faults: no signal came within %lld s\n", static_cast<long long>(patience.count()));
  return 3;
}

// A worker thread calls exit(4) while the main thread keeps launching.
int exitFromThreadMode(unsigned long long n) {
  std::atomic<bool> ready{false};
  unsigned long long checksum = 0;
  Counter counter;
  std::thread worker([&] {
    while (!ready.load(std::memory_order_acquire))
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    report(checksum, n);
    std::exit(4);
  });
  worker.detach();
  counter.launch(n);
  checksum = counter.waitAndRead();
  ready.store(true, std::memory_order_release);
  // Errors are expected once exit() tears the runtime down: they must not end the process first.
  auto end = Clock::now() + patience;
  while (Clock::now() < end) {
    for (int i = 0; i < 100; ++i)
      addValue<<<1, 32>>>(counter.device, 0);
    (void)cudaDeviceSynchronize();
  }
  std::fprintf(stderr, "faults: exit() from a worker thread did not end the process\n");
  std::_Exit(3);
}

// fork() after CUDA is in use: the child does no CUDA and exits 0; the parent waits for it and goes on.
int forkMode(unsigned long long n) {
  Counter counter;
  counter.launch(n);
  unsigned long long before = counter.waitAndRead();
  std::fflush(stdout);
  pid_t child = ::fork();
  if (child < 0) {
    std::perror("faults: fork");
    return 2;
  }
  if (child == 0)
    std::exit(0);
  int status = 0;
  pid_t ended = 0;
  for (auto end = Clock::now() + patience; ended == 0 && Clock::now() < end;) {
    ended = ::waitpid(child, &status, WNOHANG);
    if (ended == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (ended != child) {
    ::kill(child, SIGKILL);
    ::waitpid(child, &status, 0);
    std::printf("child: did not exit within %lld s\n", static_cast<long long>(patience.count()));
  } else if (WIFEXITED(status)) {
    std::printf("child: exit %d\n", WEXITSTATUS(status));
  } else {
    std::printf("child: signal %d\n", WTERMSIG(status));
  }
  std::printf("parent before fork: %016llx\n", before);
  counter.launch(n);
  report(counter.waitAndRead(), 2 * n);
  return 0;
}

// 16 threads start together, each launching n kernels (three kinds in turn) on its own stream and buffer.
int threadsMode(unsigned long long n) {
  constexpr int threadCount = 16;
  std::vector<unsigned long long> hashes(threadCount);
  std::atomic<int> waiting{threadCount};
  auto work = [&](int t) {
    cudaStream_t stream;
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    unsigned *data = mixBuffer(static_cast<unsigned>(t), stream);
    waiting.fetch_sub(1);
    while (waiting.load() > 0)
      std::this_thread::yield();
    for (unsigned long long j = 0; j < n; ++j) {
      unsigned parameter = static_cast<unsigned>(j * 7 + t);
      switch (j % 3) {
      case 0: mixMultiply<<<1, mixWidth, 0, stream>>>(data, 2 * parameter + 3); break;
      case 1: mixXor<<<1, mixWidth, 0, stream>>>(data, parameter); break;
      default: mixRotate<<<1, mixWidth, 0, stream>>>(data, static_cast<int>(parameter % 31 + 1)); break;
      }
    }
    check(cudaGetLastError(), "launch");
    hashes[t] = foldBuffer(data, stream, 14695981039346656037ull);
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < threadCount; ++t)
    threads.emplace_back(work, t);
  for (std::thread &thread : threads)
    thread.join();
  unsigned long long checksum = 0;
  for (unsigned long long hash : hashes)
    checksum = checksum * 31 + hash;
  report(checksum, threadCount * n);
  return 0;
}

int manyMode(unsigned long long n) {
  Counter counter;
  counter.launch(n);
  report(counter.waitAndRead(), n);
  return 0;
}

// A graph of four kernels captured once and launched n times.
int graphMode(unsigned long long n) {
  cudaStream_t stream;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  Counter counter;
  unsigned *data = mixBuffer(1, stream);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "cudaStreamBeginCapture");
  addValue<<<1, 32, 0, stream>>>(counter.device, 1);
  mixMultiply<<<1, mixWidth, 0, stream>>>(data, 3);
  addValue<<<1, 32, 0, stream>>>(counter.device, 2);
  mixXor<<<1, mixWidth, 0, stream>>>(data, 5);
  check(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
  check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  for (unsigned long long r = 0; r < n; ++r)
    check(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
  unsigned long long checksum = foldBuffer(data, stream, counter.waitAndRead());
  std::printf("graph launches: %llu\n", n);
  report(checksum, 4 * n);
  return 0;
}

struct Mode {
  const char *name;
  int (*run)(unsigned long long);
  unsigned long long defaultCount;
};

constexpr Mode modes[] = {
    {"abort", abortMode, 50},         {"segfault", segfaultMode, 50},     {"sigterm-self", sigtermSelfMode, 50},
    {"until-killed", untilKilledMode, 50}, {"exit-thread", exitFromThreadMode, 50}, {"fork", forkMode, 50},
    {"threads", threadsMode, 1000},   {"many", manyMode, 200000},         {"graph", graphMode, 100},
};

int usage() {
  std::fprintf(stderr, "usage: faults MODE [N]   modes:");
  for (const Mode &m : modes)
    std::fprintf(stderr, " %s", m.name);
  std::fprintf(stderr, "\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3)
    return usage();
  for (const Mode &m : modes) {
    if (std::strcmp(argv[1], m.name) != 0)
      continue;
    unsigned long long count = m.defaultCount;
    if (argc == 3) {
      char *end = nullptr;
      count = std::strtoull(argv[2], &end, 10);
      if (*argv[2] == '\0' || *end != '\0' || count == 0)
        return usage();
    }
    return m.run(count);
  }
  return usage();
}
