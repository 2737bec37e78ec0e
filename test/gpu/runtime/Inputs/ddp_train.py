# A small data-parallel training run for the two-rank test (run by torchrun, one process a GPU): a two-layer
# MLP under DistributedDataParallel, whose gradients NCCL all-reduces, five SGD steps on fixed random data.
# Rank 0 prints the mean final loss.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


def main():
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.cuda.set_device(rank)
    torch.manual_seed(0)
    layers = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10)).cuda()
    model = DistributedDataParallel(layers, device_ids=[rank])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.Generator(device="cuda").manual_seed(rank)
    x = torch.randn(64, 256, device="cuda", generator=data)
    y = torch.randint(0, 10, (64,), device="cuda", generator=data)
    for _ in range(5):
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
    dist.all_reduce(loss)
    if rank == 0:
        print(f"ddp ok world={world} loss={loss.item() / world:.4f}")
    dist.destroy_process_group()


main()
