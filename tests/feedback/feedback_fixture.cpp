// Fixture helpers of the feedback tests (see feedback_fixture.h).
#include "tests/feedback/feedback_fixture.h"

#include <filesystem>

#include "src/common/error.h"
#include "src/common/file_bytes.h"

namespace pkb::feedback {
namespace {

const std::filesystem::path kData = std::filesystem::path(PKB_SOURCE_DIR) / "tests/feedback/data";

}  // namespace

std::string data_text(const std::string& name) {
  const auto text = read_file(kData / name);
  if (!text) throw Error((kData / name).string() + ": cannot read the test data");
  return *text;
}

nlohmann::json load_record(const std::string& status) {
  return nlohmann::json::parse(data_text(status + ".json"));
}

results::Record typed(const nlohmann::json& record) {
  return results::record_from_json(record, "test record");
}

const FeedbackTemplate& default_template() {
  static const FeedbackTemplate tmpl =
      FeedbackTemplate::load(std::filesystem::path(PKB_SOURCE_DIR) / "prompts/feedback.md");
  return tmpl;
}

Feedback feedback_for(const nlohmann::json& record, const std::string& compile_log) {
  return make_feedback(typed(record), compile_log, default_template(), 1, 3);
}

::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "missing:\n" << part << "\nin:\n" << text;
}

::testing::AssertionResult lacks(const std::string& text, const std::string& part) {
  const std::size_t at = text.find(part);
  if (at == std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "found '" << part << "' at " << at << " in:\n" << text;
}

}  // namespace pkb::feedback
