// What Nsight Compute's FLOPs hold of one special operation: every thread applies the operation once to its
// own argument and stores the result, so the kernel's measured FLOPs divided by its threads are the
// operation's expansion (the FFMA, FMUL and FADD its code runs). Built with the accuracy programs' flags
// (nvcc -O3 -arch=sm_90, no fast math) and profiled by special-expansions.sh; arguments spread over a
// typical range of each operation, away from its slow paths (huge trig arguments, denormals).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <class T> struct Range {
  T lo, hi;
};

// `b`, read from the other end of the array, is the second argument of the binary operations (no FLOPs of
// its own); the unary ones leave it unused.
#define OPERATION(NAME, T, EXPR, LO, HI)                                                                       \
  __global__ void NAME(const T *x, T *y, int n) {                                                             \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                           \
    if (i < n) {                                                                                             \
      T a = x[i];                                                                                            \
      [[maybe_unused]] T b = x[n - 1 - i];                                                                   \
      y[i] = EXPR;                                                                                           \
    }                                                                                                        \
  }                                                                                                          \
  static const Range<T> NAME##_range{LO, HI};

// Two results per thread for the operations that write through pointers (sincos): both are stored.
#define SINCOS(NAME, T, CALL, LO, HI)                                                                          \
  __global__ void NAME(const T *x, T *y, int n) {                                                             \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                           \
    if (i < n) {                                                                                             \
      T s, c;                                                                                                \
      CALL(x[i], &s, &c);                                                                                    \
      y[i] = s;                                                                                              \
      y[i + n] = c;                                                                                          \
    }                                                                                                        \
  }                                                                                                          \
  static const Range<T> NAME##_range{LO, HI};

OPERATION(op_expf, float, expf(a), -10.0f, 10.0f)
OPERATION(op_exp, double, exp(a), -10.0, 10.0)
OPERATION(op_logf, float, logf(a), 0.001f, 1000.0f)
OPERATION(op_log, double, log(a), 0.001, 1000.0)
OPERATION(op_sinf, float, sinf(a), -50.0f, 50.0f)
OPERATION(op_cosf, float, cosf(a), -50.0f, 50.0f)
OPERATION(op_sin, double, sin(a), -50.0, 50.0)
OPERATION(op_cos, double, cos(a), -50.0, 50.0)
OPERATION(op_tanhf, float, tanhf(a), -5.0f, 5.0f)
OPERATION(op_erff, float, erff(a), -3.0f, 3.0f)
OPERATION(op_sqrtf, float, sqrtf(a), 0.01f, 10000.0f)
OPERATION(op_sqrt, double, sqrt(a), 0.01, 10000.0)
OPERATION(op_rsqrtf, float, rsqrtf(a), 0.01f, 10000.0f)
OPERATION(op_rsqrt, double, rsqrt(a), 0.01, 10000.0)
OPERATION(op_fdiv_f32, float, a / b, 0.5f, 100.0f)
OPERATION(op_fdiv_f64, double, a / b, 0.5, 100.0)
OPERATION(op_powf, float, powf(a, b), 0.01f, 3.0f)
OPERATION(op_pow, double, pow(a, b), 0.01, 3.0)
OPERATION(op_hypotf, float, hypotf(a, b), -100.0f, 100.0f)
OPERATION(op_hypot, double, hypot(a, b), -100.0, 100.0)
OPERATION(op_atan2f, float, atan2f(a, b), -10.0f, 10.0f)
OPERATION(op_acos, double, acos(a), -0.99, 0.99)
OPERATION(op_fast_expf, float, __expf(a), -10.0f, 10.0f)
SINCOS(op_sincosf, float, sincosf, -50.0f, 50.0f)
SINCOS(op_sincos, double, sincos, -50.0, 50.0)
SINCOS(op_sincospif, float, sincospif, -50.0f, 50.0f)

template <class T> void run(const char *name, void (*kernel)(const T *, T *, int), Range<T> range, int n) {
  T *host = static_cast<T *>(malloc(sizeof(T) * n));
  for (int i = 0; i < n; ++i)
    host[i] = range.lo + (range.hi - range.lo) * (static_cast<T>(i) + T(0.5)) / n;
  T *x, *y;
  cudaMalloc(&x, sizeof(T) * n);
  cudaMalloc(&y, 2 * sizeof(T) * n);
  cudaMemcpy(x, host, sizeof(T) * n, cudaMemcpyHostToDevice);
  kernel<<<(n + 255) / 256, 256>>>(x, y, n);
  cudaError_t status = cudaDeviceSynchronize();
  printf("%s %d %s\n", name, n, cudaGetErrorString(status));
  cudaFree(x);
  cudaFree(y);
  free(host);
}

#define RUN(NAME) run(#NAME, NAME, NAME##_range, n)

int main() {
  const int n = 1 << 20;
  RUN(op_expf); RUN(op_exp); RUN(op_logf); RUN(op_log); RUN(op_sinf); RUN(op_cosf); RUN(op_sin); RUN(op_cos);
  RUN(op_tanhf); RUN(op_erff); RUN(op_sqrtf); RUN(op_sqrt); RUN(op_rsqrtf); RUN(op_rsqrt); RUN(op_fdiv_f32);
  RUN(op_fdiv_f64); RUN(op_powf); RUN(op_pow); RUN(op_hypotf); RUN(op_hypot); RUN(op_atan2f); RUN(op_acos);
  RUN(op_fast_expf);
  RUN(op_sincosf); RUN(op_sincos); RUN(op_sincospif);
  return 0;
}
