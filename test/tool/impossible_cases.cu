// An if/else-if chain over the values of `parity = k & 1` that also tests a value parity cannot have: the
// optimiser makes it a switch whose default is unreachable, and that default would be a second exit of
// every loop around it, which then has no trip count. The switch takes one of its cases whatever the
// value, so the loops keep theirs.
// RUN: roofcheck-lint %s --grid 2 --block 64 --arg rounds=10 | FileCheck %s

// 10 rounds of 4 steps, one FMA each: 80 FLOPs a thread, 128 threads.
__global__ void alternatingOffsets(const float *in, float *out, int rounds) {
  float acc = 0;
  int offset = threadIdx.x, step = 0;
  for (int r = 0; r < rounds; ++r) {
    for (int s = 0; s < 4; ++s) {
      acc = acc * 0.5f + in[offset];
      int parity = step & 1;
      if (parity % 2 == 0)
        offset ^= 16;
      else if (parity == 1)
        offset ^= 48;
      else if (parity == 3) // never: parity is 0 or 1
        offset ^= 112;
      ++step;
    }
  }
  out[threadIdx.x] = acc;
}

// CHECK-LABEL: kernel alternatingOffsets
// CHECK: flops.fp32 {{.*}}rounds{{.*}} = 10240{{$}}
// CHECK-NOT: loop trip count it cannot determine
