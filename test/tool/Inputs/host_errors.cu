// Host code that clang rejects (an undeclared function, as from a host-only header nvcc would see),
// one kernel that is fine and one kernel whose own body does not compile.
#include <vector>
__global__ void fine(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}
__global__ void broken(float *x) { x[0] = undeclared_device_value; }
void host_only(std::vector<float> &v) { v.push_back(helper_from_a_host_only_header(v)); }
