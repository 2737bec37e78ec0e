// Launches ggml's quantized matrix-vector product (mul_mat_vec_q, src/ggml-cuda/mmvq.cu), as ggml launches it
// for one token on an NVIDIA GPU (the generic parameter table: 32 x 4 threads, one row a block), for the
// static estimate of that kernel to be checked against Nsight Compute on code we did not write. Built against
// a ggml checkout with the corpus's flags (bench/conformance/corpus.json), which only this file's includes
// reach: nothing of ggml is kept here.
//
//   nvcc <ggml flags> -I$GGML/src/ggml-cuda ggml-mmvq.cu -Xlinker --unresolved-symbols=ignore-all
//
// (mmvq.cu's own host entry points call into ggml's other files; none of them runs here.)
// usage: ggml-mmvq ROWS COLS...   one Q4_0 and one Q8_0 product of a ROWS x COLS matrix for each COLS, then
// Q4_0's fused variant (ggml's gate-up product of a feed-forward layer): with a gate matrix and SWIGLU, with a
// gate, GEGLU and both biases, and with nothing fused (the fused kernel's tests of the optional inputs)
#include "mmvq.cu"

#include <cstdio>
#include <cstdlib>
#include <optional>

/// What the fused variant is given: nothing, a gate with its GLU, biases too.
enum class Fused { None, Gate, GateAndBiases };

template <ggml_type type, typename Block>
static bool product(int rows, int cols, std::optional<Fused> fused = std::nullopt,
                    ggml_glu_op glu = GGML_GLU_OP_SWIGLU) {
  constexpr int qk = ggml_cuda_type_traits<type>::qk;
  if (cols % qk != 0) {
    std::fprintf(stderr, "ggml-mmvq: COLS must be a multiple of %d\n", qk);
    return false;
  }
  const int blocksPerRow = cols / qk;
  const int nwarps = calc_nwarps(type, 1, MMVQ_PARAMETERS_GENERIC);
  const int rowsPerBlock = calc_rows_per_block(1, MMVQ_PARAMETERS_GENERIC, false, nwarps);
  void *matrix = nullptr, *gate = nullptr, *vector = nullptr;
  float *result = nullptr, *biases = nullptr;
  size_t matrixBytes = size_t(rows) * blocksPerRow * sizeof(Block), vectorBytes = size_t(cols / QK8_1) * sizeof(block_q8_1);
  if (cudaMalloc(&matrix, matrixBytes) != cudaSuccess || cudaMalloc(&gate, matrixBytes) != cudaSuccess ||
      cudaMalloc(&vector, vectorBytes) != cudaSuccess || cudaMalloc(&result, rows * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&biases, 2 * rows * sizeof(float)) != cudaSuccess)
    return false;
  cudaMemset(matrix, 0, matrixBytes);
  cudaMemset(gate, 0, matrixBytes);
  cudaMemset(vector, 0, vectorBytes);
  cudaMemset(biases, 0, 2 * rows * sizeof(float));
  const uint3 one = init_fastdiv_values(1);
  dim3 grid((rows + rowsPerBlock - 1) / rowsPerBlock), block(32, nwarps);
  ggml_cuda_mm_fusion_args_device fusion{};
  fusion.glu_op = glu;
  if (fused && *fused != Fused::None)
    fusion.gate = gate;
  if (fused == Fused::GateAndBiases) {
    fusion.x_bias = biases;
    fusion.gate_bias = biases + rows;
  }
  if (fused)
    mul_mat_vec_q<type, 1, true><<<grid, block>>>(matrix, vector, nullptr, fusion, result, cols, make_uint3(0, 0, 0),
                                                   blocksPerRow, cols / QK8_1, rows, one, 0, 0, 0, one, 0, 0, 0, 0);
  else
    mul_mat_vec_q<type, 1, false><<<grid, block>>>(matrix, vector, nullptr, fusion, result, cols, make_uint3(0, 0, 0),
                                                    blocksPerRow, cols / QK8_1, rows, one, 0, 0, 0, one, 0, 0, 0, 0);
  bool ok = cudaDeviceSynchronize() == cudaSuccess;
  const char *fusedText = !fused ? "" : *fused == Fused::None ? " fused, nothing given" :
                          *fused == Fused::Gate ? " fused, gate" : " fused, gate and biases";
  std::printf("%s rows %d cols %d grid %u block %u x %u%s glu %d: %s\n", type == GGML_TYPE_Q4_0 ? "q4_0" : "q8_0",
              rows, cols, grid.x, block.x, block.y, fusedText, int(glu),
              ok ? "ok" : cudaGetErrorString(cudaGetLastError()));
  for (void *p : {matrix, gate, vector, static_cast<void *>(result), static_cast<void *>(biases)})
    cudaFree(p);
  return ok;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: ggml-mmvq ROWS COLS...\n");
    return 2;
  }
  int rows = std::atoi(argv[1]);
  for (int i = 2; i < argc; ++i) {
    int cols = std::atoi(argv[i]);
    if (!product<GGML_TYPE_Q4_0, block_q4_0>(rows, cols) || !product<GGML_TYPE_Q8_0, block_q8_0>(rows, cols) ||
        !product<GGML_TYPE_Q4_0, block_q4_0>(rows, cols, Fused::Gate, GGML_GLU_OP_SWIGLU) ||
        !product<GGML_TYPE_Q4_0, block_q4_0>(rows, cols, Fused::GateAndBiases, GGML_GLU_OP_GEGLU) ||
        !product<GGML_TYPE_Q4_0, block_q4_0>(rows, cols, Fused::None))
      return 1;
  }
  return 0;
}
