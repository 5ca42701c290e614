// See litmus_case.h.
#include "tests/ptx/litmus/litmus_case.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace pkb::ptx_test {
namespace {

std::string trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

std::vector<std::string> split(const std::string& text, const std::string& separator) {
  std::vector<std::string> parts;
  std::size_t at = 0;
  for (std::size_t next; (next = text.find(separator, at)) != std::string::npos; at = next + separator.size())
    parts.push_back(trim(text.substr(at, next - at)));
  parts.push_back(trim(text.substr(at)));
  return parts;
}

class CaseReader {
 public:
  CaseReader(std::string path, LitmusCase& c) : path_(std::move(path)), c_(c) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(path_ + (line_ > 0 ? ":" + std::to_string(line_) : "") + ": " + what);
  }
  void at_line(int line) { line_ = line; }

  std::uint32_t number(const std::string& text) const {
    try {
      std::size_t used = 0;
      const long long value = std::stoll(text, &used, 0);
      if (used == text.size() && value >= -2147483648LL && value <= 4294967295LL)
        return static_cast<std::uint32_t>(value);
    } catch (const std::exception&) {
    }
    fail("'" + text + "' is not a 32-bit number");
  }

  void locations(const std::string& value) {
    std::istringstream in(value);
    for (std::string item; in >> item;) {
      const auto eq = item.find('=');
      if (eq == std::string::npos) fail("location '" + item + "' needs an initial value (name=value)");
      c_.locations.push_back({item.substr(0, eq), number(item.substr(eq + 1))});
    }
    if (c_.locations.empty()) fail("locations: lists no location");
  }

  void thread(const std::string& header) {
    std::istringstream in(header);
    LitmusThread t;
    std::string word;
    in >> word >> t.name;
    std::set<std::string> seen;
    while (in >> word) {
      const auto eq = word.find('=');
      const std::string key = word.substr(0, eq);
      if (eq == std::string::npos || (key != "rank" && key != "block" && key != "thread"))
        fail("thread " + t.name + ": '" + word + "' is not rank=R, block=B or thread=T");
      const int value = static_cast<int>(number(word.substr(eq + 1)));
      (key == "rank" ? t.rank : key == "block" ? t.block : t.thread) = value;
      seen.insert(key);
    }
    if (t.name.empty() || seen.size() != 3) fail("a thread line reads 'thread P0 rank=R block=B thread=T'");
    c_.threads.push_back(t);
  }

  LitmusValue value(const std::string& text) const {
    LitmusValue v;
    const auto colon = text.find(':');
    if (colon != std::string::npos) {
      v.kind = LitmusValue::Kind::reg;
      const std::string thread = text.substr(0, colon), reg = text.substr(colon + 1);
      const auto it = std::find_if(c_.threads.begin(), c_.threads.end(),
                                   [&](const LitmusThread& t) { return t.name == thread; });
      if (it == c_.threads.end()) fail("condition names thread '" + thread + "', which the case does not have");
      v.thread = static_cast<int>(it - c_.threads.begin());
      if (reg.size() < 2 || reg[0] != 'r') fail("condition register '" + reg + "' is not r0..r15");
      v.reg = static_cast<int>(number(reg.substr(1)));
      if (v.reg > 15) fail("condition register '" + reg + "' is not r0..r15");
      return v;
    }
    for (std::size_t l = 0; l < c_.locations.size(); ++l)
      if (c_.locations[l].name == text) {
        v.kind = LitmusValue::Kind::location;
        v.location = static_cast<int>(l);
        return v;
      }
    v.number = number(text);
    return v;
  }

  void weak(const std::string& text) {
    c_.weak_text = text;
    for (const std::string& conjunction : split(text, "||")) {
      std::vector<LitmusTerm> terms;
      for (const std::string& term : split(conjunction, "&&")) {
        const bool equal = term.find("==") != std::string::npos;
        const auto op = term.find(equal ? "==" : "!=");
        if (op == std::string::npos) fail("condition term '" + term + "' is not 'a == b' or 'a != b'");
        terms.push_back({value(trim(term.substr(0, op))), value(trim(term.substr(op + 2))), equal});
      }
      c_.weak.push_back(terms);
    }
  }

 private:
  std::string path_;
  LitmusCase& c_;
  int line_ = 0;
};

// One `key: value` line's meaning (the caller checked the key; `weak:` waits for the threads).
void set_field(CaseReader& reader, LitmusCase& c, const std::string& key, const std::string& value) {
  if (key == "source") c.source = value;
  if (key == "commit") c.commit = value;
  if (key == "locations") reader.locations(value);
  if (key == "home") c.home = static_cast<int>(reader.number(value));
  if (key == "expect_detector_disagreement") c.disagreement = value;
  if (key == "space") {
    if (value != "global" && value != "shared") reader.fail("space: is 'global' or 'shared'");
    c.shared = value == "shared";
  }
  if (key == "model") {
    if (value != "forbidden" && value != "allowed") reader.fail("model: is 'forbidden' or 'allowed'");
    c.forbidden = value == "forbidden";
  }
  if (key == "race") {
    if (value != "none" && value != "warning" && value != "error") reader.fail("race: is none, warning or error");
    c.race = value == "none" ? LitmusRace::none : value == "warning" ? LitmusRace::warning : LitmusRace::error;
  }
}

// What a whole case needs: every required key, threads with bodies, a placement the space allows.
void check_complete(CaseReader& reader, const LitmusCase& c, const std::set<std::string>& keys) {
  reader.at_line(0);  // what is missing has no line
  for (const char* required : {"source", "commit", "verdict_from", "locations", "weak", "model", "race", "why"})
    if (!keys.count(required)) reader.fail(std::string("the case has no '") + required + ":' line");
  if (c.threads.empty()) reader.fail("the case has no thread");
  for (const auto& t : c.threads) {
    if (t.body.empty()) reader.fail("thread " + t.name + " has an empty body");
    if (c.shared && (t.rank != 0 || t.block != 0))
      reader.fail("space: shared needs every thread in block 0 of rank 0 (" + t.name + " is not)");
  }
}

}  // namespace

int LitmusCase::world() const {
  int ranks = home + 1;
  for (const auto& t : threads) ranks = std::max(ranks, t.rank + 1);
  return ranks;
}

int LitmusCase::blocks() const {
  int count = 1;
  for (const auto& t : threads) count = std::max(count, t.block + 1);
  return count;
}

int LitmusCase::threads_per_block() const {
  int count = 1;
  for (const auto& t : threads) count = std::max(count, t.thread + 1);
  return count;
}

LitmusCase load_litmus_case(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  LitmusCase c;
  c.file = path.substr(path.find_last_of('/') + 1);
  CaseReader reader(path, c);
  std::set<std::string> keys;
  std::string weak_text;
  int weak_line = 0, number = 0;
  bool in_thread = false;
  for (std::string line; std::getline(in, line);) {
    reader.at_line(++number);
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    if (line[0] == ' ' || line[0] == '\t') {
      if (!in_thread) reader.fail("an indented line outside a thread's body");
      c.threads.back().body.push_back(trim(line));
      continue;
    }
    in_thread = false;
    if (line.rfind("thread ", 0) == 0) {
      reader.thread(line);
      in_thread = true;
      continue;
    }
    const auto colon = line.find(':');
    if (colon == std::string::npos) reader.fail("'" + trim(line) + "' is not 'key: value' or a thread line");
    const std::string key = line.substr(0, colon), value = trim(line.substr(colon + 1));
    static const std::set<std::string> kKeys = {"source", "commit", "verdict_from", "translation", "locations",
                                                "home", "space", "weak", "model", "race", "why",
                                                "expect_detector_disagreement"};
    if (!kKeys.count(key)) reader.fail("unknown key '" + key + "'");
    if (keys.count(key) && key != "translation" && key != "why") reader.fail("'" + key + "' appears twice");
    keys.insert(key);
    if (key == "weak") weak_text = value, weak_line = number;
    else set_field(reader, c, key, value);
  }
  check_complete(reader, c, keys);
  reader.at_line(weak_line);
  reader.weak(weak_text);  // after every thread and location is known
  return c;
}

bool condition_holds(const LitmusCondition& condition, const std::vector<std::vector<std::uint32_t>>& regs,
                     const std::vector<std::uint32_t>& memory) {
  auto get = [&](const LitmusValue& v) -> std::uint32_t {
    switch (v.kind) {
      case LitmusValue::Kind::reg: return regs[static_cast<std::size_t>(v.thread)][static_cast<std::size_t>(v.reg)];
      case LitmusValue::Kind::location: return memory[static_cast<std::size_t>(v.location)];
      case LitmusValue::Kind::number: return v.number;
    }
    return 0;
  };
  for (const auto& conjunction : condition) {
    bool all = true;
    for (const auto& term : conjunction) all = all && ((get(term.left) == get(term.right)) == term.equal);
    if (all) return true;
  }
  return false;
}

std::string race_name(LitmusRace race) {
  return race == LitmusRace::none ? "none" : race == LitmusRace::warning ? "warning" : "error";
}

}  // namespace pkb::ptx_test
