// SimWorld: W ranks as W threads of one process, tensors on the CPU (or all on one GPU).
// Collectives meet at a shared rendezvous: each rank posts its contribution, waits for the
// others, computes its own result from all of them, waits again so nobody's contribution changes
// while it is read, then writes. A rank that throws aborts every rank waiting in the world.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "reference/comm/comm.h"

namespace pkb::ref {

/// How the simulated world combines reductions (docs/ADDING_A_PROBLEM.md, step 5). `rank_order` is the reference
/// semantics; the others are orders a correct GPU kernel may use; `skip` is a broken mode.
enum class SimMode {
  rank_order,   // accumulate in fp32 (fp64 for fp64) in rank order, round once
  reversed,     // the same, in reversed rank order
  tree,         // pairwise tree in fp32, round once
  hop_rounded,  // rank order, rounded to the tensor's dtype after every addition (like NCCL's ring)
  skip,         // collectives do not communicate: each rank keeps only its own data
};
const char* sim_mode_name(SimMode mode);

/// Thrown in ranks woken because another rank failed; the runner reports the first real error.
class RankAborted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class SimWorld {
 public:
  SimWorld(int world_size, SimMode mode);
  ~SimWorld();

  int size() const { return world_size_; }
  SimMode mode() const { return mode_; }

  /// The communicator of one rank over the whole world. Call from that rank's thread.
  std::unique_ptr<Comm> comm(int rank);

  /// Wakes every waiting rank with RankAborted. The first call's reason is kept.
  void abort(const std::string& reason);
  /// Marks a rank as done: ranks still waiting on it in a collective fail instead of hanging.
  void rank_finished(int rank);

  // The rendezvous used by SimComm. Opaque to references.
  struct Post {
    std::string op;  // "all_reduce", ... : all members must call the same collective
    std::vector<at::Tensor> tensors;
    std::vector<std::int64_t> numbers;  // op-specific: splits, root, ...
  };
  std::vector<Post> exchange(const std::vector<int>& members, int me, Post post);
  void sync(const std::vector<int>& members, int me);
  void send(int from, int to, const at::Tensor& tensor);
  at::Tensor recv(int from, int to);

 private:
  struct Group;
  Group& group(const std::vector<int>& members);
  void wait_all(Group& group, const std::vector<int>& members, int me,
                std::unique_lock<std::mutex>& lock, const std::string& what);
  void check_live(const std::vector<int>& members, int me, const std::string& what) const;

  const int world_size_;
  const SimMode mode_;
  // One lock for the whole world: simulated ranks are few and collectives are coarse.
  std::mutex mutex_;
  std::condition_variable changed_;
  bool aborted_ = false;
  std::string abort_reason_;
  std::vector<bool> finished_;
  std::map<std::vector<int>, std::unique_ptr<Group>> groups_;
  std::map<std::pair<int, int>, std::deque<at::Tensor>> mailboxes_;  // (from, to)
};

}  // namespace pkb::ref
