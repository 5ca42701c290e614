// extract_solution: the rule of extract.h. Which block counts as a "candidate" for the
// two-blocks rule: a cuda block that defines a __global__ function (a fragment quoted while
// explaining does not), a json block that parses as an object (an illustrative snippet does not).
#include "src/extract/extract.h"

#include <nlohmann/json.hpp>
#include <vector>

#include "src/extract/fence_scanner.h"

namespace pkb::extract {
namespace {

enum class Kind { cuda, json, other };

Kind kind_of(const std::string& language, bool& alias) {
  alias = language == "cu" || language == "cuh";
  if (language == "cuda" || alias) return Kind::cuda;
  if (language == "json") return Kind::json;
  return Kind::other;
}

bool is_cuda_candidate(const std::string& body) {
  return body.find("__global__") != std::string::npos;
}

bool is_json_candidate(const std::string& body) {
  const auto parsed = nlohmann::json::parse(body, nullptr, false);
  return !parsed.is_discarded() && parsed.is_object();
}

// Line and column of a byte offset, for a parse error in the plan.
std::string position_text(const std::string& text, std::size_t offset) {
  int line = 1, column = 1;
  for (std::size_t index = 0; index < offset && index < text.size(); ++index) {
    if (text[index] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

Extraction fail(Extraction out, FormatReason reason, std::string message) {
  out.error = reason;
  out.message = std::move(message);
  return out;
}

// The last closed block of `kind`, and whether an earlier, different candidate competes with it.
struct Choice {
  const FencedBlock* block = nullptr;
  bool alias = false;
  bool ambiguous = false;
  bool unclosed = false;  // a block of this kind never closed
};

Choice choose(const std::vector<FencedBlock>& blocks, Kind kind, int& count) {
  Choice choice;
  std::vector<const FencedBlock*> closed;
  for (const auto& block : blocks) {
    bool alias = false;
    if (kind_of(block.language, alias) != kind) continue;
    if (!block.closed) {
      choice.unclosed = true;
      continue;
    }
    closed.push_back(&block);
    choice.block = &block;
    choice.alias = alias;
  }
  count = static_cast<int>(closed.size());
  if (closed.size() < 2) return choice;
  auto candidate = [kind](const FencedBlock& block) {
    return kind == Kind::cuda ? is_cuda_candidate(block.body) : is_json_candidate(block.body);
  };
  if (!candidate(*choice.block)) return choice;
  for (std::size_t index = 0; index + 1 < closed.size(); ++index)
    if (closed[index]->body != choice.block->body && candidate(*closed[index]))
      choice.ambiguous = true;
  return choice;
}

}  // namespace

std::string_view format_reason_name(FormatReason reason) {
  switch (reason) {
    case FormatReason::empty_answer: return "empty_answer";
    case FormatReason::refused: return "refused";
    case FormatReason::filtered: return "filtered";
    case FormatReason::truncated: return "truncated";
    case FormatReason::unclosed_fence: return "unclosed_fence";
    case FormatReason::missing_cuda_block: return "missing_cuda_block";
    case FormatReason::missing_json_block: return "missing_json_block";
    case FormatReason::multiple_cuda_blocks: return "multiple_cuda_blocks";
    case FormatReason::multiple_json_blocks: return "multiple_json_blocks";
    case FormatReason::invalid_json: return "invalid_json";
  }
  return "unknown";
}

Extraction extract_solution(const std::string& visible_text, bool truncated) {
  Extraction out;
  const std::string text = strip_think_spans(visible_text);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    return fail(
        out, truncated ? FormatReason::truncated : FormatReason::empty_answer,
        truncated ? "truncated (max tokens) before any visible answer" : "the answer is empty");
  const auto blocks = scan_fenced_blocks(text);
  const Choice cuda = choose(blocks, Kind::cuda, out.cuda_blocks);
  const Choice json = choose(blocks, Kind::json, out.json_blocks);
  const bool any_unclosed = !blocks.empty() && !blocks.back().closed;

  // A truncated answer whose blocks are incomplete failed because of the cap, not its format.
  if (truncated && (!cuda.block || !json.block || any_unclosed))
    return fail(
        out, FormatReason::truncated,
        "truncated (max tokens)" +
            std::string(any_unclosed ? " inside an unclosed ```" + blocks.back().language + " block"
                                     : ""));
  if ((!cuda.block && cuda.unclosed) || (!json.block && json.unclosed) ||
      (any_unclosed && (!cuda.block || !json.block)))
    return fail(out, FormatReason::unclosed_fence,
                "the ```" + blocks.back().language + " block opened on line " +
                    std::to_string(blocks.back().first_line) + " is never closed");
  if (!cuda.block)
    return fail(out, FormatReason::missing_cuda_block,
                "no closed ```cuda block (" + std::to_string(blocks.size()) +
                    " fenced blocks in the answer)");
  if (!json.block)
    return fail(out, FormatReason::missing_json_block,
                "no closed ```json block (" + std::to_string(blocks.size()) +
                    " fenced blocks in the answer)");
  if (cuda.ambiguous)
    return fail(
        out, FormatReason::multiple_cuda_blocks,
        std::to_string(out.cuda_blocks) + " different ```cuda blocks define kernels; give one");
  if (json.ambiguous)
    return fail(
        out, FormatReason::multiple_json_blocks,
        std::to_string(out.json_blocks) + " different ```json blocks hold a plan; give one");
  out.cuda = cuda.block->body;
  out.plan_json = json.block->body;
  out.cuda_alias_used = cuda.alias;
  try {
    const auto plan = nlohmann::json::parse(out.plan_json);
    (void)plan;
  } catch (const nlohmann::json::parse_error& error) {
    return fail(out, FormatReason::invalid_json,
                "the ```json block (line " + std::to_string(json.block->first_line) +
                    ") does not parse: at " +
                    position_text(out.plan_json, error.byte > 0 ? error.byte - 1 : 0));
  }
  out.message = "found ```" + cuda.block->language + " (" + std::to_string(out.cuda_blocks) +
                " closed) and ```json (" + std::to_string(out.json_blocks) + " closed)";
  return out;
}

}  // namespace pkb::extract
