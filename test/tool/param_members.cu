// Members of a struct passed by value are symbols of the formulas, named as the kernel reads them: a field,
// a nested struct's field, a base class's, a lambda's captured variable. --arg binds them as it binds
// parameters, and a pointer member names its accesses. every_other's stride, bound, draws a finding: exit 1.
// RUN: not roofcheck-lint %s --grid 16 --block 256 --arg shape.rows=64 --arg shape.cols=48 --arg view.count=3000 \
// RUN:   --arg view.step.stride=2 --arg n=1000 --arg cols.multiplier=1431655766 --arg cols.shift=2 \
// RUN:   --arg cols.divisor=3 | FileCheck %s
//
// A division done by multiplying high and shifting by two members of one struct (ggml's fastdiv, PyTorch's
// IntDivider) is written as a division by the struct's other member, and the estimate says it assumes so;
// values that do not divide that way (1431655765 is one short of 3's multiplier) leave every count that
// divides by it without a value (the others keep theirs) and a warning says why.
// RUN: roofcheck-lint %s --grid 16 --block 256 --arg n=1000 --arg cols.multiplier=1431655765 --arg cols.shift=2 \
// RUN:   --arg cols.divisor=3 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: roofcheck-lint %s --json %t.json > /dev/null
// RUN: %python %S/Inputs/show_static.py %t.json | FileCheck %s --check-prefix=JSON
// RUN: %python %srcroot/test/tools/validate-json.py %srcroot/docs/schemas/static.schema.json %t.json
#include <cstdint>

struct Extent {
  int rows;
  int cols;
};

// 64 * 48 = 3072 of the 4096 threads pass: 3072 floats read and written.
__global__ void scale(float *out, const float *in, Extent shape, float alpha) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < shape.rows * shape.cols)
    out[i] = alpha * in[i];
}

struct Counted {
  int count;
};
struct Step {
  int stride;
};
struct View : Counted {
  const float *data;
  Step step;
};

// Every other float up to the 3000th thread's: 3000 floats read, 12000 bytes, 8 bytes apart from one thread to
// the next (8 sectors a request where 4 would do). Unbound, a member that only places data is the caller's
// layout, as a stride argument is: no finding then (docs/rules/roofcheck-uncoalesced-access.md).
__global__ void every_other(float *out, View view) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < view.count)
    out[i] = view.data[i * view.step.stride];
}

template <typename F> __global__ void for_each_index(F f) { f(blockIdx.x * blockDim.x + threadIdx.x); }

void add_one(float *values, int count) {
  for_each_index<<<16, 256>>>([=] __device__(int i) {
    if (i < count)
      values[i] += 1.0f;
  });
}

struct Divider {
  uint32_t multiplier, shift, divisor;
};

__device__ __forceinline__ uint32_t divide(uint32_t n, Divider d) {
  return (__umulhi(n, d.multiplier) + n) >> d.shift;
}

// Element i of a rows x 3 table adds its row's entry and its column's: rows 0..333 and columns 0..2 of one
// array, 334 floats (the columns are among the rows), 1336 bytes.
__global__ void row_plus_column(float *out, const float *in, uint32_t n, Divider cols) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  uint32_t row = divide(i, cols);
  uint32_t col = i - row * cols.divisor;
  out[i] = in[row] + in[col];
}

// A broadcast add shaped as ggml's: z numbers (plane, slice) pairs, split by a multiply-high division (the
// plane's guard bounds z by planes * slices, the slice's holds for every z), an optional first input taken
// a row at a time (`a ? a + offset : nullptr`), and a stride loop over a row with an exit that keeps its index
// from wrapping. Launched as 1 x 4 x 16 blocks of 128 for rows of 100, 4 rows, 3 planes of 5 slices: 60
// rows of 100 written, 6000 FLOPs; a's rows read likewise and b's one row: 24000 + 400 bytes, 400 without a.
// RUN: roofcheck-lint %s --kernel broadcast_add --grid 1,4,16 --block 128 --arg width=100 --arg rows=4 --arg planes=3 \
// RUN:   --arg slices.divisor=5 --arg a_step=1 --arg slices.multiplier=2576980378 --arg slices.shift=3 --arg a=1 \
// RUN:   | FileCheck %s --check-prefix=BROADCAST
// RUN: roofcheck-lint %s --kernel broadcast_add --grid 1,4,16 --block 128 --arg width=100 --arg rows=4 --arg planes=3 \
// RUN:   --arg slices.divisor=5 --arg a_step=1 --arg slices.multiplier=2576980378 --arg slices.shift=3 --arg a=0 \
// RUN:   | FileCheck %s --check-prefix=WITHOUT-A
__global__ void broadcast_add(const float *a, const float *b, float *out, uint32_t width, uint32_t rows,
                              uint32_t planes, Divider slices, uint32_t a_step, uint32_t a_row, uint32_t a_plane,
                              uint32_t a_slice, uint32_t out_row, uint32_t out_plane, uint32_t out_slice) {
  const uint32_t first = blockDim.x * blockIdx.x + threadIdx.x;
  const uint32_t row = blockDim.y * blockIdx.y + threadIdx.y;
  const uint32_t z = blockDim.z * blockIdx.z + threadIdx.z;
  const uint32_t plane = divide(z, slices);
  const uint32_t slice = z - plane * slices.divisor;
  if (first >= width || row >= rows || plane >= planes || slice >= slices.divisor)
    return;
  const float *a_line = a ? a + (size_t(slice) * a_slice + size_t(plane) * a_plane + size_t(row) * a_row) : nullptr;
  float *out_line = out + size_t(slice) * out_slice + size_t(plane) * out_plane + size_t(row) * out_row;
  const uint32_t step = blockDim.x * gridDim.x;
  for (uint32_t i = first; i < width; i += step) {
    out_line[i] = (a_line ? a_line[size_t(i) * a_step] : 0.0f) + b[i];
    if (width - i <= step)
      break;
  }
}

// BROADCAST-LABEL: kernel broadcast_add
// BROADCAST: flops.total {{.*}} = 6000{{$}}
// BROADCAST: bytes.read 4 * a * {{.*}} = 24400{{$}}
// WITHOUT-A: bytes.read {{.*}} = 400{{$}}
// BROADCAST: bytes.write {{.*}} = 24000{{$}}
// BROADCAST: assumes: (umulhi(n, slices.multiplier) + n) >> slices.shift is n / slices.divisor
// BROADCAST-NOT: unknown:

// CHECK-LABEL: kernel scale
// CHECK: bytes.read 4 * min(shape.cols * shape.rows, blockDim.x * gridDim.x) = 12288{{$}}
// CHECK-LABEL: kernel every_other
// CHECK: bytes.read 4 * min(view.count, blockDim.x * gridDim.x) = 12000{{$}}
// CHECK: bytes.predicted min(4 * view.step.stride, 32) * min(view.count, blockDim.x * gridDim.x) + 4 * min(view.count, blockDim.x * gridDim.x) = 36000{{$}}
// CHECK: load view.data: stride 8 B, 8 sectors/request, uncoalesced
// CHECK-LABEL: kernel for_each_index<(lambda
// CHECK: bytes.write 4 * min(f.count, blockDim.x * gridDim.x){{$}}
// CHECK: load f.values: stride 4 B
// CHECK-LABEL: kernel row_plus_column
// CHECK: bytes.read 4 * max(ceil_div(min(n, blockDim.x * gridDim.x), cols.divisor), min(cols.divisor, min(n, blockDim.x * gridDim.x))) = 1336{{$}}
// CHECK: bytes.write 4 * min(n, blockDim.x * gridDim.x) = 4000{{$}}
// CHECK: param_members.cu:65:42: assumes: (umulhi(n, cols.multiplier) + n) >> cols.shift is n / cols.divisor
// CHECK-NOT: unknown:
// CHECK: warning: uncoalesced load from 'view.data'

// BROKEN: warning: {{.*}}param_members.cu:70: kernel 'row_plus_column': cols.multiplier = 1431655765 and cols.shift = 2 do not divide by cols.divisor = 3, so the counts that divide by it have no value for the given launch
// BROKEN-LABEL: kernel row_plus_column
// BROKEN: flops.total {{.*}}min(n, blockDim.x * gridDim.x) = 1000{{$}}
// BROKEN: bytes.read 4 * max(ceil_div(min(n, blockDim.x * gridDim.x), cols.divisor), min(cols.divisor, min(n, blockDim.x * gridDim.x))){{$}}
// BROKEN: bytes.write 4 * min(n, blockDim.x * gridDim.x) = 4000{{$}}

// Only the members a formula or a division names are in the document, each with its place in the argument;
// no finding without bindings.
// JSON-NOT: finding
// JSON-LABEL: kernel scale
// JSON: param shape fields shape.rows int @0+4, shape.cols int @4+4
// JSON-LABEL: kernel every_other
// JSON: param view fields view.count int @0+4, view.step.stride int @16+4
// JSON-LABEL: kernel row_plus_column
// JSON: param cols fields cols.multiplier unsigned int @0+4, cols.shift unsigned int @4+4, cols.divisor unsigned int @8+4
// JSON: division cols.multiplier cols.shift cols.divisor
