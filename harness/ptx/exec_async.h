// What the bulk copies (exec_async_bulk.cpp) share with the mbarrier instructions
// (exec_async.cpp): the barrier object's word and its transaction count, the copies a wait on a
// barrier lands, and the element update of a bulk reduction (exec_atomic.cpp's).
#pragma once

#include <cstdint>

#include "harness/ptx/decode.h"
#include "harness/ptx/exec_state.h"

namespace pkb::ptx {

/// The host memory of the 8-byte mbarrier object at `address` in `space` (generic, shared or
/// shared::cluster) for `lane`; faults outside memory or when misaligned.
std::uint8_t* mbarrier_object(ExecState& s, Space space, std::uint64_t address, int lane);
/// complete-tx of `bytes` on the mbarrier at `word`: may complete its phase (and wakes waiters).
void mbarrier_complete_tx(ExecState& s, std::uint8_t* word, std::uint32_t bytes, int lane);

/// Global-to-shared bulk copies tracked by the mbarrier at `word` land, in issue order: a thread
/// of the block waits on it (exec_async_bulk.cpp).
void land_bulk_copies_on(ExecState& s, const std::uint8_t* word, int lane);
/// cp.async.bulk / cp.reduce.async.bulk (`reduce`) after "cp", "async" and "bulk" were taken.
bool decode_bulk_copy(DecodeInput& input, Instr& instr, bool reduce);

/// The reductions of cp.reduce.async.bulk, in the order their qualifiers are listed.
enum class BulkReduce : std::int32_t { add, min, max, and_, or_, xor_, inc, dec };
/// The new value of one element of `type` after `op` with `operand` (as atom / red compute it;
/// `ftz` flushes f32 subnormals). Defined in exec_atomic.cpp.
std::uint64_t reduce_element(Type type, BulkReduce op, std::uint64_t old, std::uint64_t operand,
                             bool ftz);

}  // namespace pkb::ptx
