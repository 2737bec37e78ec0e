// Ways a measured program ends besides returning from main.
// usage: endings sigterm   five launches waited for, then SIGTERM to itself
//        endings fork      five launches, fork() (the child only exits), five more launches
#include <cuda_runtime.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <sys/wait.h>
#include <unistd.h>

__global__ void tick(int *counter, int step) { atomicAdd(counter, step); }

namespace {
bool launchFive(int *counter) {
  for (int i = 0; i < 5; ++i)
    tick<<<1, 32>>>(counter, i + 1);
  return cudaDeviceSynchronize() == cudaSuccess;
}
} // namespace

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  int *counter = nullptr;
  if (cudaMalloc(&counter, sizeof(int)) != cudaSuccess || !launchFive(counter))
    return 2;
  if (std::strcmp(mode, "sigterm") == 0) {
    std::printf("5 launches completed\n");
    std::fflush(stdout);
    ::kill(::getpid(), SIGTERM);
    ::pause();
    return 3;
  }
  if (std::strcmp(mode, "fork") == 0) {
    std::fflush(stdout);
    pid_t child = ::fork();
    if (child == 0) {
      std::printf("child exits\n");
      std::exit(0); // runs the exit handlers it inherited, the shim's among them
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    if (!launchFive(counter))
      return 2;
    std::printf("10 launches completed, child exit=%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
  }
  std::fprintf(stderr, "usage: endings sigterm|fork\n");
  return 2;
}
