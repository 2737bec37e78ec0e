// 1D 3-point and 2D 5-point stencils: neighbouring threads re-read the same inputs; the footprint counts
// each input byte once (the union of the shifted index ranges).
// RUN: roofcheck-lint %s --kernel stencil_1d --grid 4 --block 256 --arg n=1000 | FileCheck %s --check-prefix=S1
// RUN: roofcheck-lint %s --kernel stencil_2d --grid 4,16 --block 32,8 --arg nx=100 --arg ny=120 | FileCheck %s --check-prefix=S2
//
// stencil_1d, n = 1000, 1024 threads: outputs i in [1, n-1): 998 points, 3 mul + 2 add = 5 flops each
// -> 4990. Reads in[i-1], in[i], in[i+1] cover in[0..999]: 4000 B. Writes 998 floats: 3992 B.
__global__ void stencil_1d(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

// stencil_2d, nx = 100, ny = 120 (threads: 128 in x, 128 in y): interior points 98 * 118 = 11564,
// 4 adds + 1 mul = 5 flops each -> 57820. The reads cover the whole grid except its 4 corners:
// 4 * (100*120 - 4) = 47984 B. Writes 4 * 11564 = 46256 B.
__global__ void stencil_2d(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1) {
    int c = y * nx + x;
    out[c] = 0.2f * (in[c] + in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx]);
  }
}

// S1-LABEL: kernel stencil_1d
// S1: flops.fp32 {{.*}} = 4990{{$}}
// S1: bytes.read 4 * min(n - 1, blockDim.x * gridDim.x) + 4 = 4000{{$}}
// S1: bytes.write 4 * min(n - 1, blockDim.x * gridDim.x) - 4 = 3992{{$}}
// S2-LABEL: kernel stencil_2d
// S2: flops.fp32 {{.*}} = 57820{{$}}
// S2: bytes.read {{.*}} = 47984{{$}}
// S2: bytes.write {{.*}} = 46256{{$}}
