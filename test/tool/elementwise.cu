// Elementwise vector add: one thread per element, guarded by i < n.
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1000 | FileCheck %s
// RUN: roofcheck-lint %s | FileCheck %s --check-prefix=SYMBOLIC
//
// By hand: the threads that pass `i < n` are min(n, gridDim.x*blockDim.x) = min(1000, 4*256) = 1000
// (y and z launch dimensions are 1). One fp32 add each: flops.total = fp32 = 1000, special = 0.
// a and b: 4 B each over 1000 elements -> read = 8000; c -> write = 4000; ideal = 12000.
// Neighbouring threads are 4 B apart = the element size: coalesced, 4 sectors per warp request, so
// predicted = ideal = 12000. Intensity = 1000 / 12000 = 0.0833333.
__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

// CHECK-LABEL: elementwise.cu:10: kernel vadd (_Z4vaddPKfS0_Pfi)
// CHECK-NEXT: flops.total {{.*}} = 1000{{$}}
// CHECK-NEXT: flops.fp64 0{{$}}
// CHECK-NEXT: flops.fp32 {{.*}} = 1000{{$}}
// CHECK-NEXT: flops.fp16 0{{$}}
// CHECK-NEXT: flops.bf16 0{{$}}
// CHECK-NEXT: flops.tensor 0{{$}}
// CHECK-NEXT: flops.special 0{{$}}
// CHECK-NEXT: bytes.read 8 * min(n, blockDim.x * gridDim.x) = 8000{{$}}
// CHECK-NEXT: bytes.write 4 * min(n, blockDim.x * gridDim.x) = 4000{{$}}
// CHECK-NEXT: bytes.ideal 12 * min(n, blockDim.x * gridDim.x) = 12000{{$}}
// CHECK-NEXT: bytes.predicted 12 * min(n, blockDim.x * gridDim.x) = 12000{{$}}
// CHECK-NEXT: intensity.ideal {{.*}} = 0.0833333{{$}}
// CHECK-NEXT: intensity.predicted {{.*}} = 0.0833333{{$}}
// CHECK-DAG: elementwise.cu:13:12: load a: stride 4 B, 4 sectors/request, coalesced
// CHECK-DAG: elementwise.cu:13:19: load b: stride 4 B, 4 sectors/request, coalesced
// CHECK-DAG: elementwise.cu:13:10: store c: stride 4 B, 4 sectors/request, coalesced
// CHECK-NOT: unknown:

// Unbound, every quantity keeps its expression (the y/z launch dimensions multiply the thread count) and
// no value is printed.
// SYMBOLIC: flops.total blockDim.y * blockDim.z * gridDim.y * gridDim.z * min(n, blockDim.x * gridDim.x){{$}}
// SYMBOLIC: bytes.read 8 * min(n, blockDim.x * gridDim.x){{$}}
// The launch's size cancels from the FLOPs per byte: what is left is the y/z launch dimensions, whose
// threads repeat the same elements' work.
// SYMBOLIC: intensity.ideal 1.0 * blockDim.y * blockDim.z * gridDim.y * gridDim.z / 12{{$}}
