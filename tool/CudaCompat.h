// The header the front end includes before every file: what nvcc declares for device code and clang's CUDA
// headers lack, so that code nvcc accepts compiles (CUDA 13's removed cudaConfigureCall, which clang looks
// up for <<<...>>>; the cache-hinted loads and stores clang does not declare; nvcc's version macros).
#pragma once

namespace roofcheck::lint {

/// Where the header is found: a path of the in-memory file system the compiler reads, never on disk.
extern const char *const CudaCompatHeaderPath;
extern const char *const CudaCompatHeader;

} // namespace roofcheck::lint
