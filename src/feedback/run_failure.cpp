// run_failure_details: the worker's messages read "trial 1: rank 3: CUDA_ERROR_ILLEGAL_ADDRESS:
// an illegal memory access was encountered", "timing: rank 2 did not finish within 10 s" or
// "no result after 600 s (at trial 1: call): the worker was killed" (harness/executor/).
#include "src/feedback/run_failure.h"

#include <cctype>
#include <vector>

#include "src/feedback/redact.h"

namespace pkb::feedback {
namespace {

constexpr std::size_t kMaxLineChars = 300;

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool word_starts(const std::string& text, std::size_t pos) {
  return pos == 0 || !is_word_char(text[pos - 1]);
}

// The number after the first whole word `word ` ("rank 3" -> "3"), or "".
std::string number_after(const std::string& text, const std::string& word) {
  for (std::size_t pos = text.find(word + " "); pos != std::string::npos;
       pos = text.find(word + " ", pos + 1)) {
    if (!word_starts(text, pos)) continue;
    std::size_t end = pos + word.size() + 1;
    const std::size_t begin = end;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end > begin) return text.substr(begin, end - begin);
  }
  return "";
}

// "kernel 'name'" as the harness quotes kernel names, or "".
std::string quoted_kernel(const std::string& text) {
  const std::size_t pos = text.find("kernel '");
  if (pos == std::string::npos) return "";
  const std::size_t begin = pos + 8;
  const std::size_t end = text.find('\'', begin);
  return end == std::string::npos ? "" : text.substr(begin, end - begin);
}

// The CUDA driver's name (CUDA_ERROR_ILLEGAL_ADDRESS), the runtime's (cudaErrorIllegalAddress)
// or cuBLAS's (CUBLAS_STATUS_EXECUTION_FAILED), whichever the message carries first.
std::string cuda_error_name(const std::string& text) {
  for (const char* prefix : {"CUDA_ERROR_", "cudaError", "CUBLAS_STATUS_"}) {
    const std::size_t pos = text.find(prefix);
    if (pos == std::string::npos || !word_starts(text, pos)) continue;
    std::size_t end = pos;
    while (end < text.size() && is_word_char(text[end])) ++end;
    return text.substr(pos, end - pos);
  }
  return "";
}

// Where the candidate was: "(at STAGE)" when the worker died, else the part before ": rank N"
// ("trial 1: rank 3: ..."), else the record's eval.stage.
std::string stage_of(const std::string& message, const std::string& eval_stage) {
  const std::size_t at = message.find("(at ");
  if (at != std::string::npos) {
    const std::size_t end = message.find(')', at);
    if (end != std::string::npos) return message.substr(at + 4, end - at - 4);
  }
  const std::size_t rank = message.find(": rank ");
  if (rank != std::string::npos && rank > 0) return message.substr(0, rank);
  return eval_stage;
}

}  // namespace

std::string run_failure_details(const results::Record& record) {
  const std::string message = redact_paths(record.message.value_or(""));
  std::vector<std::pair<std::string, std::string>> lines;
  const std::string rank = number_after(message, "rank");
  if (!rank.empty()) lines.emplace_back("rank", rank);
  std::string where;
  const std::string kernel = quoted_kernel(message);
  if (!kernel.empty()) where = "kernel '" + kernel + "'";
  const std::string step = number_after(message, "step");
  if (!step.empty()) where += (where.empty() ? "" : ", ") + std::string("step ") + step;
  if (!where.empty()) lines.emplace_back("kernel/step", where);
  const std::string error = cuda_error_name(message);
  if (!error.empty()) lines.emplace_back("CUDA error", error);
  const std::string stage = stage_of(
      message, record.evaluation && record.evaluation->eval ? record.evaluation->eval->stage : "");
  if (!stage.empty()) lines.emplace_back("stage", stage);

  std::string out;
  for (const auto& [name, value] : lines)
    out += clip_line(name + ": " + value, kMaxLineChars) + "\n";
  out += clip_line("message: " + message, kMaxLineChars) + "\n";
  return out;
}

}  // namespace pkb::feedback
