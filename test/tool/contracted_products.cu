// FMAs as the compiler forms them: nvcc (-fmad=true, its default) fuses a product into every add that takes
// it, also where the product has several uses, so a product shared by two adds runs as two FMAs (4 FLOPs)
// rather than one multiply and two adds (3). A product with one use counts the same either way. Between two
// shared products one add takes one of them, the same one in both adds (ptxas: rodrigues' rotation matrix,
// 43 FLOPs a thread where the IR has 40). Without contraction (-fmad=false) the IR's count stands. Every
// count below is what Nsight Compute counted of these kernels built by nvcc -O3 -arch=sm_90 on the H200
// (2026-12-04), with -fmad=true and with -fmad=false.
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1024 | FileCheck %s
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1024 -- -fmad=false | FileCheck %s --check-prefix=NOFMAD

// a*b feeds the sum and the difference: two FMAs (4).
__global__ void shared_product(float *out, const float *a, const float *b, const float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float p = a[i] * b[i];
    out[2 * i] = p + c[i];
    out[2 * i + 1] = p - c[i];
  }
}

// a*b and c*d feed both adds: one FMA carries a*b in each, c*d is a multiply of its own (1 + 2 + 2 = 5).
__global__ void two_shared_products(float *out, const float *a, const float *b, const float *c, const float *d,
                                    int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float p = a[i] * b[i], q = c[i] * d[i];
    out[2 * i] = p + q;
    out[2 * i + 1] = p - q;
  }
}

// One use a product: mul + add as written (2 + 2 = 4); a product that is also stored stays a multiply and
// its add an add (1 + 1 = 2), nvcc fuses nothing there.
__global__ void single_and_stored(float *out, float *kept, const float *a, const float *b, const float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = a[i] * b[i] + c[i] + a[i] * c[i];
    float p = b[i] * c[i];
    kept[i] = p;
    out[n + i] = p + a[i];
  }
}

// A butterfly on a thread's local array (fft's radix-8 steps): the array stays in memory for the engine,
// whose loops over it stay loops, so each product is also stored; nvcc unrolls the loops, keeps the array
// in registers and fuses as above (v[2]*c into both adds: 1 + 2 + 2, and the two adds into v[0], v[1]).
__global__ void local_array_butterfly(float *out, const float *in, float c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v[4];
  for (int k = 0; k < 4; ++k)
    v[k] = in[4 * i + k];
  v[2] = v[2] * c;
  v[3] = v[3] * c;
  float sum = v[2] + v[3], difference = v[2] - v[3];
  v[0] += sum;
  v[1] += difference;
  v[2] = sum;
  v[3] = difference;
  for (int k = 0; k < 4; ++k)
    out[4 * i + k] = v[k];
}

// CHECK-LABEL: kernel shared_product
// CHECK: flops.total 4 * blockDim.y * blockDim.z * gridDim.y * gridDim.z * min(n, blockDim.x * gridDim.x) = 4096{{$}}
// CHECK-LABEL: kernel two_shared_products
// CHECK: flops.total 5 * blockDim.y * blockDim.z * gridDim.y * gridDim.z * min(n, blockDim.x * gridDim.x) = 5120{{$}}
// CHECK-LABEL: kernel single_and_stored
// CHECK: flops.total 6 * blockDim.y * blockDim.z * gridDim.y * gridDim.z * min(n, blockDim.x * gridDim.x) = 6144{{$}}
// CHECK-LABEL: kernel local_array_butterfly
// CHECK: flops.total 7 * blockDim.y * blockDim.z * gridDim.y * gridDim.z * min(n, blockDim.x * gridDim.x) = 7168{{$}}

// NOFMAD-LABEL: kernel shared_product
// NOFMAD: flops.total 3 * blockDim.y * blockDim.z * gridDim.y * gridDim.z * min(n, blockDim.x * gridDim.x) = 3072{{$}}
// NOFMAD-LABEL: kernel two_shared_products
// NOFMAD: flops.total 4 * blockDim.y * blockDim.z * gridDim.y * gridDim.z * min(n, blockDim.x * gridDim.x) = 4096{{$}}
// NOFMAD-LABEL: kernel single_and_stored
// NOFMAD: flops.total 6 * blockDim.y * blockDim.z * gridDim.y * gridDim.z * min(n, blockDim.x * gridDim.x) = 6144{{$}}
// NOFMAD-LABEL: kernel local_array_butterfly
// NOFMAD: flops.total 6 * blockDim.y * blockDim.z * gridDim.y * gridDim.z * min(n, blockDim.x * gridDim.x) = 6144{{$}}
