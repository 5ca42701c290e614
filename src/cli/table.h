// Fixed-width text tables for stdout: '#' configuration lines, a header with units, rows, and a
// closing verdict line (docs/STYLE.md, "Output").
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace pkb::cli {

class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void add_comment(const std::string& line) { comments_.push_back(line); }
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void set_verdict(const std::string& line) { verdict_ = line; }
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::string> comments_;
  std::vector<std::vector<std::string>> rows_;
  std::string verdict_;
};

}  // namespace pkb::cli
