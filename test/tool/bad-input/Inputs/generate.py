"""Writes a CUDA source of a pathological shape to stdout.

usage: generate.py kernels N        N elementwise kernels, k0 ... k{N-1}, kernel i multiplying by i + 2
       generate.py nested-loops D   one kernel with D perfectly nested loops, each of n trips, around one add
"""
import sys

shape, size = sys.argv[1], int(sys.argv[2])
if shape == "kernels":
    for i in range(size):
        print(f"__global__ void k{i}(const float *in, float *out, int n) {{\n"
              f"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              f"  if (i < n)\n"
              f"    out[i] = in[i] * {i + 2}.0f;\n"
              f"}}")
elif shape == "nested-loops":
    print("__global__ void nested(float *out, int n) {")
    print("  float sum = 0.0f;")
    for d in range(size):
        print("  " * (d + 1) + f"for (int i{d} = 0; i{d} < n; ++i{d})")
    print("  " * (size + 1) + "sum += 1.0f;")
    print("  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;")
    print("}")
else:
    sys.exit(f"generate.py: unknown shape {shape}")
