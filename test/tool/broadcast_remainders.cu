// A tensor broadcast along a flattened index (ggml's binary ops: z = i2 * ne3 + i3 over blockIdx.z, the
// broadcast operand indexed by i3 % ne13 and i2 % ne12): a remainder of a remainder, (z % n3) % m3, takes
// min(n3, m3) values of the lowest digit, and the digits above it keep their own ranges.
// RUN: roofcheck-lint %s --kernel broadcastAdd --grid 1,4,6 --block 64 --arg n0=64 --arg n1=4 --arg n2=3 \
// RUN:   --arg n3=2 --arg m0=64 --arg m1=1 --arg m2=3 --arg m3=1 --arg sa1=64 --arg sa2=256 --arg sa3=768 \
// RUN:   --arg sb1=64 --arg sb2=64 --arg sb3=192 | FileCheck %s
// RUN: roofcheck-lint %s --kernel digitTwice --grid 1,1,6 --block 64 --arg n3=2 --arg m3=1 | FileCheck %s --check-prefix=TWICE
// RUN: roofcheck-lint %s --kernel unflatten --grid 10 --block 64 --arg n=600 --arg n0=10 --arg n1=6 --arg n2=5 \
// RUN:   --arg s1=16 --arg s2=128 --arg s3=1024 | FileCheck %s --check-prefix=NESTED

// a: 64 x 4 x 3 x 2 floats, 6144 bytes; b broadcast over rows and over the last dimension: 64 x 3 floats,
// 768 bytes; out as a.
__global__ void broadcastAdd(const float *a, const float *b, float *out, unsigned n0, unsigned n1, unsigned n2,
                             unsigned n3, unsigned m0, unsigned m1, unsigned m2, unsigned m3, unsigned sa1,
                             unsigned sa2, unsigned sa3, unsigned sb1, unsigned sb2, unsigned sb3) {
  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned flat = blockIdx.z * blockDim.z + threadIdx.z;
  unsigned plane = flat / n3, batch = flat % n3;
  if (row >= n1 || plane >= n2)
    return;
  unsigned rowB = row % m1, planeB = plane % m2, batchB = batch % m3;
  for (unsigned col = blockIdx.x * blockDim.x + threadIdx.x; col < n0; col += blockDim.x * gridDim.x) {
    unsigned at = batch * sa3 + plane * sa2 + row * sa1 + col;
    out[at] = a[at] + b[batchB * sb3 + planeB * sb2 + rowB * sb1 + col % m0];
  }
}

// CHECK-LABEL: kernel broadcastAdd
// CHECK: bytes.read {{.*}} = 6912{{$}}
// CHECK: bytes.write {{.*}} = 6144{{$}}
// CHECK-NOT: unknown:

// The digit and its remainder in one address: their values are not independent; an unknown.
__global__ void digitTwice(const float *b, float *out, unsigned n3, unsigned m3) {
  unsigned flat = blockIdx.z * blockDim.z + threadIdx.z;
  unsigned batch = flat % n3;
  out[flat * blockDim.x + threadIdx.x] = b[(batch % m3) * 100 + batch];
}

// TWICE-LABEL: kernel digitTwice
// TWICE: bytes.read unknown
// TWICE: unknown: remainder of a remainder (i % a % b) it cannot count

// A quotient of a remainder whose divisor divides the modulus as written, (i - i3 * n0 * n1 * n2) / (n0 * n1)
// (ggml's cpy unflattening a copy's index), is the exact digit i / (n0 * n1) - n2 * i3, not a remainder's
// remainder: the 600 elements read once each through a strided 4-D offset, 2400 bytes.
__global__ void unflatten(const float *x, float *y, long n, long n0, long n1, long n2, long s1, long s2, long s3) {
  long i = (long)blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n)
    return;
  long i3 = i / (n0 * n1 * n2);
  long i2 = (i - i3 * n0 * n1 * n2) / (n0 * n1);
  long i1 = (i - i3 * n0 * n1 * n2 - i2 * n0 * n1) / n0;
  long i0 = i - i3 * n0 * n1 * n2 - i2 * n0 * n1 - i1 * n0;
  y[i] = x[i0 + i1 * s1 + i2 * s2 + i3 * s3];
}

// NESTED-LABEL: kernel unflatten
// NESTED: bytes.read {{.*}} = 2400{{$}}
