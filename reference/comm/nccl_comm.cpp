// NcclComm: raw NCCL calls on the memory of CUDA tensors, one blocking op at a time (nccl_comm.h).
#ifdef PKB_HAVE_NCCL

#include "reference/comm/nccl_comm.h"

#include <algorithm>
#include <string>

#include "reference/comm/cuda_check.h"
#include "src/common/error.h"

namespace pkb::ref {
namespace {

std::string where(const char* op) { return std::string("nccl ") + op + ": "; }

std::size_t count_of(const at::Tensor& tensor) { return static_cast<std::size_t>(tensor.numel()); }

ncclDataType_t nccl_dtype(const at::Tensor& tensor, const char* op) {
  switch (tensor.scalar_type()) {
    case at::kBFloat16: return ncclBfloat16;
    case at::kHalf: return ncclFloat16;
    case at::kFloat: return ncclFloat32;
    case at::kDouble: return ncclFloat64;
    case at::kInt: return ncclInt32;
    case at::kLong: return ncclInt64;
    case at::kByte: return ncclUint8;
    case at::kChar: return ncclInt8;
    case at::kBool: return ncclUint8;
    default: break;
  }
  throw Error(where(op) + "dtype " + c10::toString(tensor.scalar_type()) +
              " has no nccl type (expected one of BFloat16, Half, Float, Double, Int, Long, Byte, "
              "Char, Bool)");
}

// fp8 data travels as uint8, and NCCL would reduce its bytes as integers. Bool follows
// torch.distributed: a sum or max of flags is their logical or, a min their logical and.
ncclRedOp_t nccl_reduce_op(const at::Tensor& tensor, ReduceOp op, const char* what) {
  const at::ScalarType dtype = tensor.scalar_type();
  if (dtype == at::kByte)
    throw Error(where(what) +
                "cannot reduce a Byte tensor (fp8 data is stored as Byte, and its "
                "bytes would be reduced as integers)");
  if (dtype == at::kBool && op == ReduceOp::avg)
    throw Error(where(what) + "avg is not defined on Bool tensors");
  switch (op) {
    case ReduceOp::sum: return dtype == at::kBool ? ncclMax : ncclSum;
    case ReduceOp::max: return ncclMax;
    case ReduceOp::min: return ncclMin;
    case ReduceOp::avg: return ncclAvg;
  }
  PKB_ASSERT(false, "unhandled ReduceOp");
  return ncclSum;
}

// Comm promises that bf16/fp16 sums round once. NCCL rounds to the tensor's dtype at every hop of
// its ring or tree, so those reductions run on fp32 copies, rounded once when copied back (where
// `write_back`). max and min are exact in any dtype.
template <typename Reduce>
void reduce_rounding_once(const at::Tensor& out, const at::Tensor& in, ReduceOp op, bool write_back,
                          Reduce reduce) {
  const at::ScalarType dtype = in.scalar_type();
  const bool narrow = dtype == at::kBFloat16 || dtype == at::kHalf;
  if (!narrow || op == ReduceOp::max || op == ReduceOp::min) return reduce(out, in);
  const at::Tensor wide_in = in.to(at::kFloat);
  const at::Tensor wide_out =
      out.is_same(in) ? wide_in : at::empty(out.sizes(), out.options().dtype(at::kFloat));
  reduce(wide_out, wide_in);
  if (write_back) out.copy_(wide_out);
}

void check_same_dtype(const at::Tensor& out, const at::Tensor& in, const char* op) {
  if (out.scalar_type() != in.scalar_type())
    throw Error(where(op) + "out is " + c10::toString(out.scalar_type()) + ", in is " +
                c10::toString(in.scalar_type()));
}

// `whole` must hold size chunks of `part` (all_gather's out, scatter's in, ...).
void check_chunks(const at::Tensor& whole, const char* whole_name, const at::Tensor& part, int size,
                  const char* op) {
  if (whole.numel() != size * part.numel())
    throw Error(where(op) + whole_name + " has " + std::to_string(whole.numel()) +
                " elements, expected " + std::to_string(size) + " * " +
                std::to_string(part.numel()));
}

// Elements in one row along dim 0; a tensor with no rows still has a row shape.
std::int64_t row_numel(const at::Tensor& tensor) {
  std::int64_t numel = 1;
  for (std::int64_t dim = 1; dim < tensor.dim(); ++dim) numel *= tensor.size(dim);
  return numel;
}

// Rows exchanged with each rank along dim 0: the given list, or equal parts when it is empty.
std::vector<std::int64_t> resolve_splits(const std::vector<std::int64_t>& splits,
                                         const at::Tensor& tensor, const char* name, int size) {
  const std::string at_name = where("all_to_all") + name;
  const std::int64_t rows = tensor.size(0);
  if (splits.empty()) {
    if (rows % size != 0)
      throw Error(at_name + " has " + std::to_string(rows) + " rows, not divisible by " +
                  std::to_string(size) + " ranks (pass " + name + "_splits)");
    return std::vector<std::int64_t>(size, rows / size);
  }
  if (static_cast<int>(splits.size()) != size)
    throw Error(at_name + "_splits has " + std::to_string(splits.size()) + " entries, expected " +
                std::to_string(size) + " (one per rank)");
  std::int64_t total = 0;
  for (const std::int64_t split : splits) {
    if (split < 0) throw Error(at_name + "_splits has a negative entry " + std::to_string(split));
    total += split;
  }
  if (total != rows)
    throw Error(at_name + "_splits sum to " + std::to_string(total) + ", expected the " +
                std::to_string(rows) + " rows of " + name);
  return splits;
}

// Closes an NCCL group on every path: a throw between ncclGroupStart and ncclGroupEnd would leave
// this thread inside the group, and its next NCCL call would be queued instead of run.
class NcclGroup {
 public:
  NcclGroup() { PKB_NCCL_CHECK(ncclGroupStart()); }
  ~NcclGroup() {
    if (open_) (void)ncclGroupEnd();
  }
  NcclGroup(const NcclGroup&) = delete;
  NcclGroup& operator=(const NcclGroup&) = delete;
  void end() {
    open_ = false;
    PKB_NCCL_CHECK(ncclGroupEnd());
  }

 private:
  bool open_ = true;
};

ncclComm_t init_rank(const ncclUniqueId& id, int rank, int size, int device) {
  if (size <= 0 || rank < 0 || rank >= size)
    throw Error("nccl init: rank " + std::to_string(rank) + " is outside [0, " +
                std::to_string(size) + ")");
  PKB_CUDA_CHECK(cudaSetDevice(device));
  ncclComm_t comm = nullptr;
  PKB_NCCL_CHECK(ncclCommInitRank(&comm, size, id, rank));
  return comm;
}

}  // namespace

std::vector<std::unique_ptr<NcclComm>> NcclComm::init_all(const std::vector<int>& devices) {
  if (devices.empty()) throw Error("nccl init_all: no devices given");
  int caller_device = 0;
  PKB_CUDA_CHECK(cudaGetDevice(&caller_device));
  std::vector<ncclComm_t> raw(devices.size(), nullptr);
  PKB_NCCL_CHECK(ncclCommInitAll(raw.data(), static_cast<int>(devices.size()), devices.data()));
  std::vector<std::unique_ptr<NcclComm>> comms;
  comms.reserve(raw.size());
  std::size_t index = 0;
  try {
    for (; index < raw.size(); ++index)
      comms.push_back(std::unique_ptr<NcclComm>(new NcclComm(raw[index], devices[index])));
  } catch (...) {
    // comms owns those adopted so far and raw[index] released itself: destroy the rest.
    for (++index; index < raw.size(); ++index) (void)ncclCommDestroy(raw[index]);
    throw;
  }
  PKB_CUDA_CHECK(cudaSetDevice(caller_device));
  return comms;
}

NcclComm::NcclComm(const ncclUniqueId& id, int rank, int size, int device)
    : NcclComm(init_rank(id, rank, size, device), device) {}

NcclComm::NcclComm(ncclComm_t comm, int device) : comm_(comm), device_(device) {
  // A constructor that throws gets no destructor call, so it releases what it holds itself.
  try {
    PKB_NCCL_CHECK(ncclCommUserRank(comm_, &rank_));
    PKB_NCCL_CHECK(ncclCommCount(comm_, &size_));
    PKB_CUDA_CHECK(cudaSetDevice(device_));
    PKB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    PKB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&barrier_buffer_), sizeof(int)));
    PKB_CUDA_CHECK(cudaMemset(barrier_buffer_, 0, sizeof(int)));
  } catch (...) {
    release();
    throw;
  }
}

NcclComm::~NcclComm() { release(); }

void NcclComm::release() noexcept {
  // Results are ignored: a destructor must not throw, and a failed op has already been reported.
  (void)cudaSetDevice(device_);
  if (comm_ != nullptr) (void)ncclCommDestroy(comm_);
  if (barrier_buffer_ != nullptr) (void)cudaFree(barrier_buffer_);
  if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
}

void NcclComm::begin() const {
  PKB_CUDA_CHECK(cudaSetDevice(device_));
  PKB_CUDA_CHECK(cudaDeviceSynchronize());
}

void NcclComm::finish() const { PKB_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

void NcclComm::check_tensor(const at::Tensor& tensor, const char* op, const char* name) const {
  const std::string at_name = where(op) + name;
  if (!tensor.defined()) throw Error(at_name + " is an undefined tensor");
  if (!tensor.is_cuda())
    throw Error(at_name + " is a " + c10::DeviceTypeName(tensor.device().type(), true) +
                " tensor, expected a cuda tensor on cuda:" + std::to_string(device_));
  if (tensor.device().index() != device_)
    throw Error(at_name + " is on " + tensor.device().str() +
                ", this rank's device is cuda:" + std::to_string(device_));
  if (!tensor.is_contiguous()) throw Error(at_name + " is not contiguous");
}

void NcclComm::check_rank(int peer, const char* op, const char* name) const {
  if (peer < 0 || peer >= size_)
    throw Error(where(op) + name + " " + std::to_string(peer) + " is outside [0, " +
                std::to_string(size_) + ")");
}

void NcclComm::all_reduce(const at::Tensor& tensor, ReduceOp op) {
  check_tensor(tensor, "all_reduce", "tensor");
  const ncclRedOp_t nccl_op = nccl_reduce_op(tensor, op, "all_reduce");
  reduce_rounding_once(tensor, tensor, op, true, [&](const at::Tensor& out, const at::Tensor& in) {
    const ncclDataType_t dtype = nccl_dtype(in, "all_reduce");
    begin();
    PKB_NCCL_CHECK(
        ncclAllReduce(in.data_ptr(), out.data_ptr(), count_of(in), dtype, nccl_op, comm_, stream_));
    finish();
  });
}

void NcclComm::all_gather(const at::Tensor& out, const at::Tensor& in) {
  check_tensor(out, "all_gather", "out");
  check_tensor(in, "all_gather", "in");
  check_same_dtype(out, in, "all_gather");
  check_chunks(out, "out", in, size_, "all_gather");
  const ncclDataType_t dtype = nccl_dtype(in, "all_gather");
  begin();
  PKB_NCCL_CHECK(ncclAllGather(in.data_ptr(), out.data_ptr(), count_of(in), dtype, comm_, stream_));
  finish();
}

void NcclComm::reduce_scatter(const at::Tensor& out, const at::Tensor& in, ReduceOp op) {
  check_tensor(out, "reduce_scatter", "out");
  check_tensor(in, "reduce_scatter", "in");
  check_same_dtype(out, in, "reduce_scatter");
  check_chunks(in, "in", out, size_, "reduce_scatter");
  const ncclRedOp_t nccl_op = nccl_reduce_op(in, op, "reduce_scatter");
  reduce_rounding_once(out, in, op, true, [&](const at::Tensor& part, const at::Tensor& whole) {
    const ncclDataType_t dtype = nccl_dtype(whole, "reduce_scatter");
    begin();
    PKB_NCCL_CHECK(ncclReduceScatter(whole.data_ptr(), part.data_ptr(), count_of(part), dtype,
                                     nccl_op, comm_, stream_));
    finish();
  });
}

// NCCL has no all-to-all collective. Its sends and receives must sit in one group: outside a group
// each blocks the GPU until its peer's matching call, so two ranks sending to each other first
// would wait forever.
void NcclComm::all_to_all(const at::Tensor& out, const at::Tensor& in,
                          const std::vector<std::int64_t>& out_splits,
                          const std::vector<std::int64_t>& in_splits) {
  check_tensor(out, "all_to_all", "out");
  check_tensor(in, "all_to_all", "in");
  check_same_dtype(out, in, "all_to_all");
  if (out.dim() == 0 || in.dim() == 0) throw Error("nccl all_to_all: out and in need a dim 0");
  const std::int64_t row = row_numel(in);
  if (row_numel(out) != row)
    throw Error("nccl all_to_all: rows of out hold " + std::to_string(row_numel(out)) +
                " elements, rows of in hold " + std::to_string(row));
  const std::vector<std::int64_t> out_rows = resolve_splits(out_splits, out, "out", size_);
  const std::vector<std::int64_t> in_rows = resolve_splits(in_splits, in, "in", size_);
  const ncclDataType_t dtype = nccl_dtype(in, "all_to_all");
  const std::size_t row_bytes = static_cast<std::size_t>(row) * in.element_size();
  auto* out_bytes = static_cast<char*>(out.data_ptr());
  const auto* in_bytes = static_cast<const char*>(in.data_ptr());
  begin();
  NcclGroup group;
  std::size_t out_offset = 0;
  std::size_t in_offset = 0;
  for (int peer = 0; peer < size_; ++peer) {
    const auto send_rows = static_cast<std::size_t>(in_rows[peer]);
    const auto recv_rows = static_cast<std::size_t>(out_rows[peer]);
    PKB_NCCL_CHECK(
        ncclSend(in_bytes + in_offset * row_bytes, send_rows * row, dtype, peer, comm_, stream_));
    PKB_NCCL_CHECK(
        ncclRecv(out_bytes + out_offset * row_bytes, recv_rows * row, dtype, peer, comm_, stream_));
    in_offset += send_rows;
    out_offset += recv_rows;
  }
  group.end();
  finish();
}

void NcclComm::broadcast(const at::Tensor& tensor, int root) {
  check_tensor(tensor, "broadcast", "tensor");
  check_rank(root, "broadcast", "root");
  const ncclDataType_t dtype = nccl_dtype(tensor, "broadcast");
  begin();
  PKB_NCCL_CHECK(ncclBroadcast(tensor.data_ptr(), tensor.data_ptr(), count_of(tensor), dtype, root,
                               comm_, stream_));
  finish();
}

// Every rank passes its tensor as both send and receive buffer: NCCL writes recvbuff on the root
// only, so the other ranks keep their input, as Comm::reduce promises.
void NcclComm::reduce(const at::Tensor& tensor, int root, ReduceOp op) {
  check_tensor(tensor, "reduce", "tensor");
  check_rank(root, "reduce", "root");
  const ncclRedOp_t nccl_op = nccl_reduce_op(tensor, op, "reduce");
  const bool write_back = rank_ == root;
  reduce_rounding_once(tensor, tensor, op, write_back,
                       [&](const at::Tensor&, const at::Tensor& in) {
                         const ncclDataType_t dtype = nccl_dtype(in, "reduce");
                         begin();
                         PKB_NCCL_CHECK(ncclReduce(in.data_ptr(), in.data_ptr(), count_of(in),
                                                   dtype, nccl_op, root, comm_, stream_));
                         finish();
                       });
}

// NCCL has no scatter or gather: the root sends (receives) one chunk per peer in one group so that
// the transfers progress together, and copies its own chunk locally.
void NcclComm::root_exchange(const at::Tensor& out, const at::Tensor& in, int root,
                             bool scattering) {
  const char* op = scattering ? "scatter" : "gather";
  // The chunk is what a non-root rank holds; the whole (size_ chunks) exists on the root only.
  const at::Tensor& chunk = scattering ? out : in;
  const at::Tensor& whole = scattering ? in : out;
  const char* whole_name = scattering ? "in" : "out";
  check_tensor(chunk, op, scattering ? "out" : "in");
  check_rank(root, op, "root");
  if (rank_ == root) {
    check_tensor(whole, op, whole_name);
    check_same_dtype(out, in, op);
    check_chunks(whole, whole_name, chunk, size_, op);
  }
  const ncclDataType_t dtype = nccl_dtype(chunk, op);
  const std::size_t count = count_of(chunk);
  begin();
  if (rank_ != root) {
    PKB_NCCL_CHECK(scattering ? ncclRecv(chunk.data_ptr(), count, dtype, root, comm_, stream_)
                              : ncclSend(chunk.data_ptr(), count, dtype, root, comm_, stream_));
    return finish();
  }
  const std::size_t chunk_bytes = count * chunk.element_size();
  auto* whole_bytes = static_cast<char*>(whole.data_ptr());
  void* own_chunk = whole_bytes + root * chunk_bytes;
  PKB_CUDA_CHECK(cudaMemcpyAsync(scattering ? chunk.data_ptr() : own_chunk,
                                 scattering ? own_chunk : chunk.data_ptr(), chunk_bytes,
                                 cudaMemcpyDeviceToDevice, stream_));
  NcclGroup group;
  for (int peer = 0; peer < size_; ++peer) {
    if (peer == root) continue;
    void* peer_chunk = whole_bytes + peer * chunk_bytes;
    PKB_NCCL_CHECK(scattering ? ncclSend(peer_chunk, count, dtype, peer, comm_, stream_)
                              : ncclRecv(peer_chunk, count, dtype, peer, comm_, stream_));
  }
  group.end();
  finish();
}

void NcclComm::point_to_point(const at::Tensor& tensor, int peer, bool sending) {
  const char* op = sending ? "send" : "recv";
  check_tensor(tensor, op, "tensor");
  check_rank(peer, op, "peer");
  if (peer == rank_) throw Error(where(op) + "peer " + std::to_string(peer) + " is this rank");
  const ncclDataType_t dtype = nccl_dtype(tensor, op);
  begin();
  PKB_NCCL_CHECK(sending
                     ? ncclSend(tensor.data_ptr(), count_of(tensor), dtype, peer, comm_, stream_)
                     : ncclRecv(tensor.data_ptr(), count_of(tensor), dtype, peer, comm_, stream_));
  finish();
}

// One NCCL group holds both calls, so every rank of a ring can send and receive at once.
void NcclComm::send_recv(const at::Tensor& out, int to, const at::Tensor& in, int from) {
  check_tensor(out, "send_recv", "out");
  check_tensor(in, "send_recv", "in");
  check_rank(to, "send_recv", "to");
  check_rank(from, "send_recv", "from");
  begin();
  NcclGroup group;
  PKB_NCCL_CHECK(ncclSend(out.data_ptr(), count_of(out), nccl_dtype(out, "send_recv"), to, comm_, stream_));
  PKB_NCCL_CHECK(ncclRecv(in.data_ptr(), count_of(in), nccl_dtype(in, "send_recv"), from, comm_, stream_));
  group.end();
  finish();
}

void NcclComm::barrier() {
  begin();
  PKB_NCCL_CHECK(
      ncclAllReduce(barrier_buffer_, barrier_buffer_, 1, ncclInt32, ncclSum, comm_, stream_));
  finish();
}

// The group's first member is its color, so every member of a group, passing the same list, lands
// in the same communicator; key = this rank keeps the parent's order.
std::unique_ptr<Comm> NcclComm::split(const std::vector<int>& members) {
  if (members.empty()) throw Error("nccl split: members is empty");
  for (const int member : members) check_rank(member, "split", "member");
  if (!std::is_sorted(members.begin(), members.end()) ||
      std::adjacent_find(members.begin(), members.end()) != members.end())
    throw Error("nccl split: members must be ascending and distinct");
  if (!std::binary_search(members.begin(), members.end(), rank_))
    throw Error("nccl split: rank " + std::to_string(rank_) + " is not among its members");
  begin();
  ncclComm_t child = nullptr;
  PKB_NCCL_CHECK(ncclCommSplit(comm_, members.front(), rank_, &child, nullptr));
  std::unique_ptr<NcclComm> group(new NcclComm(child, device_));
  if (group->size() != static_cast<int>(members.size()))
    throw Error("nccl split: rank " + std::to_string(rank_) + " named " +
                std::to_string(members.size()) + " members, its group has " +
                std::to_string(group->size()) + " (the groups must partition the ranks)");
  return group;
}

}  // namespace pkb::ref

#endif  // PKB_HAVE_NCCL
