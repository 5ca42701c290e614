# Finds everything pkb links. scripts/setup.sh installs the Debian packages named in the messages.
find_package(Threads REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(CLI11 REQUIRED)
# On machines without Debian's compiled spdlog (the GPU machine, fed by scripts/gpu-deps.sh), spdlog
# and fmt are used header-only from a carried include folder.
set(PKB_HEADER_ONLY_SPDLOG "" CACHE PATH "Include folder holding spdlog/ and fmt/ headers, used header-only")
if(PKB_HEADER_ONLY_SPDLOG)
  add_library(pkb_spdlog_headers INTERFACE)
  target_include_directories(pkb_spdlog_headers SYSTEM INTERFACE ${PKB_HEADER_ONLY_SPDLOG})
  target_compile_definitions(pkb_spdlog_headers INTERFACE SPDLOG_HEADER_ONLY SPDLOG_FMT_EXTERNAL FMT_HEADER_ONLY)
  add_library(spdlog::spdlog ALIAS pkb_spdlog_headers)
else()
  find_package(spdlog REQUIRED)
endif()
find_package(CUDAToolkit REQUIRED)

# libtorch: Debian's libtorch-dev (1.13, CPU) here; torch 2.x with CUDA on a GPU machine, found through
# CMAKE_PREFIX_PATH=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)').
# Torch's config adds flags we do not want globally, so only its libraries and include dirs are used.
find_package(Torch REQUIRED)
add_library(pkb_torch INTERFACE)
target_include_directories(pkb_torch SYSTEM INTERFACE ${TORCH_INCLUDE_DIRS})
target_link_libraries(pkb_torch INTERFACE ${TORCH_LIBRARIES})
# ATen/ATen.h costs ~7 s per translation unit here; every target that includes it reuses this one
# precompiled header (pkb_use_aten_pch), which brings a file that includes it to about a second.
file(WRITE ${CMAKE_BINARY_DIR}/pkb_pch.cpp "// precompiled ATen header holder\n")
add_library(pkb_pch OBJECT ${CMAKE_BINARY_DIR}/pkb_pch.cpp)
target_link_libraries(pkb_pch PUBLIC pkb_torch)
target_precompile_headers(pkb_pch PRIVATE <ATen/ATen.h>)
pkb_warnings(pkb_pch)
function(pkb_use_aten_pch target)
  target_precompile_headers(${target} REUSE_FROM pkb_pch)
endfunction()

# Whether this libtorch can put tensors on a GPU; decides how references run on GPU machines.
if(TARGET torch_cuda OR TORCH_CUDA_LIBRARIES)
  set(PKB_TORCH_HAS_CUDA ON)
else()
  set(PKB_TORCH_HAS_CUDA OFF)
endif()

# libcurl carries model API calls. A GPU machine that only evaluates may lack its headers: pkb then
# builds without network clients (`pkb generate` says so; replay:DIR still works).
find_package(CURL)
if(CURL_FOUND)
  set(PKB_HAVE_CURL ON)
else()
  set(PKB_HAVE_CURL OFF)
  message(WARNING "libcurl not found: pkb is built without model API clients (apt install libcurl4-openssl-dev)")
endif()

# NCCL ships with NVIDIA's CUDA repository, not with every toolkit: without it pkb still builds,
# and the NCCL communicator is left out (pkb doctor says so).
find_path(PKB_NCCL_INCLUDE nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS} /usr/include)
find_library(PKB_NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR} /usr/lib/x86_64-linux-gnu)
if(PKB_NCCL_INCLUDE AND PKB_NCCL_LIBRARY)
  set(PKB_HAVE_NCCL ON)
  add_library(pkb_nccl INTERFACE)
  target_include_directories(pkb_nccl SYSTEM INTERFACE ${PKB_NCCL_INCLUDE})
  target_link_libraries(pkb_nccl INTERFACE ${PKB_NCCL_LIBRARY} CUDA::cudart)
  target_compile_definitions(pkb_nccl INTERFACE PKB_HAVE_NCCL=1)
else()
  set(PKB_HAVE_NCCL OFF)
  message(WARNING "NCCL not found: the NCCL communicator is not built (install libnccl-dev)")
endif()

# The interpreter that runs scripts/parity.py must import torch. Debian's python3-torch belongs to
# /usr/bin/python3, which need not be the python3 first on PATH.
if(NOT PKB_PYTHON)
  foreach(candidate /usr/bin/python3 python3)
    find_program(_py NAMES ${candidate} NO_CACHE)
    if(_py)
      execute_process(COMMAND ${_py} -c "import torch, torch.distributed"
                      RESULT_VARIABLE _py_rc OUTPUT_QUIET ERROR_QUIET)
      if(_py_rc EQUAL 0)
        set(PKB_PYTHON ${_py} CACHE FILEPATH "python3 that imports torch (parity tests)")
        break()
      endif()
    endif()
    unset(_py)
  endforeach()
endif()
if(NOT PKB_PYTHON)
  message(WARNING "no python3 that imports torch: parity tests are not registered (apt install python3-torch)")
endif()
