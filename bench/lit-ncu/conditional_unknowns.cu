// Launches the kernels of test/tool/conditional_unknowns.cu on each side of their tests of parameters, for
// Nsight Compute, at sizes past the L2 (64 MiB an array): pickRows with no table and with one that sends every
// row to row 0, scatterRows with stride 0 and with rows from a table, gatherAdd with no table and with one.
// Where the table is null the static bytes are known (`known_when`); where it is given they are not, and the
// DRAM bytes show why: they follow the table's contents.
#include "../../test/tool/conditional_unknowns.cu"

#include <vector>

int main() {
  constexpr int Rows = 4096, Cols = 4096, N = Rows * Cols, Block = 256;
  float *dst, *x;
  int *table;
  long long *rows;
  cudaMalloc(&dst, sizeof(float) * N);
  cudaMalloc(&x, sizeof(float) * N);
  cudaMalloc(&table, sizeof(int) * N);
  cudaMalloc(&rows, sizeof(long long) * N / Block);
  cudaMemset(x, 0, sizeof(float) * N);
  cudaMemset(table, 0, sizeof(int) * N); // every entry 0: every row, every element read from the first
  std::vector<long long> blockRows(N / Block);
  for (size_t b = 0; b < blockRows.size(); ++b)
    blockRows[b] = static_cast<long long>(b);
  cudaMemcpy(rows, blockRows.data(), sizeof(long long) * blockRows.size(), cudaMemcpyHostToDevice);
  pickRows<<<Rows, Block>>>(dst, x, nullptr, Cols);
  pickRows<<<Rows, Block>>>(dst, x, table, Cols);
  scatterRows<<<N / Block, Block>>>(dst, x, rows, 0, N);
  scatterRows<<<N / Block, Block>>>(dst, x, rows, Block, N);
  gatherAdd<<<N / Block, Block>>>(dst, x, nullptr, N);
  gatherAdd<<<N / Block, Block>>>(dst, x, table, N);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
