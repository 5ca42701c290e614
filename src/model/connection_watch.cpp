// ConnectionWatch (see connection_watch.h).
#include "src/model/connection_watch.h"

namespace pkb::model {

std::optional<std::string> ConnectionWatch::failed(const std::string& error) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (++in_row_ < limit_) return std::nullopt;
  // The limit, not the count: requests racing past it all report the same reason, whichever
  // of them stops the client first.
  return std::to_string(limit_) + " connections in a row failed (" + error + ")";
}

void ConnectionWatch::connected() {
  std::lock_guard<std::mutex> lock(mutex_);
  in_row_ = 0;
}

}  // namespace pkb::model
