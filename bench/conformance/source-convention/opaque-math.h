// Force-included (-include) into a program built for the source-convention referee
// (bench/conformance/source-convention/nvcc): every call of a math-library special function becomes an
// integer operation on its argument's bits, so Nsight Compute's FLOP counters see none of the FFMA, FMUL
// and FADD instructions the library expands it into, and count only the arithmetic the source writes
// around it. Divisions, reciprocals and square roots are PTX instructions, not library calls: the PTX
// rewrite (rewrite-ptx.py) takes those. Results are wrong on purpose; the counts are what is wanted.
#pragma once

// The standard headers first, so that the macros below do not reach their declarations (all of them where
// the library has one header for all, as programs that include <bits/stdc++.h> need).
#if __has_include(<bits/stdc++.h>)
#include <bits/stdc++.h>
#else
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <numeric>
#include <random>
#include <string>
#include <valarray>
#include <vector>
#endif
#include <math.h>

#include <cuda/std/cmath>
#include <cuda/std/complex>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// The bits of a value and back: integer moves, no arithmetic (a memcpy of one register compiles to none).
template <typename To, typename From> __host__ __device__ inline To roofcheck_cast(From x) {
  static_assert(sizeof(To) == sizeof(From), "a cast between types of one size");
  To y;
  memcpy(&y, &x, sizeof y);
  return y;
}
using roofcheck_u32 = unsigned;
using roofcheck_u64 = unsigned long long;

// One argument: a mantissa bit flipped (one LOP3), which keeps the value finite and near the argument, so
// that branches on it go much as before. Two arguments: the first's bits with one taken from the second.
__host__ __device__ inline float roofcheck_opaque(float x) { return roofcheck_cast<float>(roofcheck_cast<roofcheck_u32>(x) ^ 0x00400000u); }
__host__ __device__ inline double roofcheck_opaque(double x) {
  return roofcheck_cast<double>(roofcheck_cast<roofcheck_u64>(x) ^ 0x0008000000000000ull);
}
// Integer arguments (sqrt(n), exp(2)) convert as the library's overloads would.
template <typename T> __host__ __device__ inline double roofcheck_opaque(T x) { return roofcheck_opaque(double(x)); }
__host__ __device__ inline float roofcheck_opaque2(float a, float b) {
  return roofcheck_cast<float>(roofcheck_cast<roofcheck_u32>(a) ^ (roofcheck_cast<roofcheck_u32>(b) & 0x00400000u));
}
__host__ __device__ inline double roofcheck_opaque2(double a, double b) {
  return roofcheck_cast<double>(roofcheck_cast<roofcheck_u64>(a) ^ (roofcheck_cast<roofcheck_u64>(b) & 0x0008000000000000ull));
}
template <typename A, typename B> __host__ __device__ inline double roofcheck_opaque2(A a, B b) {
  return roofcheck_opaque2(double(a), double(b));
}
__host__ __device__ inline void roofcheck_opaque_sincos(float x, float *s, float *c) {
  *s = roofcheck_opaque(x);
  *c = roofcheck_cast<float>(roofcheck_cast<roofcheck_u32>(x) ^ 0x00200000u);
}
__host__ __device__ inline void roofcheck_opaque_sincos(double x, double *s, double *c) {
  *s = roofcheck_opaque(x);
  *c = roofcheck_cast<double>(roofcheck_cast<roofcheck_u64>(x) ^ 0x0004000000000000ull);
}
namespace std {
using ::roofcheck_opaque;
using ::roofcheck_opaque2;
using ::roofcheck_opaque_sincos;
} // namespace std

#define expf(x) roofcheck_opaque(x)
#define exp2f(x) roofcheck_opaque(x)
#define exp10f(x) roofcheck_opaque(x)
#define expm1f(x) roofcheck_opaque(x)
#define logf(x) roofcheck_opaque(x)
#define log2f(x) roofcheck_opaque(x)
#define log10f(x) roofcheck_opaque(x)
#define log1pf(x) roofcheck_opaque(x)
#define sinf(x) roofcheck_opaque(x)
#define cosf(x) roofcheck_opaque(x)
#define tanf(x) roofcheck_opaque(x)
#define asinf(x) roofcheck_opaque(x)
#define acosf(x) roofcheck_opaque(x)
#define atanf(x) roofcheck_opaque(x)
#define sinhf(x) roofcheck_opaque(x)
#define coshf(x) roofcheck_opaque(x)
#define tanhf(x) roofcheck_opaque(x)
#define asinhf(x) roofcheck_opaque(x)
#define acoshf(x) roofcheck_opaque(x)
#define atanhf(x) roofcheck_opaque(x)
#define cbrtf(x) roofcheck_opaque(x)
#define erff(x) roofcheck_opaque(x)
#define erfcf(x) roofcheck_opaque(x)
#define sinpif(x) roofcheck_opaque(x)
#define cospif(x) roofcheck_opaque(x)
#define rsqrtf(x) roofcheck_opaque(x)
#define __expf(x) roofcheck_opaque(x)
#define __exp10f(x) roofcheck_opaque(x)
#define __logf(x) roofcheck_opaque(x)
#define __log2f(x) roofcheck_opaque(x)
#define __log10f(x) roofcheck_opaque(x)
#define __sinf(x) roofcheck_opaque(x)
#define __cosf(x) roofcheck_opaque(x)
#define __tanf(x) roofcheck_opaque(x)
#define exp(x) roofcheck_opaque(x)
#define exp2(x) roofcheck_opaque(x)
#define exp10(x) roofcheck_opaque(x)
#define expm1(x) roofcheck_opaque(x)
#define log(x) roofcheck_opaque(x)
#define log2(x) roofcheck_opaque(x)
#define log10(x) roofcheck_opaque(x)
#define log1p(x) roofcheck_opaque(x)
#define sin(x) roofcheck_opaque(x)
#define cos(x) roofcheck_opaque(x)
#define tan(x) roofcheck_opaque(x)
#define asin(x) roofcheck_opaque(x)
#define acos(x) roofcheck_opaque(x)
#define atan(x) roofcheck_opaque(x)
#define sinh(x) roofcheck_opaque(x)
#define cosh(x) roofcheck_opaque(x)
#define tanh(x) roofcheck_opaque(x)
#define asinh(x) roofcheck_opaque(x)
#define acosh(x) roofcheck_opaque(x)
#define atanh(x) roofcheck_opaque(x)
#define cbrt(x) roofcheck_opaque(x)
#define erf(x) roofcheck_opaque(x)
#define erfc(x) roofcheck_opaque(x)
#define sinpi(x) roofcheck_opaque(x)
#define cospi(x) roofcheck_opaque(x)
#define rsqrt(x) roofcheck_opaque(x)
#define powf(a, b) roofcheck_opaque2(a, b)
#define __powf(a, b) roofcheck_opaque2(a, b)
#define pow(a, b) roofcheck_opaque2(a, b)
#define atan2f(a, b) roofcheck_opaque2(a, b)
#define atan2(a, b) roofcheck_opaque2(a, b)
#define hypotf(a, b) roofcheck_opaque2(a, b)
#define hypot(a, b) roofcheck_opaque2(a, b)
#define __fdividef(a, b) roofcheck_opaque2(a, b)
#define sincosf(x, s, c) roofcheck_opaque_sincos(x, s, c)
#define sincos(x, s, c) roofcheck_opaque_sincos(x, s, c)
#define __sincosf(x, s, c) roofcheck_opaque_sincos(x, s, c)
