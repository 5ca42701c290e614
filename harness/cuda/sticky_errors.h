// Which CUDA driver errors poison the context for good: after one of
// these the process must end, so the executor reports runtime_error and the next sample gets a
// fresh worker. Pure: takes the numeric CUresult, so CPU tests need no driver.
#pragma once

namespace pkb::harness {

/// True for CUDA_ERROR_ILLEGAL_ADDRESS (700), LAUNCH_FAILED (719), MISALIGNED_ADDRESS (716),
/// ILLEGAL_INSTRUCTION (715), HARDWARE_STACK_ERROR (714), INVALID_PC (718),
/// INVALID_ADDRESS_SPACE (717), TENSOR_MEMORY_LEAK (721), LAUNCH_TIMEOUT (702), CONTAINED (226),
/// ASSERT (710: a device-side assert or __trap), ECC_UNCORRECTABLE (214),
/// NVLINK_UNCORRECTABLE (220).
bool is_sticky_error(int cu_result);

}  // namespace pkb::harness
