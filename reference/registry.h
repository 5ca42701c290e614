// The registry of C++ references: each reference/NNN_name.cpp registers its input generator and
// its solution under the problem's key with PKB_REGISTER_REFERENCE (see docs/STYLE.md, "References").
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "reference/comm/comm.h"
#include "reference/inputs.h"
#include "reference/tensors.h"

namespace pkb::ref {

using MakeInputsFn = std::function<Tensors(InputContext&)>;
/// Runs once per rank, on that rank's thread, with that rank's communicator.
using SolveFn = std::function<Tensors(Comm&, const Tensors&, const Scalars&)>;

struct Reference {
  std::string key;  // "001_allreduce"
  MakeInputsFn make_inputs;
  SolveFn solve;
};

/// Throws pkb::Error for a key registered twice.
bool register_reference(Reference reference);
/// nullptr when no reference is registered under `key`.
const Reference* find_reference(const std::string& key);
std::vector<std::string> registered_keys();  // sorted

}  // namespace pkb::ref

#define PKB_REFERENCE_CONCAT_INNER(a, b) a##b
#define PKB_REFERENCE_CONCAT(a, b) PKB_REFERENCE_CONCAT_INNER(a, b)
#define PKB_REGISTER_REFERENCE(key, make_inputs, solve)                      \
  [[maybe_unused]] static const bool PKB_REFERENCE_CONCAT(pkb_registered_, \
                                                         __LINE__) =        \
      ::pkb::ref::register_reference({key, make_inputs, solve})
