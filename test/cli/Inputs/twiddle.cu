// A value rotated by an angle: (x, y) times (cos a, sin a).
__global__ void rotate(float2 *v, const float *angle) {
  int i = threadIdx.x;
  float c = cosf(angle[i]), s = sinf(angle[i]);
  float2 p = v[i];
  v[i] = make_float2(p.x * c - p.y * s, p.x * s + p.y * c);
}
