// A parameter block of 88 bytes passed by value, as CUTLASS's Params: the sizes and pointers are members.
struct GemvParams {
  const float *matrix;
  const float *vector;
  float *result;
  int rows;
  int cols;
  float alpha;
  float beta;
  long long reserved[6];
};

// result = alpha * matrix x vector + beta * result, a row a thread.
__global__ void gemv_rows(GemvParams p) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= p.rows)
    return;
  float sum = 0.0f;
  for (int c = 0; c < p.cols; ++c)
    sum += p.matrix[row * p.cols + c] * p.vector[c];
  p.result[row] = p.alpha * sum + p.beta * p.result[row];
}
