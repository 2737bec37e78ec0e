// A block-stride loop whose step is a constant rather than blockDim (for (i = threadIdx.x; i < n; i += 256)):
// thread t makes ceil((n - t) / 256) trips, whatever the block. With n = 1000: 1,000 adds for a block of 256
// (each value once), 128 x 4 = 512 for a block of 128, and for a block of 512 the first 256 threads' 1,000
// plus 744 from threads 256-511, which start a step later (232 x 3 + 24 x 2).
// RUN: roofcheck-lint %s --grid 1 --block 256 --arg n=1000 | FileCheck %s --check-prefix=B256
// RUN: roofcheck-lint %s --grid 1 --block 128 --arg n=1000 | FileCheck %s --check-prefix=B128
// RUN: roofcheck-lint %s --grid 1 --block 512 --arg n=1000 | FileCheck %s --check-prefix=B512
// RUN: roofcheck-lint %s --grid 1 --block 256 --arg n=100 | FileCheck %s --check-prefix=SHORT

__global__ void sumStrided(const float *in, float *out, int n) {
  float s = 0;
  for (int i = threadIdx.x; i < n; i += 256)
    s += in[i];
  out[threadIdx.x] = s;
}

// B256: flops.fp32 {{.*}} = 1000{{$}}
// B256: bytes.read {{.*}} = 4000{{$}}
// B128: flops.fp32 {{.*}} = 512{{$}}
// B512: flops.fp32 {{.*}} = 1744{{$}}
// 100 values, one trip each for threads 0-99, none for the others.
// SHORT: flops.fp32 {{.*}} = 100{{$}}
