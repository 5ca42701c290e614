// How many requests one provider may have in flight: at most `max`, halved on every rate-limit or
// overload answer and grown back by one after a run of successes (AIMD),
// so a burst of 429s slows the whole run instead of every worker hammering the provider.
#pragma once

#include <condition_variable>
#include <mutex>

namespace pkb::model {

class ConcurrencyLimit {
 public:
  explicit ConcurrencyLimit(int max);
  void acquire();
  void release();
  void on_rate_limited();  // halve the allowance (at least 1)
  void on_success();       // after kGrowAfter successes in a row, one more (at most max)
  int allowed() const;
  int in_flight() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  int max_;
  int allowed_;
  int in_flight_ = 0;
  int successes_ = 0;
};

/// Holds one slot for a scope.
class ConcurrencySlot {
 public:
  explicit ConcurrencySlot(ConcurrencyLimit& limit) : limit_(limit) { limit_.acquire(); }
  ~ConcurrencySlot() { limit_.release(); }
  ConcurrencySlot(const ConcurrencySlot&) = delete;
  ConcurrencySlot& operator=(const ConcurrencySlot&) = delete;

 private:
  ConcurrencyLimit& limit_;
};

}  // namespace pkb::model
