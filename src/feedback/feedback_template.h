// The template of a feedback message (prompts/feedback.md by default): the text files of
// src/prompt/template.h, checked when loaded against the names make_feedback fills in.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "src/prompt/template.h"

namespace pkb::feedback {

class FeedbackTemplate {
 public:
  /// Throws pkb::InputError naming the file for an unreadable template or an unknown placeholder.
  static FeedbackTemplate load(const std::filesystem::path& path);
  /// `source` names the text in errors (a path, or a label for a built-in text).
  static FeedbackTemplate from_text(std::string text, std::string source);

  /// The names a template may use: status, verdict, details, warnings, scope, note, problem,
  /// turn, turns, turns_left, last_turn, correct.
  static const std::vector<std::string>& placeholders();

  /// `values` must hold every name of placeholders(); throws pkb::InputError naming source()
  /// otherwise.
  std::string render(const prompt::TemplateValues& values) const;

  const std::string& text() const { return text_; }
  const std::string& source() const { return source_; }

 private:
  FeedbackTemplate(std::string text, std::string source);

  std::string text_;
  std::string source_;
};

/// prompts/feedback.md of this checkout, or of $PKB_PROMPTS_DIR when it is set (as for task.md).
std::filesystem::path default_template_path();

}  // namespace pkb::feedback
