// The collectives of the simulated world. Each one: post this rank's tensors, compute this
// rank's result from every member's post, sync (so no post changes while another rank reads it),
// then write the result. In SimMode::skip nothing is exchanged: a rank keeps only its own data,
// and whatever would have come from another rank is zero.
#include <numeric>

#include "reference/comm/sim_reduce.h"
#include "reference/comm/sim_world.h"
#include "src/common/error.h"

namespace pkb::ref {
namespace {

void require(bool ok, const std::string& op, const std::string& what) {
  if (!ok) throw Error("sim " + op + ": " + what);
}

at::Tensor flat(const at::Tensor& tensor) { return tensor.view({-1}); }

class SimComm final : public Comm {
 public:
  SimComm(SimWorld& world, std::vector<int> members, int me)
      : world_(world), members_(std::move(members)), me_(me) {}

  int rank() const override { return me_; }
  int size() const override { return static_cast<int>(members_.size()); }

  void all_reduce(const at::Tensor& tensor, ReduceOp op) override {
    check_contiguous("all_reduce", {tensor});
    if (skipping()) return;
    auto posts = exchange("all_reduce", {tensor}, {static_cast<std::int64_t>(op)});
    std::vector<at::Tensor> parts;
    for (auto& post : posts) {
      require(post.tensors[0].numel() == tensor.numel(), "all_reduce", "ranks passed different sizes");
      parts.push_back(post.tensors[0]);
    }
    at::Tensor result = combine(parts, op, world_.mode());
    sync();
    tensor.copy_(result);
  }

  void all_gather(const at::Tensor& out, const at::Tensor& in) override {
    check_contiguous("all_gather", {out, in});
    const std::int64_t count = in.numel();
    require(out.numel() == size() * count, "all_gather",
            "out has " + std::to_string(out.numel()) + " elements, expected " +
                std::to_string(size()) + " * " + std::to_string(count));
    if (skipping()) {
      out.zero_();
      flat(out).narrow(0, me_ * count, count).copy_(flat(in));
      return;
    }
    auto posts = exchange("all_gather", {in}, {count});
    std::vector<at::Tensor> pieces;
    for (auto& post : posts) pieces.push_back(flat(post.tensors[0]));
    at::Tensor result = at::cat(pieces);
    sync();
    flat(out).copy_(result);
  }

  void reduce_scatter(const at::Tensor& out, const at::Tensor& in, ReduceOp op) override {
    check_contiguous("reduce_scatter", {out, in});
    const std::int64_t count = out.numel();
    require(in.numel() == size() * count, "reduce_scatter",
            "in has " + std::to_string(in.numel()) + " elements, expected " +
                std::to_string(size()) + " * " + std::to_string(count));
    if (skipping()) {
      flat(out).copy_(flat(in).narrow(0, me_ * count, count));
      return;
    }
    auto posts = exchange("reduce_scatter", {in}, {static_cast<std::int64_t>(op)});
    std::vector<at::Tensor> parts;
    for (auto& post : posts) parts.push_back(flat(post.tensors[0]).narrow(0, me_ * count, count));
    at::Tensor result = combine(parts, op, world_.mode());
    sync();
    flat(out).copy_(result);
  }

  void all_to_all(const at::Tensor& out, const at::Tensor& in,
                  const std::vector<std::int64_t>& out_splits,
                  const std::vector<std::int64_t>& in_splits) override {
    check_contiguous("all_to_all", {out, in});
    const auto sends = resolve_splits("in", in, in_splits);
    const auto receives = resolve_splits("out", out, out_splits);
    const std::int64_t in_row = in.dim() == 0 || in.size(0) == 0 ? 0 : in.numel() / in.size(0);
    if (skipping()) {
      out.zero_();
      out.narrow(0, offset(receives, me_), receives[me_])
          .copy_(in.narrow(0, offset(sends, me_), sends[me_]));
      return;
    }
    auto posts = exchange("all_to_all", {in}, sends);
    std::vector<at::Tensor> pieces;
    for (int source = 0; source < size(); ++source) {
      const auto& their_sends = posts[source].numbers;
      require(their_sends[me_] == receives[source], "all_to_all",
              "rank " + std::to_string(source) + " sends " + std::to_string(their_sends[me_]) +
                  " rows to rank " + std::to_string(me_) + ", which expects " +
                  std::to_string(receives[source]));
      pieces.push_back(posts[source].tensors[0].narrow(0, offset(their_sends, me_), their_sends[me_]));
    }
    at::Tensor result = at::cat(pieces);
    require(in_row == 0 || result.numel() == out.numel(), "all_to_all", "row sizes differ across ranks");
    sync();
    if (out.numel() > 0) out.copy_(result.view(out.sizes()));
  }

  void broadcast(const at::Tensor& tensor, int root) override {
    check_contiguous("broadcast", {tensor});
    check_root("broadcast", root);
    if (skipping()) return;
    auto posts = exchange("broadcast", {tensor}, {root});
    require(posts[root].tensors[0].numel() == tensor.numel(), "broadcast", "ranks passed different sizes");
    at::Tensor result = posts[root].tensors[0].clone();
    sync();
    if (me_ != root) tensor.copy_(result);
  }

  void reduce(const at::Tensor& tensor, int root, ReduceOp op) override {
    check_contiguous("reduce", {tensor});
    check_root("reduce", root);
    if (skipping()) return;
    auto posts = exchange("reduce", {tensor}, {root, static_cast<std::int64_t>(op)});
    at::Tensor result;
    if (me_ == root) {
      std::vector<at::Tensor> parts;
      for (auto& post : posts) parts.push_back(post.tensors[0]);
      result = combine(parts, op, world_.mode());
    }
    sync();
    if (me_ == root) tensor.copy_(result);
  }

  void scatter(const at::Tensor& out, const at::Tensor& in, int root) override {
    check_contiguous("scatter", {out});
    check_root("scatter", root);
    const std::int64_t count = out.numel();
    if (me_ == root)
      require(in.numel() == size() * count, "scatter",
              "in has " + std::to_string(in.numel()) + " elements on the root, expected " +
                  std::to_string(size()) + " * " + std::to_string(count));
    if (skipping()) {
      if (me_ == root) flat(out).copy_(flat(in.contiguous()).narrow(0, me_ * count, count));
      else out.zero_();
      return;
    }
    auto posts = exchange("scatter", {me_ == root ? in.contiguous() : at::Tensor()}, {root});
    at::Tensor result = flat(posts[root].tensors[0]).narrow(0, me_ * count, count).clone();
    sync();
    flat(out).copy_(result);
  }

  void gather(const at::Tensor& out, const at::Tensor& in, int root) override {
    check_contiguous("gather", {in});
    check_root("gather", root);
    const std::int64_t count = in.numel();
    if (me_ == root)
      require(out.numel() == size() * count, "gather",
              "out has " + std::to_string(out.numel()) + " elements on the root, expected " +
                  std::to_string(size()) + " * " + std::to_string(count));
    if (skipping()) {
      if (me_ == root) {
        out.zero_();
        flat(out).narrow(0, me_ * count, count).copy_(flat(in));
      }
      return;
    }
    auto posts = exchange("gather", {in}, {root});
    at::Tensor result;
    if (me_ == root) {
      std::vector<at::Tensor> pieces;
      for (auto& post : posts) pieces.push_back(flat(post.tensors[0]));
      result = at::cat(pieces);
    }
    sync();
    if (me_ == root) flat(out).copy_(result);
  }

  void send(const at::Tensor& tensor, int peer) override {
    check_root("send", peer);
    if (skipping()) return;
    world_.send(members_[me_], members_[peer], tensor);
  }

  void recv(const at::Tensor& tensor, int peer) override {
    check_root("recv", peer);
    if (skipping()) {
      tensor.zero_();
      return;
    }
    at::Tensor received = world_.recv(members_[peer], members_[me_]);
    require(received.numel() == tensor.numel(), "recv",
            "rank " + std::to_string(peer) + " sent " + std::to_string(received.numel()) +
                " elements, the receive buffer holds " + std::to_string(tensor.numel()));
    flat(tensor).copy_(flat(received));
  }

  void send_recv(const at::Tensor& out, int to, const at::Tensor& in, int from) override {
    send(out, to);  // sends are buffered here, so send-then-receive never waits on the peer
    recv(in, from);
  }

  void barrier() override {
    if (skipping()) return;
    exchange("barrier", {}, {});
    sync();
  }

  std::unique_ptr<Comm> split(const std::vector<int>& members) override {
    std::vector<int> global;
    int my_index = -1;
    for (std::size_t index = 0; index < members.size(); ++index) {
      check_root("split", members[index]);
      if (index > 0 && members[index] <= members[index - 1])
        throw Error("sim split: members must be ascending ranks of the parent communicator");
      if (members[index] == me_) my_index = static_cast<int>(index);
      global.push_back(members_[members[index]]);
    }
    if (my_index < 0)
      throw Error("sim split: rank " + std::to_string(me_) + " is not among the members it passed");
    return std::make_unique<SimComm>(world_, std::move(global), my_index);
  }

 private:
  bool skipping() const { return world_.mode() == SimMode::skip; }

  std::vector<SimWorld::Post> exchange(const std::string& op, std::vector<at::Tensor> tensors,
                                       std::vector<std::int64_t> numbers) {
    auto posts = world_.exchange(members_, me_, {op, std::move(tensors), std::move(numbers)});
    return posts;
  }
  void sync() { world_.sync(members_, me_); }

  void check_root(const std::string& op, int root) const {
    if (root < 0 || root >= size())
      throw Error("sim " + op + ": rank " + std::to_string(root) + " is outside a group of " +
                  std::to_string(size()));
  }

  static void check_contiguous(const std::string& op, std::initializer_list<at::Tensor> tensors) {
    for (const auto& tensor : tensors)
      if (tensor.defined() && !tensor.is_contiguous())
        throw Error("sim " + op + ": tensors must be contiguous");
  }

  std::vector<std::int64_t> resolve_splits(const std::string& which, const at::Tensor& tensor,
                                           const std::vector<std::int64_t>& splits) const {
    const std::int64_t rows = tensor.dim() == 0 ? 0 : tensor.size(0);
    if (splits.empty()) {
      require(rows % size() == 0, "all_to_all",
              which + " has " + std::to_string(rows) + " rows, not divisible by " + std::to_string(size()));
      return std::vector<std::int64_t>(size(), rows / size());
    }
    require(static_cast<int>(splits.size()) == size(), "all_to_all",
            which + "_splits has " + std::to_string(splits.size()) + " entries, expected " +
                std::to_string(size()));
    require(std::accumulate(splits.begin(), splits.end(), std::int64_t{0}) == rows, "all_to_all",
            which + "_splits sum to " +
                std::to_string(std::accumulate(splits.begin(), splits.end(), std::int64_t{0})) +
                ", but " + which + " has " + std::to_string(rows) + " rows");
    return splits;
  }

  static std::int64_t offset(const std::vector<std::int64_t>& splits, int upto) {
    return std::accumulate(splits.begin(), splits.begin() + upto, std::int64_t{0});
  }

  SimWorld& world_;
  std::vector<int> members_;  // global ranks, ascending
  int me_;                    // index into members_
};

}  // namespace

std::unique_ptr<Comm> SimWorld::comm(int rank) {
  PKB_ASSERT(rank >= 0 && rank < world_size_, "rank outside the world");
  std::vector<int> members(world_size_);
  std::iota(members.begin(), members.end(), 0);
  return std::make_unique<SimComm>(*this, std::move(members), rank);
}

}  // namespace pkb::ref
