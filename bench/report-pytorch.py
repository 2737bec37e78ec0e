"""A small PyTorch training loop for the report's real-program test data (bench/report-pytorch.sh): an MLP
under bf16 autocast with AdamW, so that the measured file holds what a real run launches (cuBLAS GEMMs,
vectorized_elementwise_kernel and multi_tensor_apply_kernel instantiations with long template names)."""
import sys

import torch

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 4
torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Linear(1024, 4096), torch.nn.GELU(), torch.nn.Linear(4096, 1024), torch.nn.LayerNorm(1024),
    torch.nn.Linear(1024, 4096), torch.nn.GELU(), torch.nn.Linear(4096, 1024),
).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
x = torch.randn(4096, 1024, device="cuda")
target = torch.randn(4096, 1024, device="cuda")
for step in range(steps):
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = torch.nn.functional.mse_loss(model(x).float(), target)
    loss.backward()
    optimizer.step()
torch.cuda.synchronize()
print("loss", f"{loss.item():.6e}")
