// A copy of an object whose alignment is its size (float4, double2, int2) reads or writes all of it, as nvcc's
// one vector load or store does, even when the kernel uses only some fields. Structs aligned below their size
// are still counted per field touched (struct_fields.cu). The last kernel reads 4 bytes of every 16 and draws
// an uncoalesced-access finding: the exit status is 1.
// RUN: not roofcheck-lint %s --grid 4 --block 256 --arg n=1024 | FileCheck %s

struct Triple {
  float a, b, c, d;
};

// x, y and z of each float4 are used, w is not: 16 bytes read per point, 16 written (the store writes a zero w).
__global__ void drop_fourth(float4 *points, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float4 p = points[i];
  points[i] = {p.x * scale, p.y * scale, p.z * scale, 0.f};
}

// Only the first double of each double2: still the whole 16 bytes.
__global__ void first_of_pair(double *out, const double2 *pairs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double2 q = pairs[i];
    out[i] = q.x;
  }
}

// A 16-byte struct aligned to 4 is no vector: its copy reads the two fields used, 8 of 16 bytes.
__global__ void plain_struct(float *out, const Triple *items, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Triple t = items[i];
    out[i] = t.a + t.c;
  }
}

// Fields read through the pointer, not copied: 4 bytes of each float4.
__global__ void field_only(float *out, const float4 *points, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = points[i].y;
}

// CHECK-LABEL: kernel drop_fourth
// CHECK: bytes.read 16 * min(n, blockDim.x * gridDim.x) = 16384{{$}}
// CHECK: bytes.write 16 * min(n, blockDim.x * gridDim.x) = 16384{{$}}
// CHECK-LABEL: kernel first_of_pair
// CHECK: bytes.read 16 * min(n, blockDim.x * gridDim.x) = 16384{{$}}
// CHECK-LABEL: kernel plain_struct
// CHECK: bytes.read 8 * min(n, blockDim.x * gridDim.x) = 8192{{$}}
// CHECK-LABEL: kernel field_only
// CHECK: bytes.read 4 * min(n, blockDim.x * gridDim.x) = 4096{{$}}
