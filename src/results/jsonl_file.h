// Reading a JSON-lines file of a results directory (samples.jsonl, generate.jsonl): the one place
// that decides what a damaged line means. Writers append one whole line per write, so only the
// last line can be cut short, by a writer killed mid-write; it has no final newline. Such a line is
// left out and named; any other line that is not a JSON object means the file is corrupt.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pkb::results {

struct JsonlLine {
  int number = 0;     // 1-based line number in the file
  std::string text;   // as written, without the newline
  nlohmann::json record;
};

struct JsonlFile {
  std::vector<JsonlLine> lines;   // every JSON object, in file order; empty lines are ignored
  std::optional<int> torn_line;   // the last line, cut short: no final newline and not a JSON object
  bool missing_final_newline = false;  // the last line lacks its newline (torn or not): an
                                       // appender must rewrite the file before adding to it
};

/// Reads `path` (a missing file is empty). `name` is how messages call the file ("DIR/samples.jsonl").
/// Throws InputError "NAME:LINE: not valid JSON (a corrupt record; remove or repair the line)" for a
/// damaged line that is not the last, or whose newline was written.
JsonlFile read_jsonl(const std::filesystem::path& path, const std::string& name);

/// The text of `lines`, each followed by a newline: what a file holding only them contains.
std::string jsonl_text(const std::vector<JsonlLine>& lines);

}  // namespace pkb::results
