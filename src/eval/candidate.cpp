// load_candidate: a solution file as a model wrote it, or a .cu source plus a plan file.
#include "src/common/error.h"
#include "src/common/file_bytes.h"
#include "src/eval/eval.h"
#include "src/extract/extract.h"

namespace pkb::eval {
namespace {

std::string read_text(const std::filesystem::path& path, const std::string& what) {
  auto text = read_file(path);
  if (!text) throw InputError(path.string() + ": cannot read the " + what);
  return *text;
}

}  // namespace

Candidate load_candidate(const std::filesystem::path& solution_path, const std::filesystem::path& plan_path) {
  Candidate candidate;
  const std::string solution = read_text(solution_path, "solution");
  if (!plan_path.empty()) {
    candidate.source = solution;
    candidate.plan_json = read_text(plan_path, "plan");
    return candidate;
  }
  const auto ext = solution_path.extension();
  if (ext == ".cu" || ext == ".cuh")
    throw UsageError(solution_path.string() + ": a CUDA source needs its plan: add --plan FILE.json");
  const auto extraction = extract::extract_solution(solution, false);
  if (!extraction.ok()) {
    candidate.format_error =
        std::string(extract::format_reason_name(*extraction.error)) + ": " + extraction.message;
    return candidate;
  }
  candidate.source = extraction.cuda;
  candidate.plan_json = extraction.plan_json;
  return candidate;
}

std::filesystem::path default_cache_dir() {
  if (const char* dir = std::getenv("PKB_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "pkb" / "nvrtc";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".cache" / "pkb" / "nvrtc";
  return {};
}

}  // namespace pkb::eval
