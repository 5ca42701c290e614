// NcclCollectives (see nccl_collectives.h). all_to_all is grouped send/recv (ncclAlltoAll only
// exists from NCCL 2.28, and the GPU machine's NCCL may be older).
#include "harness/cuda/nccl_collectives.h"

#include <map>
#include <string>

#include "src/common/error.h"

#ifdef PKB_HAVE_NCCL
#include <nccl.h>

#include "reference/comm/cuda_check.h"
#endif

namespace pkb::harness {

#ifdef PKB_HAVE_NCCL

struct NcclCollectives::Comms {
  std::vector<ncclComm_t> comms;                  // [world rank]
  std::map<int, std::vector<ncclComm_t>> groups;  // problem group -> [world rank]: its instance's
  ~Comms() {
    for (auto& [group, children] : groups)  // children before the parent they were split from
      for (ncclComm_t comm : children)
        if (comm != nullptr) ncclCommDestroy(comm);
    for (ncclComm_t comm : comms) ncclCommDestroy(comm);
  }
};

namespace {

// Reductions need NCCL's own element type; data movement may go as bytes.
ncclDataType_t nccl_type(DType dtype, bool reducing, std::uint64_t& count) {
  switch (dtype) {
    case DType::bf16: return ncclBfloat16;
    case DType::fp16: return ncclHalf;
    case DType::fp32: return ncclFloat;
    case DType::fp64: return ncclDouble;
    case DType::int8: return ncclInt8;
    case DType::uint8: return ncclUint8;
    case DType::int32: return ncclInt32;
    case DType::int64: return ncclInt64;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 24, 0)
    case DType::fp8e4m3: return ncclFloat8e4m3;
    case DType::fp8e5m2: return ncclFloat8e5m2;
#endif
    default: break;
  }
  if (reducing)
    throw plan::PlanError("collective: NCCL cannot reduce " + std::string(dtype_name(dtype)));
  count *= dtype_size(dtype);
  return ncclUint8;
}

ncclRedOp_t nccl_op(plan::ReduceOp op) {
  switch (op) {
    case plan::ReduceOp::sum: return ncclSum;
    case plan::ReduceOp::prod: return ncclProd;
    case plan::ReduceOp::max: return ncclMax;
    case plan::ReduceOp::min: return ncclMin;
    case plan::ReduceOp::avg: return ncclAvg;
  }
  return ncclSum;
}

// Closes the NCCL group on every path: a throw inside it would leave this thread in the group,
// and its next NCCL call would be queued instead of run.
class NcclGroupGuard {
 public:
  NcclGroupGuard() { PKB_NCCL_CHECK(ncclGroupStart()); }
  ~NcclGroupGuard() {
    if (open_) (void)ncclGroupEnd();
  }
  NcclGroupGuard(const NcclGroupGuard&) = delete;
  NcclGroupGuard& operator=(const NcclGroupGuard&) = delete;
  void end() {
    open_ = false;
    PKB_NCCL_CHECK(ncclGroupEnd());
  }

 private:
  bool open_ = true;
};

bool reduces(plan::CollectiveKind kind) {
  return kind == plan::CollectiveKind::all_reduce || kind == plan::CollectiveKind::reduce_scatter ||
         kind == plan::CollectiveKind::reduce;
}

}  // namespace

NcclCollectives::NcclCollectives(std::vector<int> devices) : devices_(std::move(devices)) {}
NcclCollectives::~NcclCollectives() = default;

void NcclCollectives::init() {
  if (comms_) return;
  auto comms = std::make_unique<Comms>();
  comms->comms.resize(devices_.size());
  PKB_NCCL_CHECK(
      ncclCommInitAll(comms->comms.data(), static_cast<int>(devices_.size()), devices_.data()));
  comms_ = std::move(comms);
}

void NcclCollectives::split(const std::vector<ProcessGroup>& groups) {
  init();
  for (const auto& group : groups) {
    if (comms_->groups.count(group.group)) continue;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 18, 0)
    std::vector<ncclComm_t> children(devices_.size(), nullptr);
    {
      // One thread drives every rank: the splits are one collective call, so one NCCL group.
      NcclGroupGuard guard;
      for (std::size_t rank = 0; rank < devices_.size(); ++rank)
        PKB_NCCL_CHECK(ncclCommSplit(comms_->comms[rank], group.instance.at(rank),
                                     static_cast<int>(rank), &children[rank], nullptr));
      guard.end();
    }
    comms_->groups[group.group] = std::move(children);
#else
    throw Error("collective: group '" + group.name + "' needs ncclCommSplit (NCCL 2.18 or newer)");
#endif
  }
}

void NcclCollectives::group_begin() {
  init();
  PKB_NCCL_CHECK(ncclGroupStart());
}

void NcclCollectives::group_end() { PKB_NCCL_CHECK(ncclGroupEnd()); }

void NcclCollectives::collective(int rank, CUstream stream, const CollectiveCall& call) {
  // A grouped call runs on its instance's communicator, where root and peer are group ranks.
  const auto split_comms = comms_->groups.find(call.group);
  if (call.group >= 0 && split_comms == comms_->groups.end())
    throw Error("collective: group " + std::to_string(call.group) +
                " was not split before its first call (prepare_process_groups)");
  ncclComm_t comm = call.group < 0 ? comms_->comms.at(rank) : split_comms->second.at(rank);
  const int ranks =
      call.group < 0 ? static_cast<int>(devices_.size()) : static_cast<int>(call.members.size());
  cudaStream_t s = reinterpret_cast<cudaStream_t>(stream);
  std::uint64_t count = call.count;
  const ncclDataType_t type = nccl_type(call.dtype, reduces(call.kind), count);
  const void* send = reinterpret_cast<const void*>(call.send);
  void* recv = reinterpret_cast<void*>(call.recv);
  const ncclRedOp_t op = nccl_op(call.reduce);
  switch (call.kind) {
    case plan::CollectiveKind::all_reduce:
      PKB_NCCL_CHECK(ncclAllReduce(send, recv, count, type, op, comm, s));
      break;
    case plan::CollectiveKind::all_gather:
      PKB_NCCL_CHECK(ncclAllGather(send, recv, count, type, comm, s));
      break;
    case plan::CollectiveKind::reduce_scatter:
      PKB_NCCL_CHECK(ncclReduceScatter(send, recv, count, type, op, comm, s));
      break;
    case plan::CollectiveKind::broadcast:
      PKB_NCCL_CHECK(ncclBroadcast(send, recv, count, type, call.root, comm, s));
      break;
    case plan::CollectiveKind::reduce:
      PKB_NCCL_CHECK(ncclReduce(send, recv, count, type, op, call.root, comm, s));
      break;
    case plan::CollectiveKind::send:
      PKB_NCCL_CHECK(ncclSend(send, count, type, call.peer, comm, s));
      break;
    case plan::CollectiveKind::recv:
      PKB_NCCL_CHECK(ncclRecv(recv, count, type, call.peer, comm, s));
      break;
    case plan::CollectiveKind::all_to_all: {
      // count is the per-peer chunk; chunk p of send goes to rank p, chunk p of recv comes from p.
      const std::uint64_t chunk = count * (type == ncclUint8 ? 1 : dtype_size(call.dtype));
      for (int peer = 0; peer < ranks; ++peer) {
        PKB_NCCL_CHECK(
            ncclSend(static_cast<const char*>(send) + peer * chunk, count, type, peer, comm, s));
        PKB_NCCL_CHECK(
            ncclRecv(static_cast<char*>(recv) + peer * chunk, count, type, peer, comm, s));
      }
      break;
    }
  }
}

#else  // !PKB_HAVE_NCCL

struct NcclCollectives::Comms {};
NcclCollectives::NcclCollectives(std::vector<int> devices) : devices_(std::move(devices)) {}
NcclCollectives::~NcclCollectives() = default;
void NcclCollectives::init() {}
void NcclCollectives::split(const std::vector<ProcessGroup>&) {}
void NcclCollectives::group_begin() {}
void NcclCollectives::group_end() {}
void NcclCollectives::collective(int, CUstream, const CollectiveCall&) {
  throw Error(
      "collective: this pkb-worker was built without NCCL (install libnccl-dev and rebuild)");
}

#endif

}  // namespace pkb::harness
