// A guard on threadIdx.x alone around an access at the global index (the first RADIUS threads of each
// block load its halo): the guard picks threads within every block, so the footprint is RADIUS elements per
// block, not the whole grid. The same pointer's unguarded accesses are taken apart the same way, so that
// the two footprints union (scan2's tid == 0 / else pair writes one range). With a guard on the global index
// too (skip the halo left of element 0), the two ranges do not combine into one: an unknown, not a count
// that ignores one of them.
// RUN: roofcheck-lint %s --grid 1024 --block 256 --verbose 2>&1 | FileCheck %s

// 1024 blocks x 7 threads: 7168 ints read from in[gindex + 256] and written to out[gindex].
__global__ void right_halo(const int *in, int *out) {
  int gindex = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 7)
    out[gindex] = in[gindex + 256];
}

// Thread 0 of each block writes its pair one way, the others another: every pair is written once, 2 floats
// per thread, 2 MiB.
__global__ void first_thread_apart(const float *in, float *out) {
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;
  if (tid == 0) {
    out[2 * gid] = 0;
    out[2 * gid + 1] = in[2 * gid];
  } else {
    out[2 * gid] = in[2 * gid - 1];
    out[2 * gid + 1] = in[2 * gid];
  }
}

__global__ void left_halo(const int *in, int *out) {
  int gindex = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 7 && gindex >= 7)
    out[gindex] = in[gindex - 7];
}

// CHECK-LABEL: kernel right_halo
// CHECK: bytes.read 28 * gridDim.x = 28672{{$}}
// CHECK: bytes.write 28 * gridDim.x = 28672{{$}}
// CHECK-LABEL: kernel first_thread_apart
// CHECK: bytes.write gridDim.x * max(8, 8 * blockDim.x) = 2097152{{$}}
// CHECK-LABEL: kernel left_halo
// CHECK: bytes.read unknown
// CHECK: unknown: guards on threadIdx and on the global index together
