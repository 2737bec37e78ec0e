# Finds what each enabled part needs. A missing dependency stops configure with one line that
# names the package to install or the option to switch off.

function(roofcheck_missing what fix)
  message(FATAL_ERROR "roofcheck: ${what} not found: ${fix}")
endfunction()

find_package(nlohmann_json 3.10 CONFIG QUIET)
if(NOT nlohmann_json_FOUND)
  roofcheck_missing("nlohmann_json" "install it (Debian: apt-get install nlohmann-json3-dev)")
endif()

if(ROOFCHECK_WITH_CLANG)
  # LLVMConfigVersion.cmake accepts only an exact major.minor, so ask for none and check the major.
  find_package(LLVM CONFIG QUIET HINTS /usr/lib/llvm-22/lib/cmake/llvm)
  if(NOT LLVM_FOUND OR NOT LLVM_VERSION_MAJOR EQUAL 22)
    roofcheck_missing("LLVM 22"
      "install it (Debian: apt-get install llvm-22-dev llvm-22-tools) or configure with -DROOFCHECK_WITH_CLANG=OFF")
  endif()
  find_package(Clang CONFIG QUIET HINTS ${LLVM_DIR}/../clang /usr/lib/llvm-22/lib/cmake/clang)
  if(NOT Clang_FOUND)
    roofcheck_missing("Clang 22"
      "install it (Debian: apt-get install libclang-22-dev libclang-cpp22-dev clang-22) or configure with -DROOFCHECK_WITH_CLANG=OFF")
  endif()
  message(STATUS "roofcheck: LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR}")
endif()

if(ROOFCHECK_WITH_CUDA)
  find_package(CUDAToolkit 13 QUIET)
  if(NOT CUDAToolkit_FOUND)
    roofcheck_missing("CUDA toolkit 13"
      "install it from https://developer.nvidia.com/cuda-downloads (or set CUDAToolkit_ROOT) or configure with -DROOFCHECK_WITH_CUDA=OFF")
  endif()
  if(NOT TARGET CUDA::cupti)
    roofcheck_missing("CUPTI" "install the CUDA toolkit's CUPTI component or configure with -DROOFCHECK_WITH_CUDA=OFF")
  endif()
  # FindCUDAToolkit only knows nvperf from CMake 3.27 on.
  if(NOT TARGET CUDA::nvperf_host)
    find_library(ROOFCHECK_NVPERF_HOST nvperf_host
                 HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/lib64)
    find_library(ROOFCHECK_NVPERF_TARGET nvperf_target
                 HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/lib64)
    if(NOT ROOFCHECK_NVPERF_HOST OR NOT ROOFCHECK_NVPERF_TARGET)
      roofcheck_missing("nvperf (libnvperf_host/libnvperf_target)"
        "install the CUDA toolkit's CUPTI component or configure with -DROOFCHECK_WITH_CUDA=OFF")
    endif()
    add_library(CUDA::nvperf_host UNKNOWN IMPORTED)
    set_target_properties(CUDA::nvperf_host PROPERTIES IMPORTED_LOCATION ${ROOFCHECK_NVPERF_HOST})
    add_library(CUDA::nvperf_target UNKNOWN IMPORTED)
    set_target_properties(CUDA::nvperf_target PROPERTIES IMPORTED_LOCATION ${ROOFCHECK_NVPERF_TARGET})
  endif()
  # CMake 3.25 knows no CUDA20 flags for nvcc 13; device code is C++17.
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
  if(NOT CMAKE_CUDA_COMPILER)
    set(CMAKE_CUDA_COMPILER ${CUDAToolkit_NVCC_EXECUTABLE})
  endif()
  enable_language(CUDA)
  message(STATUS "roofcheck: CUDA ${CUDAToolkit_VERSION} at ${CUDAToolkit_BIN_DIR}")
endif()

if(ROOFCHECK_BUILD_TESTS)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    roofcheck_missing("GoogleTest" "install it (Debian: apt-get install libgtest-dev) or configure with -DROOFCHECK_BUILD_TESTS=OFF")
  endif()
  find_program(ROOFCHECK_LIT NAMES lit llvm-lit HINTS /usr/lib/llvm-22/bin)
  find_program(ROOFCHECK_FILECHECK NAMES FileCheck HINTS /usr/lib/llvm-22/bin)
  if(NOT ROOFCHECK_LIT OR NOT ROOFCHECK_FILECHECK)
    roofcheck_missing("lit and FileCheck"
      "install them (Debian: apt-get install llvm-22-tools) or configure with -DROOFCHECK_BUILD_TESTS=OFF")
  endif()
endif()
