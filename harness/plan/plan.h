// A candidate's launch plan (docs/ABI.md): parsed from JSON, then resolved for one rank of one
// run (expressions evaluated, names bound to buffers, limits and sizes checked). Every way a plan
// can be wrong is a PlanError whose message names the JSON location ("steps[2].grid[0]: ...").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/common/dtype.h"
#include "src/common/error.h"

namespace pkb::plan {

/// The sample status plan_error: the plan is malformed or does not fit the problem or device.
class PlanError : public Error {
 public:
  using Error::Error;
};

constexpr int kMaxStreams = 8;
constexpr int kMaxRanks = 8;
constexpr int kMaxSteps = 512;
constexpr int kMaxBuffers = 128;
/// Byte sizes of the by-value structs of pkb.cuh, which the harness marshals.
constexpr std::size_t kContextBytes = 16;     // pkb::Context
constexpr std::size_t kPeersBytes = 64;       // pkb::Peers<T>
constexpr std::size_t kSignalPadBytes = 72;   // pkb::SignalPad
constexpr std::size_t kSignalPadWords = 65536;  // uint32 words per rank

enum class BufferKind { local, symmetric, multicast };
/// Where a resolved buffer comes from: the problem (input, output) or the plan.
enum class BufferRole { input, output, plan };

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint64_t total() const { return std::uint64_t(x) * y * z; }
};

/// What the device allows (a hardware profile, or the probed GPU).
struct DeviceLimits {
  int num_sms = 132;
  std::uint32_t max_threads_per_block = 1024;
  Dim3 max_block{1024, 1024, 64};
  Dim3 max_grid{2147483647u, 65535u, 65535u};
  std::uint64_t max_shared_bytes = 232448;  // per block, opt-in (227 KiB on H100/H200)
  std::uint64_t memory_cap_bytes = 16ull << 30;  // plan + problem buffers, per rank
  bool multicast = true;
};

struct ResolvedBuffer {
  std::string name;
  BufferKind kind = BufferKind::symmetric;
  BufferRole role = BufferRole::plan;
  DType dtype = DType::fp32;
  std::vector<std::int64_t> shape;
  std::uint64_t numel = 0;
  std::uint64_t bytes = 0;          // this rank's size
  std::uint64_t bytes_max = 0;      // the largest over ranks (symmetric allocations use it)
  bool inout = false;               // output initialised from the input of the same name
};

enum class ArgKind { pointer, peers, multicast, signals, context, i32, u32, i64, u64, f32, f64 };

struct ResolvedArg {
  ArgKind kind = ArgKind::i32;
  int buffer = -1;                 // index into ResolvedPlan::buffers (pointer, peers, multicast)
  std::uint64_t element_offset = 0;  // pointer: NAME[expr]
  std::int64_t int_value = 0;
  double float_value = 0;
  std::string text;                // as written, for messages
  std::size_t bytes() const;       // 8, 64, 72, 16, 4 or 8
};

enum class StepOp { kernel, memset, copy, gemm, collective, barrier };

enum class CollectiveKind { all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, reduce, send, recv };
enum class ReduceOp { sum, prod, max, min, avg };

struct KernelStep {
  std::string kernel;
  Dim3 grid, block, cluster{0, 0, 0};  // cluster.x == 0: none
  std::uint32_t shared_bytes = 0;
  bool cooperative = false;
  std::vector<ResolvedArg> args;
};

struct MemsetStep {
  int buffer = -1;
  std::uint8_t value = 0;
};

struct CopyStep {
  int dst = -1, src = -1;
  std::uint64_t count = 0, dst_offset = 0, src_offset = 0;  // elements
  int dst_rank = 0, src_rank = 0;
};

struct GemmStep {
  int a = -1, b = -1, c = -1;
  std::int64_t m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
  std::uint64_t a_offset = 0, b_offset = 0, c_offset = 0;  // elements
  bool trans_a = false, trans_b = false;
  double alpha = 1, beta = 0;
};

struct CollectiveStep {
  CollectiveKind kind = CollectiveKind::all_reduce;
  int send = -1, recv = -1;  // -1 where the kind has no such side (recv for send, ...)
  std::uint64_t count = 0, send_offset = 0, recv_offset = 0;  // elements
  ReduceOp reduce = ReduceOp::sum;
  int root = 0, peer = 0;  // ranks of the group when `group` is set, world ranks otherwise
  /// "group": the index of one of the problem's groups (-1: all W ranks), and the world ranks of
  /// this rank's instance of it in group-rank order (empty for the world).
  int group = -1;
  std::vector<int> members;
};

struct ResolvedStep {
  int index = 0;  // position in the JSON steps array
  StepOp op = StepOp::kernel;
  int stream = 0;
  std::vector<int> waits;  // event ids
  int record = -1;         // event id or -1
  KernelStep kernel;
  MemsetStep memset;
  CopyStep copy;
  GemmStep gemm;
  CollectiveStep collective;
};

/// One rank's plan, ready for the interpreter.
struct ResolvedPlan {
  int rank = 0;
  int world = 1;
  std::vector<ResolvedBuffer> buffers;   // problem inputs, outputs, then plan buffers
  std::vector<ResolvedStep> steps;       // in issue order (a topological order of the graph)
  std::vector<std::string> events;       // event id -> name
  std::vector<int> streams_used;         // sorted stream numbers that any step uses
  std::vector<std::string> group_names;  // the problem's groups (CollectiveStep::group)
  int find_buffer(const std::string& name) const;  // -1 when absent
};

/// A send or recv step. Such steps next to each other in issue order form one group (one NCCL
/// group, like torch.distributed.batch_isend_irecv), inside which every send meets its recv.
bool is_point_to_point(const ResolvedStep& step);

/// The library steps of a plan, for the sample's record: "collective:all_reduce", "gemm" (sorted,
/// each once), so scoring can count or exclude solutions that lean on cuBLAS or NCCL.
std::vector<std::string> library_steps(const ResolvedPlan& plan);

std::string_view buffer_kind_name(BufferKind kind);
std::string_view step_op_name(StepOp op);
std::string_view collective_kind_name(CollectiveKind kind);
std::string_view reduce_op_name(ReduceOp op);

}  // namespace pkb::plan
