// A library-style helper for unknown_origins.cu: the trips of its loop are read from memory.
#pragma once

__device__ inline float csrRowSum(const int *offsets, const float *values, int row) {
  float sum = 0.0f;
  for (int k = offsets[row]; k < offsets[row + 1]; ++k)
    sum += values[k];
  return sum;
}
