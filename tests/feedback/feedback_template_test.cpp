// Feedback templates: errors that name the file, and the default template rendering every status.
#include "src/feedback/feedback_template.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "src/common/error.h"
#include "src/feedback/feedback.h"
#include "tests/feedback/feedback_fixture.h"

namespace pkb::feedback {
namespace {

std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

TEST(FeedbackTemplate, UnknownPlaceholderNamesTheFileAndLine) {
  EXPECT_EQ(error_of([] { FeedbackTemplate::from_text("ok\n{{verdict}}\n{{detials}}", "my.md"); }),
            "my.md:3: unknown placeholder 'detials', did you mean 'details'?");
  // Inside a section that an empty value would hide: still found when the template loads.
  EXPECT_EQ(error_of([] { FeedbackTemplate::from_text("{{#note}}{{nte}}{{/note}}", "s.md"); }),
            "s.md:1: unknown placeholder 'nte', did you mean 'note'?");
  EXPECT_EQ(error_of([] { FeedbackTemplate::from_text("{{#note}}open", "u.md"); }),
            "u.md:1: section 'note' is never closed with {{/note}}");
}

TEST(FeedbackTemplate, UnreadableFileIsNamed) {
  const auto path = std::filesystem::temp_directory_path() / "pkb_feedback_absent" / "feedback.md";
  EXPECT_EQ(error_of([&] { FeedbackTemplate::load(path); }),
            path.string() + ": cannot read the feedback template");
}

TEST(FeedbackTemplate, UnknownPlaceholderInAFileNamesThePath) {
  const auto dir = std::filesystem::temp_directory_path() / "pkb_feedback_template_test";
  std::filesystem::create_directories(dir);
  const auto path = dir / "feedback.md";
  { std::ofstream(path) << "{{verdict}}\n{{speedup}}\n"; }
  EXPECT_EQ(error_of([&] { FeedbackTemplate::load(path); }),
            path.string() + ":2: unknown placeholder 'speedup'");
  std::filesystem::remove(path);
}

TEST(FeedbackTemplate, CustomTemplateGetsEveryValue) {
  const FeedbackTemplate tmpl = FeedbackTemplate::from_text(
      "{{status}}|{{scope}}|{{problem}}|{{turn}}/{{turns}}|{{turns_left}}|{{#last_turn}}last{{/"
      "last_turn}}|{{#correct}}ok{{/correct}}|{{note}}",
      "custom.md");
  EXPECT_EQ(make_feedback(typed(load_record("compiled")), "", tmpl, 3, 4).text,
            "compiled|plan|002_allgather|4/4|1|last||not run on a GPU: no GPU is visible: CUDA driver "
            "version is insufficient for CUDA runtime version");
  EXPECT_EQ(make_feedback(typed(load_record("correct")), "", tmpl, 1, 4).text,
            "correct|timing|002_allgather|2/4|3||ok|");
}

class DefaultTemplate : public ::testing::TestWithParam<std::string> {};

TEST_P(DefaultTemplate, RendersEveryStatus) {
  const Feedback feedback = feedback_for(load_record(GetParam()));
  EXPECT_TRUE(contains(feedback.text, "was evaluated. The result:\n\n" + GetParam() + ": "));
  EXPECT_TRUE(contains(feedback.text,
                       "one ```cuda block with the complete source and one ```json "
                       "plan block"));
  EXPECT_TRUE(lacks(feedback.text, "{{"));
  EXPECT_TRUE(lacks(feedback.text, "\n\n\n"));
  EXPECT_FALSE(feedback.scope.empty());
}

INSTANTIATE_TEST_SUITE_P(EveryStatus, DefaultTemplate,
                         ::testing::Values("format_error", "compile_error", "plan_error",
                                           "compiled", "runtime_error", "timeout", "incorrect",
                                           "correct"));

TEST(DefaultTemplate, PathFollowsThePromptsFolder) {
  EXPECT_EQ(default_template_path().filename(), "feedback.md");
  EXPECT_NO_THROW(FeedbackTemplate::load(default_template_path()));
}

}  // namespace
}  // namespace pkb::feedback
