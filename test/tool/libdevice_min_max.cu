// min() and max() of integers in device code are calls to libdevice (__nv_min, __nv_umax, ...), which the
// estimator does not link: it reads them as min and max. A loop over tiles of a clamped length (the K
// loop of a split GEMM) counts its trips; a quotient of something it cannot follow is an unknown, never 0.
// RUN: roofcheck-lint %s --grid 2 --block 32 --arg k=100 --arg limit=64 | FileCheck %s

// min(100, 64) = 64 trips of one FMA: 2 * 64 FLOPs a thread, 64 threads.
__global__ void clamped(float *data, int k, int limit) {
  float acc = data[threadIdx.x];
  for (int t = 0; t < min(k, limit); ++t)
    acc = acc * 0.5f + 1.0f;
  data[threadIdx.x] = acc;
}

// CHECK-LABEL: kernel clamped
// CHECK: flops.fp32 {{.*}}min(k, limit){{.*}} = 8192{{$}}

// Tiles of 16 over the clamped length, rounded up: (64 + 15) / 16 = 4 trips.
__global__ void clampedTiles(float *data, int k, int limit) {
  float acc = data[threadIdx.x];
  int tiles = (min(k, limit) + 15) / 16;
  for (int t = 0; t < tiles; ++t)
    acc = acc * 0.5f + 1.0f;
  data[threadIdx.x] = acc;
}

// CHECK-LABEL: kernel clampedTiles
// CHECK: flops.fp32 {{.*}}(min(k, limit) + 15) / 16{{.*}} = 512{{$}}

// max of unsigned values: max(100, 64) / 16 = 6 trips.
__global__ void widened(float *data, unsigned k, unsigned limit) {
  float acc = data[threadIdx.x];
  for (unsigned t = 0; t < max(k, limit) / 16; ++t)
    acc = acc * 0.5f + 1.0f;
  data[threadIdx.x] = acc;
}

// CHECK-LABEL: kernel widened
// CHECK: flops.fp32 {{.*}} = 768{{$}}

// The tile count of a population count is nothing the estimator can name: the count is unknown, not 0.
__global__ void bitsCounted(float *data, int k) {
  float acc = data[threadIdx.x];
  int tiles = (__popc(k) + 15) / 16;
  for (int t = 0; t < tiles; ++t)
    acc = acc * 0.5f + 1.0f;
  data[threadIdx.x] = acc;
}

// CHECK-LABEL: kernel bitsCounted
// CHECK: flops.fp32 unknown
// CHECK: unknown: {{.*}}loop trip count it cannot determine
