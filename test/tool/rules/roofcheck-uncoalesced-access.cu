// roofcheck-uncoalesced-access (docs/rules/roofcheck-uncoalesced-access.md): a global access whose stride
// along threadIdx.x makes a warp request move more sectors than it uses. Bound launch: n = 1024, so a row
// is 4096 B and a column walk puts every thread of a warp in its own sector (32 instead of 4: 8x).
// RUN: not roofcheck-lint --quiet %s --grid 4 --block 256 --arg n=1024 2>/dev/null \
// RUN:   | FileCheck %s --implicit-check-not=warning: --implicit-check-not=note:
// Unbound, the stride stays an expression and is judged at realistic sizes.
// RUN: not roofcheck-lint --quiet %s --kernel column_store 2>/dev/null | FileCheck %s --check-prefix=FREE
// FREE: :[[@LINE+18]]:{{[0-9]+}}: warning: uncoalesced store to 'out': neighbouring threads are 4 * n B apart, so a warp request moves 32 sectors instead of 4 (8x the traffic at realistic sizes) [roofcheck-uncoalesced-access]
// The threshold is an option: at 3x the 2x interleaved access is no longer reported.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// RUN: printf 'options:\n  roofcheck-uncoalesced-access.min-traffic-factor: 3\n' > %t/.roofcheck.yaml
// RUN: not roofcheck-lint --quiet %t/k.cu --grid 4 --block 256 --arg n=1024 2>/dev/null | FileCheck %s --check-prefix=STRICT
// STRICT: 4096 B apart
// STRICT-NOT: 8 B apart
// STRICT: 132 B apart

__global__ void contiguous(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
}

__global__ void column_store(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i * n] = in[i];
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: uncoalesced store to 'out': neighbouring threads are 4096 B apart, so a warp request moves 32 sectors instead of 4 (8x the traffic) [roofcheck-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:9: note: the index 'i * n' moves 4 * n bytes per threadIdx.x; make threadIdx.x move the last index, or stage the tile through shared memory so that both the load and the store are contiguous
}

__global__ void pairs(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[2 * i] = in[i];
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: uncoalesced store to 'out': neighbouring threads are 8 B apart, so a warp request moves 8 sectors instead of 4 (2x the traffic) [roofcheck-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:9: note: the index '2 * i' moves 8 bytes per threadIdx.x
}

__global__ void strided_load(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i * 33];
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: uncoalesced load from 'in': neighbouring threads are 132 B apart, so a warp request moves 32 sectors instead of 4 (8x the traffic) [roofcheck-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:17: note: the index 'i * 33' moves 132 bytes per threadIdx.x
}

// Every thread reads the same word: one sector per request, nothing wasted.
__global__ void broadcast(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[0];
}

// 16-byte vectors, 16 bytes apart: contiguous.
__global__ void vectors(const float4 *in, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

// Each thread covers eight consecutive floats in a loop: the warp's requests tile 32-byte runs with no gap,
// and L1 serves the rest of each sector. Not reported (vector loads would take fewer requests, not less
// traffic).
__global__ void runs_per_thread(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (8 * i + 7 < n)
    for (int k = 0; k < 8; ++k)
      out[8 * i + k] = in[8 * i + k];
}

// A byte stride passed as an argument (a tensor's stride) is the caller's layout, contiguous in the common
// case: nothing the source says. Not reported.
__global__ void strided_argument(const char *in, float *out, long stride, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = *reinterpret_cast<const float *>(in + i * stride);
}

// threadIdx.y walks contiguous memory: the kernel is written for blocks of 1 x N threads, which the launch
// decides. Not reported unbound or for such a launch; a launch with blockDim.x > 1 (the 256 x 1 blocks of
// the first RUN line, the 32 x 8 below) makes neighbouring x threads whole rows apart, and is reported.
// RUN: roofcheck-lint --quiet %s --kernel y_is_fast 2>&1 | FileCheck %s --check-prefix=YFAST --allow-empty
// RUN: roofcheck-lint --quiet %s --kernel y_is_fast --grid 64,4 --block 1,256 --arg ncols=1024 2>&1 \
// RUN:   | FileCheck %s --check-prefix=YFAST --allow-empty
// YFAST-NOT: warning:
// RUN: not roofcheck-lint --quiet %s --kernel y_is_fast --grid 2,128 --block 32,8 --arg ncols=1024 2>&1 \
// RUN:   | FileCheck %s --check-prefix=XWIDE
// XWIDE: warning: uncoalesced store to 'out': neighbouring threads are 4096 B apart
__global__ void y_is_fast(const float *in, float *out, int ncols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < ncols)
    out[row * ncols + col] = in[row * ncols + col];
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: uncoalesced store to 'out': neighbouring threads are 4 * ncols B apart
  // CHECK: :[[@LINE-2]]:{{[0-9]+}}: note: the index 'row * ncols + col'
  // CHECK: :[[@LINE-3]]:{{[0-9]+}}: warning: uncoalesced load from 'in': neighbouring threads are 4 * ncols B apart
  // CHECK: :[[@LINE-4]]:{{[0-9]+}}: note: the index 'row * ncols + col'
}

// The four bytes of each uchar4 read one by one, the neighbours on either side and the one a row above:
// each thread's stretches are as long as the stride (HeCBench's sobel). Not reported.
__device__ float4 widened(uchar4 c) { return make_float4(c.x, c.y, c.z, c.w); }
__global__ void smooth_row(const uchar4 *in, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n + 1 && i < 2 * n - 1) {
    float4 a = widened(in[i - 1]), b = widened(in[i - n]), c = widened(in[i + 1]);
    out[i] = make_float4(a.x - c.x + b.x, a.y - c.y + b.y, a.z - c.z + b.z, a.w - c.w + b.w);
  }
}

// Two of the five fields of a 20-byte struct: the rest of each stretch is traffic nobody uses. Reported.
struct Body {
  float angle, velocity, mass, drag, spin;
};
__global__ void two_fields(const Body *bodies, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = bodies[i].angle * bodies[i].velocity;
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: uncoalesced load from 'bodies': neighbouring threads are 20 B apart, so a warp request moves 20 sectors instead of 8 (2.5x the traffic) [roofcheck-uncoalesced-access]
  // CHECK: note: the index
}

// Pixels of `channels` floats whose first three channels are read side by side: the parameter counts the
// fields of a record (HeCBench's tonemapping), not a row, and is judged as the three the thread reads. Not
// reported; a row walked by one field is (the first kernels above).
__global__ void luminance(const float *in, float *out, int channels, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 0.2f * in[i * channels + 0] + 0.7f * in[i * channels + 1] + 0.1f * in[i * channels + 2];
}

// An element stride that is an argument and bounds nothing (ggml's sx0: no guard, loop or count holds it)
// is the caller's layout, as a byte stride is. Not reported; a row length the guards hold is (column_store).
__global__ void element_stride_argument(const float *x, float *dst, long sx0, long sd0, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i * sd0] = 2.0f * x[i * sx0];
}

// The same where the kernel's reads are unknown beside it (a second input at an index loaded from memory):
// the counts it knows, FLOPs and writes, hold no sx0, which bounds nothing. Not reported.
__global__ void element_stride_beside_unknown(const float *x, const float *table, const int *pick, float *dst,
                                              long sx0, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = x[i * sx0] + table[pick[i]];
}

// A byte stride turned into elements by the source (ggml's ssm-conv: nb1 / sizeof(float)), four weights of a
// row per thread, and a count unknown beside it (a store through an index loaded from memory): still the
// caller's layout. Not reported.
__global__ void byte_stride_in_elements(const float *w, const int *order, float *out, long nb1) {
  const long stride = nb1 / sizeof(float);
  float s = 0;
  for (int j = 0; j < 4; ++j)
    s += w[threadIdx.x * stride + j];
  out[order[threadIdx.x]] = s;
}

// A record per thread written in two parts, a 2-byte scale and then its 32 quantised bytes in a loop (ggml's
// q8_0 blocks, 34 bytes): one stretch as long as the stride, tiled by the warp's stores. Not reported.
struct ScaledBlock {
  unsigned short scale;
  signed char q[32];
};
__global__ void quantise_blocks(const float *x, ScaledBlock *out) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  out[b].scale = 1;
  for (int j = 0; j < 32; ++j)
    out[b].q[j] = (signed char)x[b * 32 + j];
}

// Coordinates narrower than a warp (il = tid / 8, ir = tid % 8): a warp steps through two strides, which one
// stride per access cannot describe. Not reported.
__global__ void narrow_digits(const float *in, float *out) {
  int il = threadIdx.x / 8, ir = threadIdx.x % 8;
  out[blockIdx.x * 256 + 32 * ir + 4 * il] = in[blockIdx.x * 256 + 32 * ir + 4 * il];
}

// Each thread walks its own row of `cols` elements: a warp request is spread over 32 rows, but every sector
// it brings is used by the thread's next iterations, so the traffic beyond L1 is the footprint. The run is
// symbolic, judged at the nominal length as a symbolic stride is. Not reported, with or without cols.
__global__ void row_per_thread(const float *m, float *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0;
    for (int c = 0; c < cols; ++c)
      s += m[r * cols + c];
    sums[r] = s;
  }
}
// RUN: roofcheck-lint --quiet %s --kernel row_per_thread 2>&1 | FileCheck %s --check-prefix=ROW --allow-empty
// RUN: roofcheck-lint --quiet %s --kernel row_per_thread --arg cols=4096 --arg rows=1000 --grid 4 --block 256 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ROW --allow-empty
// ROW-NOT: warning:

// An access on one side of a test of the parameters: the finding names its side where the launch is not
// given, and there is none for a launch on the other side (the first RUN line's binds no `transposed`).
// RUN: not roofcheck-lint --quiet %s --kernel pick_layout 2>/dev/null | FileCheck %s --check-prefix=SIDE
// RUN: roofcheck-lint --quiet %s --kernel pick_layout --grid 4 --block 256 --arg n=1024 --arg transposed=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OTHERSIDE --allow-empty
// SIDE: :[[@LINE+8]]:{{[0-9]+}}: warning: uncoalesced load from 'in' (where transposed): neighbouring threads are 4 * n B apart
// OTHERSIDE-NOT: warning:
// CHECK: :[[@LINE+6]]:{{[0-9]+}}: warning: uncoalesced load from 'in' (where transposed): neighbouring threads are 4096 B apart
// CHECK: :[[@LINE+5]]:{{[0-9]+}}: note: the index 'transposed ? i * n : i' moves
__global__ void pick_layout(const float *in, float *out, int n, bool transposed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = in[transposed ? i * n : i];
}
