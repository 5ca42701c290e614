// Records and logs for the feedback tests: tests/feedback/data/STATUS.json are the example records
// of docs/RESULTS.md, one per status.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "src/feedback/feedback.h"

namespace pkb::feedback {

nlohmann::json load_record(const std::string& status);
/// A record as samples.jsonl would hold it, read through results::record_from_json.
results::Record typed(const nlohmann::json& record);
std::string data_text(const std::string& name);

/// prompts/feedback.md of this checkout.
const FeedbackTemplate& default_template();

/// make_feedback with the default template, for the second of three turns.
Feedback feedback_for(const nlohmann::json& record, const std::string& compile_log = "");

/// `part` occurs in `text`; on failure the message shows the whole text.
::testing::AssertionResult contains(const std::string& text, const std::string& part);
/// `part` does not occur in `text`.
::testing::AssertionResult lacks(const std::string& text, const std::string& part);

}  // namespace pkb::feedback
