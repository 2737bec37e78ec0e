// __device__ helpers are inlined and counted where they are called; special functions go to `special`.
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1000 --arg mix=0 | FileCheck %s
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1000 --arg mix=0.5 | FileCheck %s --check-prefix=MIXED
//
// poly3: Horner form, 3 FMAs = 6 flops per element -> fp32 = 6000.
// vec2_length: a*a + b*b is 1 mul + 1 FMA = 3 flops, sqrtf is 1 special -> fp32 = 3000, special = 1000;
// float2 loads 8 B per element: read 8000, write 4000.
__device__ float poly3(float x) { return ((0.5f * x + 0.25f) * x - 1.0f) * x + 2.0f; }
__device__ float length2(float a, float b) { return sqrtf(a * a + b * b); }

// rotation: too large for the optimiser's inlining budget (three math library calls, a branch) and called
// from two kernels, so the optimiser leaves it a call; it is counted where it is called all the same.
// rotate_pairs, a thread (500 threads): i * 0.5 and pos * powf (2 flops, 1 special), each output a product and
// a product subtracted or added (6); rotation with scale 1: theta = 1 * angle folds, cosf * scale and
// sinf * scale stay (scale is the phi of 1 and the ramp's correction): 2 flops, 2 special. 10 flops and
// 3 special a thread without a ramp (mix = 0). The ramp adds two subtractions, the division (special),
// 1 - min, * mix, 1 - blend, two products and their sum, 0.1 * logf(1) + 1: 10 flops, 2 special.
// rotate_halves: no i * 0.5, and theta = 2 * angle stays; with the ramp, scale * (1 + ...) stays too.
__device__ void rotation(float angle, float scale, float low, float high, int i, float mix, float &c, float &s) {
  float theta = scale * angle;
  if (mix != 0.0f) {
    float y = (i / 2 - low) / fmaxf(0.001f, high - low);
    float blend = (1.0f - fminf(1.0f, fmaxf(0.0f, y))) * mix;
    theta = theta * (1.0f - blend) + angle * blend;
    scale *= 1.0f + 0.1f * logf(1.0f / scale);
  }
  c = cosf(theta) * scale;
  s = sinf(theta) * scale;
}

__global__ void rotate_pairs(const float *x, float *out, const int *pos, float base, float low, float high, float mix,
                             int n) {
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n)
    return;
  float c, s;
  rotation(pos[0] * powf(base, i / 2.0f), 1.0f, low, high, i, mix, c, s);
  out[i] = x[i] * c - x[i + 1] * s;
  out[i + 1] = x[i] * s + x[i + 1] * c;
}

__global__ void rotate_halves(const float *x, float *out, const int *pos, float base, float low, float high,
                              float mix, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n / 2)
    return;
  float c, s;
  rotation(pos[0] * powf(base, i), 2.0f, low, high, 2 * i, mix, c, s);
  out[i] = x[i] * c - x[i + n / 2] * s;
  out[i + n / 2] = x[i] * s + x[i + n / 2] * c;
}

__global__ void apply_poly(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = poly3(in[i]);
}

__global__ void vec2_length(const float2 *v, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 p = v[i];
    out[i] = length2(p.x, p.y);
  }
}

// CHECK-LABEL: kernel rotate_pairs
// CHECK: flops.total {{.*}} = 5000{{$}}
// CHECK: flops.special {{.*}} = 1500{{$}}
// CHECK-LABEL: kernel rotate_halves
// CHECK: flops.total {{.*}} = 5000{{$}}
// CHECK: flops.special {{.*}} = 1500{{$}}
// MIXED-LABEL: kernel rotate_pairs
// MIXED: flops.total {{.*}} = 10000{{$}}
// MIXED: flops.special {{.*}} = 2500{{$}}
// MIXED-LABEL: kernel rotate_halves
// MIXED: flops.total {{.*}} = 10500{{$}}
// MIXED: flops.special {{.*}} = 2500{{$}}
// MIXED-NOT: unknown
// CHECK-LABEL: kernel apply_poly
// CHECK: flops.fp32 {{.*}} = 6000{{$}}
// CHECK: flops.special 0{{$}}
// CHECK-LABEL: kernel vec2_length
// CHECK: flops.total {{.*}} = 3000{{$}}
// CHECK: flops.special {{.*}} = 1000{{$}}
// CHECK: bytes.read {{.*}} = 8000{{$}}
// CHECK: bytes.write {{.*}} = 4000{{$}}
