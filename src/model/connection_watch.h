// Connection failures in a row, across every request of one client: a server that dies mid-run
// stops the run after a few failed connects (FailureKind::stop_run) instead of costing every
// queued sample its whole retry budget. Any request that reaches the server starts the count again.
#pragma once

#include <mutex>
#include <optional>
#include <string>

namespace pkb::model {

class ConnectionWatch {
 public:
  explicit ConnectionWatch(int limit) : limit_(limit) {}
  /// A request could not connect (`error` says why). Once `limit` have failed in a row, says so:
  /// "3 connections in a row failed (Couldn't connect to server)".
  std::optional<std::string> failed(const std::string& error);
  void connected();

 private:
  std::mutex mutex_;
  int limit_;
  int in_row_ = 0;
};

}  // namespace pkb::model
