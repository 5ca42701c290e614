// Small matrices (3x3, 2x3) whose entries are broadcastable tensors, multiplied entry by entry in
// a fixed order, so a C++ reference and its Python twin round identically (used by problem 61).
#pragma once

#include <ATen/ATen.h>

#include <vector>

namespace pkb::ref {

using SmallMatrix = std::vector<std::vector<at::Tensor>>;

/// c[i][j] = a[i][0] b[0][j] + a[i][1] b[1][j] + ..., summed left to right.
inline SmallMatrix matmul(const SmallMatrix& a, const SmallMatrix& b) {
  SmallMatrix out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < b[0].size(); ++j) {
      at::Tensor acc = a[i][0] * b[0][j];
      for (std::size_t k = 1; k < b.size(); ++k) acc = acc + a[i][k] * b[k][j];
      out[i].push_back(acc);
    }
  }
  return out;
}

inline SmallMatrix transpose(const SmallMatrix& a) {
  SmallMatrix out(a[0].size());
  for (const auto& row : a) {
    for (std::size_t j = 0; j < row.size(); ++j) out[j].push_back(row[j]);
  }
  return out;
}

}  // namespace pkb::ref
