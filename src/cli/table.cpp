// Table::print: every column as wide as its widest cell; the last column is not padded.
#include "src/cli/table.h"

#include <algorithm>

namespace pkb::cli {

void Table::print(std::ostream& out) const {
  std::vector<std::size_t> widths(header_.size(), 0);
  auto widen = [&](const std::vector<std::string>& row) {
    for (std::size_t column = 0; column < row.size() && column < widths.size(); ++column)
      widths[column] = std::max(widths[column], row[column].size());
  };
  widen(header_);
  for (const auto& row : rows_) widen(row);
  auto print_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t column = 0; column < row.size(); ++column) {
      line += row[column];
      if (column + 1 < row.size()) line += std::string(widths[column] - row[column].size() + 2, ' ');
    }
    out << line << "\n";
  };
  for (const auto& comment : comments_) out << "# " << comment << "\n";
  print_row(header_);
  for (const auto& row : rows_) print_row(row);
  if (!verdict_.empty()) out << verdict_ << "\n";
}

}  // namespace pkb::cli
