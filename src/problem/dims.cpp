// Parsing of --dims.
#include "src/problem/dims.h"

#include <sstream>
#include <vector>

#include "src/common/did_you_mean.h"
#include "src/common/error.h"
#include "src/problem/size_rules.h"

namespace pkb::problem {

std::map<std::string, std::int64_t> select_dims(const ProblemSpec& spec, const std::string& text,
                                                DimsBase default_base) {
  std::map<std::string, std::int64_t> dims =
      default_base == DimsBase::test ? spec.test_dims : spec.dims;
  std::stringstream items(text);
  std::string item;
  bool first = true;
  while (std::getline(items, item, ',')) {
    const bool is_first = first;
    first = false;
    if (item == "test" || item == "bench") {
      if (!is_first) throw UsageError("--dims " + text + ": 'test' or 'bench' must come first");
      dims = item == "test" ? spec.test_dims : spec.dims;
      continue;
    }
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw UsageError("--dims " + text + ": expected test, bench or NAME=SIZE, got '" + item + "'");
    const std::string name = item.substr(0, eq);
    if (!dims.count(name)) {
      std::vector<std::string> known;
      for (const auto& [dim, size] : dims) known.push_back(dim);
      std::string hint;
      if (auto near = closest_match(name, known)) hint = ", did you mean '" + *near + "'?";
      throw UsageError("--dims " + text + ": " + spec.key + " has no dim '" + name + "'" + hint);
    }
    std::int64_t size = 0;
    std::size_t used = 0;
    try {
      size = std::stoll(item.substr(eq + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size() - eq - 1 || size <= 0)
      throw UsageError("--dims " + text + ": " + name + " must be a positive integer, got '" +
                       item.substr(eq + 1) + "'");
    dims[name] = size;
  }
  return dims;
}

std::map<std::string, std::int64_t> select_dims(const ProblemSpec& spec, const std::string& text,
                                                DimsBase default_base,
                                                const std::vector<int>& worlds) {
  auto dims = select_dims(spec, text, default_base);
  for (int world : worlds) check_size_rules(spec, dims, world, text);
  return dims;
}

}  // namespace pkb::problem
