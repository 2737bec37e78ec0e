// Tensor-core MMAs through nvcuda::wmma: clang lowers mma_sync to llvm.nvvm.wmma.*.mma.* intrinsics, whose
// names spell the input type except for half inputs (llvm.nvvm.wmma.m16n16k16.mma.row.col.f32.f32 names the
// accumulator types only). flops.tensor_by_type names the input type as the measured side does.
// RUN: roofcheck-lint %s --grid 2 --block 64 --arg tiles=4 | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: roofcheck-lint %s --grid 2 --block 64 --arg tiles=4 --json %t/static.json > /dev/null
// RUN: %python -c "import json,sys; [print(k['name'], t, q['expr'], q['value']) for k in json.load(open(sys.argv[1]))['kernels'] for t, q in sorted(k['flops'].get('tensor_by_type', {}).items())]" %t/static.json | FileCheck %s --check-prefix=TYPES
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

// A 16x16x16 MMA of `In` inputs into float, `tiles` times a warp: 2 * 16 * 16 * 16 = 8192 FLOPs each. 128
// threads are 4 warps: 4 * 4 * 8192 = 131072.
template <typename In> __global__ void wmma_tiles(const In *a, const In *b, float *c, int tiles) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, In, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, In, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  for (int t = 0; t < tiles; ++t) {
    wmma::load_matrix_sync(fa, a + 256 * t, 16);
    wmma::load_matrix_sync(fb, b + 256 * t, 16);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c + 256 * warp, acc, 16, wmma::mem_row_major);
}

template __global__ void wmma_tiles<half>(const half *, const half *, float *, int);
template __global__ void wmma_tiles<__nv_bfloat16>(const __nv_bfloat16 *, const __nv_bfloat16 *, float *, int);

// CHECK-LABEL: kernel wmma_tiles<__half>
// CHECK: flops.tensor {{.*}} = 131072{{$}}
// CHECK-NOT: unknown: tensor-core
// CHECK-LABEL: kernel wmma_tiles<__nv_bfloat16>
// CHECK: flops.tensor {{.*}} = 131072{{$}}
// CHECK-NOT: unknown: tensor-core

// TYPES: wmma_tiles<__half> fp16 {{.*}} 131072.0
// TYPES-NEXT: wmma_tiles<__nv_bfloat16> bf16 {{.*}} 131072.0
