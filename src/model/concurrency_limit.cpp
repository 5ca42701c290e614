// The AIMD allowance. kGrowAfter: enough successes that one lucky answer does not undo a cut.
#include "src/model/concurrency_limit.h"

#include <algorithm>

namespace pkb::model {
namespace {
constexpr int kGrowAfter = 8;
}

ConcurrencyLimit::ConcurrencyLimit(int max) : max_(std::max(1, max)), allowed_(max_) {}

void ConcurrencyLimit::acquire() {
  std::unique_lock<std::mutex> lock(mutex_);
  freed_.wait(lock, [this] { return in_flight_ < allowed_; });
  ++in_flight_;
}

void ConcurrencyLimit::release() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --in_flight_;
  }
  freed_.notify_all();
}

void ConcurrencyLimit::on_rate_limited() {
  std::lock_guard<std::mutex> lock(mutex_);
  allowed_ = std::max(1, allowed_ / 2);
  successes_ = 0;
}

void ConcurrencyLimit::on_success() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (++successes_ < kGrowAfter || allowed_ >= max_) return;
    ++allowed_;
    successes_ = 0;
  }
  freed_.notify_all();
}

int ConcurrencyLimit::allowed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return allowed_;
}

int ConcurrencyLimit::in_flight() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return in_flight_;
}

}  // namespace pkb::model
