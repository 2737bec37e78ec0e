"""The PyTorch program of bench/runtime-pytorch.sh: a matrix product (cuBLAS) and elementwise operations on
fixed-seed data, then its results printed in full precision, so a run under the shim can be compared byte
for byte with a run without it."""
import torch

torch.manual_seed(0)
a = torch.randn(2048, 2048, device="cuda", dtype=torch.float16)
b = torch.randn(2048, 2048, device="cuda", dtype=torch.float16)
x = torch.randn(1 << 24, device="cuda")
for step in range(3):
    c = a @ b                          # cuBLAS GEMM on the tensor cores
    y = torch.relu(x) * 0.5 + step     # elementwise kernels
    x = torch.sin(y) + x
torch.cuda.synchronize()
print("c[0, :4]", [f"{v:.6e}" for v in c[0, :4].float().tolist()])
print("c checksum", f"{c.float().abs().sum().item():.9e}")
print("x[:4]", [f"{v:.9e}" for v in x[:4].tolist()])
print("x checksum", f"{x.abs().sum().item():.9e}")
