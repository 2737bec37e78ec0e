// An array of structs counts the bytes of the fields the kernel touches, not the span between them, and a
// struct copied out and back around a loop of math calls writes only the fields that changed (nvcc's
// optimiser keeps the same stores). Both kernels draw findings (an all-pairs loop that relies on the cache,
// structs 32 bytes apart per thread): the exit status is 1.
// RUN: not roofcheck-lint %s --grid 8 --block 128 --arg n=4096 | FileCheck %s
//
// Body is 32 bytes: position (0..12), velocity (12..24), force (24..28), charge (28..32).

struct Body {
  float position[3];
  float velocity[3];
  float force;
  float charge;
};

// Every thread walks all n bodies for position and charge (16 of their 32 bytes); its own body, one of the
// first 8 * 128 = 1024, also gives its position (counted already) and force, and takes the new force.
// Read: 16 * 4096 + 4 * 1024 = 69632; written: 4 * 1024 = 4096.
__global__ void pairwise_force(Body *bodies, int n, float softening) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Body mine = bodies[i];
  float f = mine.force;
  for (int j = 0; j < n; ++j) {
    Body other = bodies[j];
    float dx = other.position[0] - mine.position[0];
    float dy = other.position[1] - mine.position[1];
    float dz = other.position[2] - mine.position[2];
    f += other.charge * rsqrtf(dx * dx + dy * dy + dz * dz + softening);
  }
  mine.force = f;
  bodies[i] = mine;
}

// Two fields 28 bytes apart of the first 1024 bodies: 8 bytes each, not the 32-byte span.
__global__ void two_fields(float *out, const Body *bodies, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = bodies[i].position[0] * bodies[i].charge;
}

// CHECK-LABEL: kernel pairwise_force
// CHECK: bytes.read 4 * min(n, blockDim.x * gridDim.x) + 16 * n = 69632{{$}}
// CHECK: bytes.write 4 * min(n, blockDim.x * gridDim.x) = 4096{{$}}
// CHECK-LABEL: kernel two_fields
// CHECK: bytes.read 8 * min(n, blockDim.x * gridDim.x) = 8192{{$}}
