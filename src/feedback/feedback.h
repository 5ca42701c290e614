// The user message of a refinement turn (`pkb run --turns T`, issue 9): what the machine found
// about the previous answer, rendered through a feedback template. Built from a whitelist of
// record fields only, so no seed, expected value, harness code or log path can reach the model.
#pragma once

#include <string>

#include "src/feedback/feedback_template.h"
#include "src/results/record.h"

namespace pkb::feedback {

struct Feedback {
  std::string text;   // the user message for the next turn (the rendered template)
  std::string scope;  // "format", "compile", "plan", "run", "correctness" or "timing": how far the
                      // machine could judge this answer
  std::string note;   // "" or why it stopped short, e.g. "not run on a GPU: <no_gpu_reason>"
};

/// `record`: the final sample record of the turn just evaluated (schema 2, docs/RESULTS.md).
/// `log`: the full compile log (NVRTC output, not trimmed) or "" when there is none.
/// `next_turn`: 0-based index of the turn this feedback starts; `turns`: T.
/// Throws pkb::InputError for a record without a known status, pkb::Error for an api_error record
/// (there was no answer) or for next_turn outside 1..turns-1.
Feedback make_feedback(const results::Record& record, const std::string& compile_log,
                       const FeedbackTemplate& tmpl, int next_turn, int turns);

}  // namespace pkb::feedback
