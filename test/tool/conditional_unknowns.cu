// Bytes that something uncounted brings in on one side of a test of the kernel's parameters alone are unknown
// on that side only: the count of the other side holds where the test fails (`where` after the formula,
// `known_when` in the JSON), and the unknown names the test (`only where`, `when`). A table given or null, a
// stride argument zero or not: the launch decides which side runs. 8 blocks of 128 threads.
// RUN: roofcheck-lint %s --grid 8 --block 128 --arg cols=1000 --arg n=1000 --arg table=0 --arg stride=0 \
// RUN:   --arg size=64 --arg systems=1000 --arg interleaved=0 | FileCheck %s --check-prefixes=CHECK,NULL
// RUN: roofcheck-lint %s --grid 8 --block 128 --arg cols=1000 --arg n=1000 --arg table=1 --arg stride=2048 \
// RUN:   --arg size=64 --arg systems=1000 --arg interleaved=1 | FileCheck %s --check-prefixes=CHECK,GIVEN
// RUN: roofcheck-lint %s --kernel pickRows --json %t.json > /dev/null
// RUN: %python %S/Inputs/show_static.py %t.json | FileCheck %s --check-prefix=JSON

// The row read through the table where one is given, the block's own row where not (a mixture-of-experts
// product picking its expert's weights, `ids ? ids[c] : c`): a phi that the test decides.
__global__ void pickRows(float *dst, const float *x, const int *table, int cols) {
  int row = blockIdx.x;
  int source = table ? table[row] : row;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    dst[row * cols + c] = x[source * cols + c];
}

// A destination index replaced where a stride argument is not zero (a rotation writing into a cache at rows
// that a table names): the write is unknown there, the reads are known everywhere.
__global__ void scatterRows(float *dst, const float *x, const long long *rows, int stride, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int out = i;
  if (stride != 0)
    out = static_cast<int>(rows[blockIdx.x]) * stride + threadIdx.x;
  dst[out] = 2.0f * x[i];
}

// A read through the table in a block under `if (table)`: unknown where the table is given.
__global__ void gatherAdd(float *dst, const float *x, const int *table, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  if (table)
    v += x[table[i]];
  dst[i] = v;
}

// A choice that the data makes is no test of parameters: the read through the table is unknown for every
// launch.
__global__ void dataChoice(float *dst, const float *x, const int *table, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int source = x[i] > 0.0f ? table[i] : i;
  dst[i] = x[source];
}

// Two choices by one test, the start and the step of each thread's walk (a solver's systems stored interleaved
// or one after another): counted on the two sides the test has, never on the two that mix them.
__global__ void walkSystems(float *out, const float *in, int size, int systems, bool interleaved) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= systems)
    return;
  int step = interleaved ? systems : 1;
  int at = interleaved ? i : i * size;
  for (int k = 0; k < size; ++k) {
    out[at] = 2.0f * in[at];
    at += step;
  }
}

// Null table: x's 1,000 columns of each of the 8 rows, 32,000 bytes each way; a given table adds its 8
// entries to the reads, whose rows of x it decides: no value then.
// CHECK-LABEL: kernel pickRows
// NULL:        bytes.read 4 * {{.*}} where 1 - table = 32000{{$}}
// GIVEN:       bytes.read 4 * {{.*}} where 1 - table{{$}}
// CHECK:       bytes.write 4 * cols * gridDim.x = 32000{{$}}
// NULL:        bytes.ideal {{.*}} where 1 - table = 64000{{$}}
// GIVEN:       bytes.ideal {{.*}} where 1 - table{{$}}
// CHECK:       unknown: indirect index (depends on a value loaded from memory), only where table{{$}}
// CHECK-NOT:   unknown:

// The reads everywhere (x, and the rows where the stride is not zero); the writes where it is zero.
// CHECK-LABEL: kernel scatterRows
// NULL:        bytes.read {{[^w]*}} = 4000{{$}}
// GIVEN:       bytes.read {{[^w]*}} = 4064{{$}}
// NULL:        bytes.write 4 * {{.*}} where eq(stride, 0) = 4000{{$}}
// GIVEN:       bytes.write 4 * {{.*}} where eq(stride, 0){{$}}
// CHECK:       unknown: indirect index (depends on a value loaded from memory), only where ne(stride, 0){{$}}
// CHECK-NOT:   unknown:

// CHECK-LABEL: kernel gatherAdd
// NULL:        bytes.read {{.*}} where 1 - table = 4000{{$}}
// GIVEN:       bytes.read {{.*}} where 1 - table{{$}}
// CHECK:       bytes.write {{[^w]*}} = 4000{{$}}
// CHECK:       unknown: indirect index (depends on a value loaded from memory), only where table{{$}}
// CHECK-NOT:   unknown:

// CHECK-LABEL: kernel dataChoice
// CHECK:       bytes.read unknown
// CHECK:       bytes.write {{[^w]*}} = 4000{{$}}
// CHECK:       unknown: index it cannot follow (phi){{$}}

// 64 floats of each of the 1,000 systems read and written, interleaved or not.
// CHECK-LABEL: kernel walkSystems
// CHECK:       bytes.read {{[^w]*}} = 256000{{$}}
// CHECK:       bytes.write {{[^w]*}} = 256000{{$}}
// CHECK-NOT:   unknown:

// JSON: bytes.read 4 * cols * gridDim.x - 4 * cols * gridDim.x * table + 4 * gridDim.x * table known_when 1 - table = None
// JSON: unknown indirect index (depends on a value loaded from memory) {{.*}}conditional_unknowns.cu {{[0-9]+}} when table{{$}}
