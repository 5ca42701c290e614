// Prompts from the real template files and problems: complete, byte-stable, hashed, and with
// errors that name the file, the flag or the placeholder.
#include "src/prompt/prompt.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "src/common/error.h"
#include "src/common/sha256.h"
#include "src/problem/dims.h"
#include "src/problem/problem_index.h"
#include "src/prompt/template.h"

namespace pkb::prompt {
namespace {

const std::filesystem::path kProblems = std::filesystem::path(PKB_SOURCE_DIR) / "problems";

std::filesystem::path temp_dir(const std::string& tag) {
  std::random_device random;
  auto dir = std::filesystem::temp_directory_path() /
             ("pkb_prompt_" + tag + "_" + std::to_string(random()));
  std::filesystem::create_directories(dir);
  return dir;
}

struct Built {
  problem::ProblemSpec spec;
  Prompt prompt;
};

Built build(const std::string& problem, int world, const std::string& hardware = "h100_8",
            PromptSources* custom = nullptr) {
  problem::ProblemIndex index(kProblems);
  Built out{index.load(index.resolve(problem)), {}};
  PromptSetting setting;
  setting.world = world;
  setting.dtype = DType::bf16;
  setting.dims = problem::select_dims(out.spec, "bench", problem::DimsBase::bench);
  setting.hardware = hardware;
  PromptSources sources = custom ? *custom : default_sources(index.root());
  sources.examples_dir = custom ? custom->examples_dir : temp_dir("noexamples") / "absent";
  out.prompt = build_prompt(out.spec, setting, sources);
  return out;
}

TEST(PromptText, StatesTheSizeRulesAndThatTrialsDrawOtherSizes) {
  const std::string text = build("033", 8).prompt.text;
  EXPECT_NE(text.find("Size rules (the function must handle every size that satisfies them): M % W == 0 "
                      "(x is split into W equal row blocks, one per rank)."),
            std::string::npos);
  EXPECT_NE(text.find("correctness trials\nalso run at other sizes drawn under the rules"), std::string::npos);
  EXPECT_EQ(text.find("keeps a simulated trial cheap"), std::string::npos) << "drawn_only bounds stay out";
  EXPECT_NE(build("001", 8).prompt.text.find("Size rules (the function must handle every size that "
                                             "satisfies them): none, any size."),
            std::string::npos);
}

TEST(Sha256, MatchesFipsVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(RenderTemplate, FillsValuesAndShowsSectionsOnlyWhenNotEmpty) {
  const TemplateValues values = {{"a", "1"}, {"b", ""}, {"c", "3"}};
  EXPECT_EQ(render_template("x{{a}}y{{#b}}B{{b}}{{/b}}z{{#c}}C{{c}}{{/c}}", values, "t.md"),
            "x1yzC3");
}

TEST(RenderTemplate, UnknownPlaceholderNamesFileLineAndSuggestion) {
  try {
    render_template("line\n{{wold}}", {{"world", "8"}}, "t.md");
    FAIL();
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "t.md:2: unknown placeholder 'wold', did you mean 'world'?");
  }
  EXPECT_THROW(render_template("{{#world}}x", {{"world", "8"}}, "t.md"), InputError);
  EXPECT_THROW(render_template("{{world", {{"world", "8"}}, "t.md"), InputError);
  EXPECT_THROW(render_template("{{/world}}", {{"world", "8"}}, "t.md"), InputError);
}

TEST(BuildPrompt, HoldsTaskReferenceArgumentsHardwareAndResponseFormat) {
  const Built built = build("1", 8);
  const std::string& text = built.prompt.text;
  EXPECT_NE(text.find("001_allreduce (collective)"), std::string::npos);
  EXPECT_NE(text.find("dist.all_reduce(y, op=dist.ReduceOp.SUM)"), std::string::npos);
  EXPECT_NE(text.find("- input `x`: bf16 [M, N] = [1024, 1024] on every rank"), std::string::npos) << text;
  EXPECT_NE(text.find("- output `y`: bf16 [M, N] = [1024, 1024] on every rank"), std::string::npos);
  EXPECT_NE(text.find("In the source, P is `pkb::P`"), std::string::npos);
  EXPECT_NE(text.find("8 NVIDIA H100 SXM5 GPUs"), std::string::npos);
  EXPECT_NE(text.find("This run uses 8 of its 8 GPUs"), std::string::npos);
  EXPECT_NE(text.find("One ```cuda block"), std::string::npos);
  EXPECT_NE(text.find("One ```json block"), std::string::npos);
  EXPECT_EQ(text.find("{{"), std::string::npos);
  EXPECT_EQ(text.find("Worked examples"), std::string::npos);
  EXPECT_EQ(built.prompt.sha256, sha256_hex(text));
}

TEST(BuildPrompt, IsByteStableAndTheHashFollowsTheSetting) {
  const Built first = build("1", 8), second = build("1", 8);
  EXPECT_EQ(first.prompt.text, second.prompt.text);
  EXPECT_EQ(first.prompt.sha256, second.prompt.sha256);
  EXPECT_NE(build("1", 4).prompt.sha256, first.prompt.sha256);
  EXPECT_NE(build("1", 8, "b200_8").prompt.sha256, first.prompt.sha256);
}

// A capacity that is not a product of the sizes: M / W is right at bench dims and wrong at test
// dims for W = 8, so the prompt must show the expression, not only its value.
TEST(BuildPrompt, ShowsEachShapesExpressionBesideItsValue) {
  const std::string text = build("85", 8).prompt.text;
  EXPECT_NE(text.find("- input `local_shard`: bf16 [max(4 * W, min(M / W, 4096))] = [128] on every rank"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("- input `local_count`: int64 [1] on every rank"), std::string::npos);
}

// Rules an answer relies on, stated in docs/ABI.md, which the prompt carries: what a plan barrier
// makes visible, when send and recv may share a buffer, the run precision's type, and what a
// copy of count 0 and a kernel-less source mean.
TEST(BuildPrompt, StatesTheRulesAnswersRelyOn) {
  const std::string text = build("1", 8).prompt.text;
  for (const char* rule : {"It also\n  orders memory: whatever the steps before it wrote",
                           "may name the same buffer only where NCCL allows in place",
                           "Send and recv steps next to each other in the issue order form one group",
                           "`pkb::P` is the\n  run precision's type", "A count of 0\n  copies nothing",
                           "never TF32", "Every output must be written by some step"})
    EXPECT_NE(text.find(rule), std::string::npos) << "the prompt lacks: " << rule;
}

// A problem with groups lists each instance's ranks at the prompt's W and says a collective step
// may name a group (048: tp is block pairs, fsdp strided by 2).
TEST(BuildPrompt, ShowsEachGroupsMembersAndThatACollectiveMayNameIt) {
  const std::string text = build("48", 8).prompt.text;
  for (const char* line :
       {"- `tp`: groups of select(W >= 4, 2, 1) = 2 ranks, consecutive ranks together (block): [0,1] [2,3] "
        "[4,5] [6,7]\n",
        "- `fsdp`: groups of W / select(W >= 4, 2, 1) = 4 ranks, every 2-th rank together (strided): "
        "[0,2,4,6] [1,3,5,7]\n",
        "with `\"group\": \"NAME\"` it runs over the calling rank's instance only",
        "`group_rank(NAME)` (the rank's position", "\"group\": \"tp\""})
    EXPECT_NE(text.find(line), std::string::npos) << "the prompt lacks: " << line;
  // At W = 2 tp is a single rank per instance; a problem without groups says nothing of them.
  EXPECT_NE(build("48", 2).prompt.text.find("(block): [0] [1]\n"), std::string::npos);
  EXPECT_EQ(build("1", 8).prompt.text.find("Sub-communicators"), std::string::npos);
}

TEST(BuildPrompt, GroupsRanksWithEqualShapes) {
  const Built built = build("5", 4);  // scatter: the chunks live on rank 0 only
  EXPECT_NE(built.prompt.text.find("on rank 0"), std::string::npos) << built.prompt.text;
  EXPECT_NE(built.prompt.text.find("on ranks 1-3"), std::string::npos);
}

TEST(BuildPrompt, IncludesExamplesInNameOrderWhenTheFolderExists) {
  problem::ProblemIndex index(kProblems);
  PromptSources sources = default_sources(index.root());
  sources.examples_dir = temp_dir("examples");
  std::filesystem::create_directories(sources.examples_dir / "b_gemm_rs");
  std::ofstream(sources.examples_dir / "b_gemm_rs" / "kernel.cu")
      << "extern \"C\" __global__ void g() {}";
  std::ofstream(sources.examples_dir / "b_gemm_rs" / "README.md")
      << "GEMM overlapped with a reduce-scatter.\n";
  std::filesystem::create_directories(sources.examples_dir / "a_allreduce");
  std::ofstream(sources.examples_dir / "a_allreduce" / "plan.json") << "{\"steps\": []}\n";
  const Built built = build("1", 8, "h100_8", &sources);
  const std::string& text = built.prompt.text;
  EXPECT_EQ(built.prompt.examples, 2);
  const auto a = text.find("### a_allreduce"), b = text.find("### b_gemm_rs");
  ASSERT_NE(a, std::string::npos);
  ASSERT_NE(b, std::string::npos);
  EXPECT_LT(a, b);
  EXPECT_NE(text.find("plan.json:\n```json\n{\"steps\": []}\n```\n"), std::string::npos);
  EXPECT_NE(text.find("GEMM overlapped with a reduce-scatter.\n\nkernel.cu:\n```cuda\n"),
            std::string::npos)
      << text;
  std::filesystem::remove_all(sources.examples_dir);
}

TEST(BuildPrompt, TheRealExamplesAppearButNeverTheAnswerToTheProblemAsked) {
  problem::ProblemIndex index(kProblems);
  PromptSources sources = default_sources(index.root());  // problems/examples/ of the tree
  const Built allreduce = build("1", 4, "h100_8", &sources);
  EXPECT_EQ(allreduce.prompt.text.find("### 001_"), std::string::npos) << "problem 1's own answer is shown";
  EXPECT_NE(allreduce.prompt.text.find("### 002_allgather_peer_stores.md"), std::string::npos);
  const Built broadcast = build("3", 4, "h100_8", &sources);
  EXPECT_NE(broadcast.prompt.text.find("### 001_allreduce_peer_loads.md"), std::string::npos);
  EXPECT_EQ(broadcast.prompt.examples, allreduce.prompt.examples + 1);
  EXPECT_NE(broadcast.prompt.text.find("### Response format"), std::string::npos) << "docs/ABI.md is embedded";
}

TEST(BuildPrompt, CustomTemplateIsUsed) {
  problem::ProblemIndex index(kProblems);
  PromptSources sources = default_sources(index.root());
  sources.template_path = temp_dir("template") / "mine.md";
  std::ofstream(sources.template_path) << "Solve {{problem_key}} on {{world}} {{gpu}}s.\n";
  EXPECT_EQ(build("1", 2, "h200_8", &sources).prompt.text,
            "Solve 001_allreduce on 2 NVIDIA H200 SXM 141 GBs.\n");
}

TEST(BuildPrompt, BadHardwareNamesTheFlag) {
  try {
    build("1", 8, "h100_9");
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(), "--hardware h100_9: unknown machine (did you mean 'h100_8'?); expected one of h100_8, h200_8, b200_8");
  }
  try {
    build("1", 8, "tpu");
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(), "--hardware tpu: unknown machine; expected one of h100_8, h200_8, b200_8");
  }
}

}  // namespace
}  // namespace pkb::prompt
