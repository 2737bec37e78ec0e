// Pointers are followed back to the kernel parameter they come from; each parameter's footprint is
// counted on its own (two parameters that alias at run time are counted twice: the source cannot say).
// A pointer chosen at run time between two parameters cannot be followed: unknown, bytes null.
// RUN: roofcheck-lint --verbose %s --grid 4 --block 256 --arg n=1000 | FileCheck %s
//
// in_place: x read and written, y read: read = 4000 + 4000 = 8000, write = 4000, fp32 = 1000.
__global__ void in_place(float *x, const float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] + y[i];
}

// offset_view: p = x + 16 is still x; the 1000 floats read start 16 elements in: read 4000.
__global__ void offset_view(const float *x, float *out, int n) {
  const float *p = x + 16;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = p[i];
}

// either: the store goes to a or b depending on a run-time flag: write unknown.
__global__ void either(float *a, float *b, int flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = flag ? a : b;
  if (i < n)
    p[i] = 1.0f;
}

// CHECK-LABEL: kernel in_place
// CHECK: bytes.read {{.*}} = 8000{{$}}
// CHECK: bytes.write {{.*}} = 4000{{$}}
// CHECK-LABEL: kernel offset_view
// CHECK: bytes.read {{.*}} = 4000{{$}}
// CHECK-LABEL: kernel either
// CHECK: bytes.write unknown
// CHECK: unknown: pointer it cannot follow (store)
// CHECK: pointer_aliasing.cu:26:10: note: kernel 'either': pointer it cannot follow (store) [unknown: analysis]
