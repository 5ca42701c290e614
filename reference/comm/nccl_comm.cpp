// NcclComm: raw NCCL calls on the memory of CUDA tensors, one blocking op at a time (nccl_comm.h).
#ifdef PKB_HAVE_NCCL

#include "reference/comm/nccl_comm.h"

#include <algorithm>
#include <string>

#include "reference/comm/cuda_check.h"
#include "reference/comm/nccl_args.h"
#include "src/common/error.h"

namespace pkb::ref {
namespace {

using namespace nccl_args;

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
