// Examples are sorted by file name (byte order), never by directory order, so the prompt is stable.
#include "src/prompt/examples.h"

#include <algorithm>
#include <vector>

#include "src/common/error.h"
#include "src/common/file_bytes.h"

namespace pkb::prompt {
namespace {

std::vector<std::filesystem::path> sorted_entries(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> entries;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (!name.empty() && name[0] != '.') entries.push_back(entry.path());
  }
  std::sort(entries.begin(), entries.end());
  return entries;
}

std::string file_text(const std::filesystem::path& path) {
  auto text = read_file(path);
  if (!text) throw InputError(path.string() + ": cannot read the example");
  std::string body = *text;
  if (!body.empty() && body.back() != '\n') body += '\n';
  const std::string ext = path.extension().string();
  if (ext == ".md" || ext == ".txt") return body;
  const std::string language = ext == ".cu" || ext == ".cuh" ? "cuda"
                               : ext == ".json"              ? "json"
                               : ext == ".py"                ? "python"
                                                             : "";
  return path.filename().string() + ":\n```" + language + "\n" + body + "```\n";
}

}  // namespace

ExamplesText examples_text(const std::filesystem::path& dir, const std::string& skip_prefix) {
  ExamplesText out;
  if (dir.empty() || !std::filesystem::is_directory(dir)) return out;
  for (const auto& entry : sorted_entries(dir)) {
    if (!skip_prefix.empty() && entry.filename().string().rfind(skip_prefix, 0) == 0) {
      ++out.skipped;
      continue;
    }
    out.text += (out.count ? "\n" : "") + std::string("### ") + entry.filename().string() + "\n\n";
    if (std::filesystem::is_directory(entry)) {
      bool first = true;
      for (const auto& file : sorted_entries(entry)) {
        if (!std::filesystem::is_regular_file(file)) continue;
        out.text += (first ? "" : "\n") + file_text(file);
        first = false;
      }
    } else {
      out.text += file_text(entry);
    }
    ++out.count;
  }
  return out;
}

}  // namespace pkb::prompt
