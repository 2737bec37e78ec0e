// Quantities that have no value: a kernel that moves no global memory has no FLOP per byte (null, not a
// 0 / 0 formula, and no unknown: nothing was beyond the analysis), and a launch under which a bound formula cannot be evaluated gets a
// warning that names the quantity and the reason, not a silently missing value.
// RUN: roofcheck-lint %s --verbose 2>&1 | FileCheck %s --check-prefix=NOBYTES
// RUN: roofcheck-lint %s --grid 1 --block 32 --arg n=1 2> %t.err | FileCheck %s --check-prefix=VALUES
// RUN: FileCheck %s --check-prefix=WARN --input-file %t.err
// RUN: roofcheck-lint %s --kernel every_kth --grid 4 --block 256 --arg n=1000 --arg k=0 2> %t.stride.err > /dev/null
// RUN: FileCheck %s --check-prefix=STRIDE --input-file %t.stride.err
// RUN: roofcheck-lint %s --kernel every_kth --grid 4 --block 256 --arg n=0 --arg k=1 2> %t.empty.err > /dev/null
// RUN: FileCheck %s --check-prefix=EMPTY --input-file %t.empty.err

__global__ void count_in_registers(float x, int n) {
  float y = x;
  for (int i = 0; i < n; ++i)
    y = y * x + 1.0f;
}

// n = 1: no thread passes i < n - 1 (i starts at 1). The count min(n - 2, threads) is -1 there: the
// formula holds from n = 2 on, and the warning says why this launch has no value.
__global__ void interior(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (i < n - 1)
    out[i] = in[i - 1] + in[i + 1];
}

// k = 0: the stride n / k has no value; the warning names the access. n = 0: no thread passes the guard,
// and the launch has no FLOP per byte, although the intensity's formula (0 FLOPs a byte, the launch's size
// cancelled) has a value.
__global__ void every_kth(const float *in, float *out, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i * (n / k)];
}

// NOBYTES-LABEL: kernel count_in_registers
// NOBYTES: bytes.ideal 0{{$}}
// NOBYTES: intensity.ideal unknown
// NOBYTES: intensity.predicted unknown
// NOBYTES-NOT: unknown:

// VALUES-LABEL: kernel interior
// VALUES: flops.total blockDim.y * blockDim.z * gridDim.y * gridDim.z * min(n - 2, blockDim.x * gridDim.x){{$}}
// WARN: roofcheck-lint: warning: kernel 'interior': flops.total = {{.*}} has no value for the given launch: negative (-1)
// WARN: roofcheck-lint: warning: kernel 'interior': intensity.ideal = {{.*}} has no value for the given launch: division by zero
// STRIDE: roofcheck-lint: warning: kernel 'every_kth': bytes.predicted = {{.*}} has no value for the given launch: division by zero: 1000 / 0
// STRIDE: roofcheck-lint: warning: {{.*}}launch_without_value.cu:{{[0-9]+}}:{{[0-9]+}}: kernel 'every_kth': the stride of 'in' (4 * (n / k)) has no value for the given launch: division by zero: 1000 / 0
// EMPTY: roofcheck-lint: warning: kernel 'every_kth': intensity.ideal = 0 has no value for the given launch: it moves no bytes
