// A range A-B takes every problem whose id is in [A, B]; a range that matches none is an error.
#include "src/cli/problem_list.h"

#include <algorithm>
#include <sstream>

#include "src/common/error.h"

namespace pkb::cli {
namespace {

int key_id(const std::string& key) { return std::stoi(key.substr(0, key.find('_'))); }

bool is_number(const std::string& text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

std::vector<std::string> parse_problem_list(const problem::ProblemIndex& index,
                                            const std::string& text) {
  if (text == "all") return index.keys();
  std::vector<std::string> keys;
  auto add = [&keys](const std::string& key) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  };
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    const std::size_t dash = item.find('-');
    if (dash != std::string::npos && is_number(item.substr(0, dash)) &&
        is_number(item.substr(dash + 1))) {
      const int first = std::stoi(item.substr(0, dash)), last = std::stoi(item.substr(dash + 1));
      if (first > last) throw UsageError("--problems " + text + ": range " + item + " is empty");
      bool any = false;
      for (const auto& key : index.keys())
        if (key_id(key) >= first && key_id(key) <= last) {
          add(key);
          any = true;
        }
      if (!any) throw UsageError("--problems " + text + ": no problem has an id in " + item);
      continue;
    }
    try {
      add(index.resolve(item));
    } catch (const UsageError& error) {
      throw UsageError("--problems " + text + ": " + error.what());
    }
  }
  if (keys.empty())
    throw UsageError("--problems: expected all or a list such as 1-8,13, got nothing");
  return keys;
}

}  // namespace pkb::cli
