// SimWorld's rendezvous and mailboxes. The collectives themselves are in sim_comm.cpp.
#include "reference/comm/sim_world.h"

#include "src/common/error.h"

namespace pkb::ref {

struct SimWorld::Group {
  std::vector<Post> posts;
  int arrived = 0;
  std::uint64_t generation = 0;  // bumps when the last member arrives; waiters watch it
};

const char* sim_mode_name(SimMode mode) {
  switch (mode) {
    case SimMode::rank_order: return "rank_order";
    case SimMode::reversed: return "reversed";
    case SimMode::tree: return "tree";
    case SimMode::hop_rounded: return "hop_rounded";
    case SimMode::skip: return "skip";
  }
  return "?";
}

SimWorld::SimWorld(int world_size, SimMode mode)
    : world_size_(world_size), mode_(mode), finished_(world_size, false) {
  PKB_ASSERT(world_size >= 1, "SimWorld needs at least one rank");
}

SimWorld::~SimWorld() = default;

SimWorld::Group& SimWorld::group(const std::vector<int>& members) {
  auto& slot = groups_[members];
  if (!slot) {
    slot = std::make_unique<Group>();
    slot->posts.resize(members.size());
  }
  return *slot;
}

void SimWorld::abort(const std::string& reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!aborted_) abort_reason_ = reason;
  aborted_ = true;
  changed_.notify_all();
}

void SimWorld::rank_finished(int rank) {
  std::lock_guard<std::mutex> lock(mutex_);
  finished_[rank] = true;
  changed_.notify_all();
}

void SimWorld::check_live(const std::vector<int>& members, int me, const std::string& what) const {
  if (aborted_) throw RankAborted("aborted: " + abort_reason_);
  for (int member : members) {
    if (finished_[member])
      throw Error("rank " + std::to_string(member) + " returned while rank " +
                  std::to_string(members[me]) + " waits in " + what +
                  ": the ranks did not call the same collectives");
  }
}

void SimWorld::wait_all(Group& group, const std::vector<int>& members, int me,
                        std::unique_lock<std::mutex>& lock, const std::string& what) {
  const std::uint64_t generation = group.generation;
  if (++group.arrived == static_cast<int>(members.size())) {
    group.arrived = 0;
    ++group.generation;
    changed_.notify_all();
    return;
  }
  for (;;) {
    if (group.generation != generation) return;
    check_live(members, me, what);
    changed_.wait(lock);
  }
}

std::vector<SimWorld::Post> SimWorld::exchange(const std::vector<int>& members, int me, Post post) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (aborted_) throw RankAborted("aborted: " + abort_reason_);
  Group& g = group(members);
  const std::string op = post.op;
  g.posts[me] = std::move(post);
  wait_all(g, members, me, lock, op);
  std::vector<Post> posts = g.posts;  // tensor handles: the data stays valid until sync()
  for (std::size_t index = 0; index < posts.size(); ++index) {
    if (posts[index].op != op)
      throw Error("collective mismatch: rank " + std::to_string(members[me]) + " called " + op +
                  " while rank " + std::to_string(members[index]) + " called " + posts[index].op);
  }
  return posts;
}

void SimWorld::sync(const std::vector<int>& members, int me) {
  std::unique_lock<std::mutex> lock(mutex_);
  wait_all(group(members), members, me, lock, "a collective");
}

void SimWorld::send(int from, int to, const at::Tensor& tensor) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (aborted_) throw RankAborted("aborted: " + abort_reason_);
  // Buffered: the sender does not wait for the receiver, so a reference cannot deadlock on
  // send/recv ordering that NCCL's grouped calls would allow.
  mailboxes_[{from, to}].push_back(tensor.clone());
  changed_.notify_all();
}

at::Tensor SimWorld::recv(int from, int to) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto& box = mailboxes_[{from, to}];
  for (;;) {
    if (!box.empty()) {
      at::Tensor tensor = box.front();
      box.pop_front();
      return tensor;
    }
    if (aborted_) throw RankAborted("aborted: " + abort_reason_);
    if (finished_[from])
      throw Error("rank " + std::to_string(from) + " returned without sending what rank " +
                  std::to_string(to) + " waits to receive");
    changed_.wait(lock);
  }
}

}  // namespace pkb::ref
