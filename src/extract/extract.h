// The solution inside a model's visible answer (docs/ABI.md): the last closed ```cuda block and
// the last closed ```json block. Every way an answer can fail that rule is its own FormatReason,
// recorded as the sample's format_error reason; the raw text is never used as a fallback.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pkb::extract {

/// Enumerators equal their serialized names (samples.jsonl `format_reason`).
enum class FormatReason {
  empty_answer,    // no visible text at all
  refused,         // the provider said the model refused
  filtered,        // the provider withheld the answer (content filter, safety)
  truncated,       // the answer hit the token cap before its blocks were complete
  unclosed_fence,  // a required block's fence never closed, and the answer was not truncated
  missing_cuda_block,
  missing_json_block,
  multiple_cuda_blocks,  // two different closed blocks that each define kernels
  multiple_json_blocks,  // two different closed blocks that each parse as a JSON object
  invalid_json,          // the json block does not parse (message gives line and column)
};

std::string_view format_reason_name(FormatReason reason);

struct Extraction {
  std::optional<FormatReason> error;  // empty: the solution was found
  std::string message;                // one line: what was found, for the sample record
  std::string cuda;                   // the source (body of the chosen block)
  std::string plan_json;              // the plan text as written
  int cuda_blocks = 0;                // closed blocks of each kind seen in the visible answer
  int json_blocks = 0;
  bool cuda_alias_used = false;  // the block was tagged cu or cuh rather than cuda

  bool ok() const { return !error.has_value(); }
};

/// `visible_text` is the answer without reasoning (thinking blocks, reasoning fields): <think>
/// spans still inside it are removed here. `truncated`: the provider's stop reason said so.
Extraction extract_solution(const std::string& visible_text, bool truncated);

}  // namespace pkb::extract
