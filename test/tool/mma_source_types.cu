// Tensor-core MMAs written as inline PTX: their FLOPs go to `tensor` and, in the JSON, to
// flops.tensor_by_type under the A/B input type, named as the measured side names it (MeasuredFlops.h).
// An MMA whose input type has no such name is counted in `tensor` under no type, and said as an unknown.
// RUN: roofcheck-lint %s --grid 4 --block 128 --arg k=8 | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: roofcheck-lint %s --grid 4 --block 128 --arg k=8 --json %t/static.json > /dev/null
// RUN: %python -c "import json,sys; [print(k['name'], t, q['value']) for k in json.load(open(sys.argv[1]))['kernels'] for t, q in sorted(k['flops'].get('tensor_by_type', {}).items())]" %t/static.json | FileCheck %s --check-prefix=TYPES

// One m16n8k16 bf16 MMA a warp a trip: 2 * 16 * 8 * 16 = 4096 FLOPs. 512 threads are 16 warps, 8 trips:
// 16 * 8 * 4096 = 524288.
__global__ void mma_bf16(const unsigned *a, const unsigned *b, float *c, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  for (int t = 0; t < k; ++t)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "r"(a[4 * i]), "r"(a[4 * i + 1]), "r"(a[4 * i + 2]), "r"(a[4 * i + 3]), "r"(b[2 * i]),
                   "r"(b[2 * i + 1]));
  c[i] = d0 + d1 + d2 + d3;
}

// One m64n128k16 wgmma of a warpgroup (128 threads): 2 * 64 * 128 * 16 = 262144 FLOPs, 4 warpgroups:
// 1048576. The accumulator is f32, the inputs f16.
__global__ void wgmma_f16(unsigned long long da, unsigned long long db, float *c) {
  float d = 0;
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0}, %1, %2, 1, 1, 1, 0, 0;"
               : "+f"(d)
               : "l"(da), "l"(db));
  c[blockIdx.x * blockDim.x + threadIdx.x] = d;
}

// tf32 inputs: m16n8k8 is 2048 FLOPs a warp, 16 warps: 32768.
__global__ void mma_tf32(const unsigned *a, float *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
               "{%0,%1,%2,%3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "r"(a[i]), "r"(a[i]), "r"(a[i]), "r"(a[i]), "r"(a[i]), "r"(a[i]));
  c[i] = d0 + d1 + d2 + d3;
}

// 4-bit integer inputs have no measured type: m8n8k32 is 4096 FLOPs a warp, 16 warps: 65536 in `tensor`,
// none by type.
__global__ void mma_s4(const unsigned *a, int *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int d0 = 0, d1 = 0;
  asm volatile("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 {%0,%1}, {%2}, {%3}, {%0,%1};"
               : "+r"(d0), "+r"(d1)
               : "r"(a[i]), "r"(a[i]));
  c[i] = d0 + d1;
}

// CHECK-LABEL: kernel mma_bf16
// CHECK: flops.tensor {{.*}} = 524288{{$}}
// CHECK-NOT: unknown:
// CHECK-LABEL: kernel wgmma_f16
// CHECK: flops.tensor {{.*}} = 1048576{{$}}
// CHECK-NOT: unknown:
// CHECK-LABEL: kernel mma_tf32
// CHECK: flops.tensor {{.*}} = 32768{{$}}
// CHECK-NOT: unknown:
// CHECK-LABEL: kernel mma_s4
// CHECK: flops.tensor {{.*}} = 65536{{$}}
// CHECK: unknown: tensor-core operation whose source type it cannot tell (mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32)

// TYPES: mma_bf16 bf16 524288.0
// TYPES-NEXT: wgmma_f16 fp16 1048576.0
// TYPES-NEXT: mma_tf32 tf32 32768.0
// TYPES-NOT: mma_s4
