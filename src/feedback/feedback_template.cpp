// FeedbackTemplate: the template is rendered once at load time with every name set, so a typo in
// any section fails when the run starts, not at the first answer that reaches that section.
#include "src/feedback/feedback_template.h"

#include <cstdlib>

#include "src/common/error.h"
#include "src/common/prompts_dir.h"
#include "src/common/file_bytes.h"

namespace pkb::feedback {

const std::vector<std::string>& FeedbackTemplate::placeholders() {
  static const std::vector<std::string> kNames = {"status", "verdict",    "details",   "warnings",
                                                  "scope",  "note",       "problem",   "turn",
                                                  "turns",  "turns_left", "last_turn", "correct"};
  return kNames;
}

FeedbackTemplate::FeedbackTemplate(std::string text, std::string source)
    : text_(std::move(text)), source_(std::move(source)) {}

FeedbackTemplate FeedbackTemplate::from_text(std::string text, std::string source) {
  prompt::TemplateValues every;
  for (const auto& name : placeholders()) every[name] = "x";  // non-empty: every section is read
  prompt::render_template(text, every, source);
  return FeedbackTemplate(std::move(text), std::move(source));
}

FeedbackTemplate FeedbackTemplate::load(const std::filesystem::path& path) {
  const auto text = read_file(path);
  if (!text) throw InputError(path.string() + ": cannot read the feedback template");
  return from_text(*text, path.string());
}

std::string FeedbackTemplate::render(const prompt::TemplateValues& values) const {
  for (const auto& name : placeholders())
    if (values.count(name) == 0)
      throw InputError(source_ + ": no value for placeholder '" + name + "'");
  return prompt::render_template(text_, values, source_);
}

std::filesystem::path default_template_path() {
  return prompts_dir() / "feedback.md";
}

}  // namespace pkb::feedback
