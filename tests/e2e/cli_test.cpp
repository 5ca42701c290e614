// The pkb binary end to end: exit codes, one-line errors on stderr, JSON on stdout, and the dump
// format of docs/ARCHITECTURE.md, "Dumps" read back with pkb's safetensors reader.
#include <gtest/gtest.h>

#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "src/dump/safetensors.h"
#include "tests/e2e/run_pkb.h"

namespace pkb::test {
namespace {

TEST(Cli, ListJsonNamesEveryProblem) {
  const PkbRun run = run_pkb("list --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto doc = nlohmann::json::parse(run.out);
  ASSERT_GE(doc.at("problems").size(), 8u);
  const auto& first = doc["problems"][0];
  EXPECT_EQ(first.at("id"), 1);
  EXPECT_EQ(first.at("key"), "001_allreduce");
  EXPECT_EQ(first.at("name"), "allreduce");
  EXPECT_EQ(first.at("category"), "collective");
  EXPECT_EQ(first.at("world_sizes"), nlohmann::json({2, 4, 8}));
}

TEST(Cli, BadInputIsOneLineWithExitCodeTwo) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"reference 01_allreduce --world 2", "pkb: error: unknown problem '01_allreduce', did you mean '001_allreduce'?\n"},
      {"reference 1 --world 3", "pkb: error: --world 3: 001_allreduce allows 2, 4, 8\n"},
      {"reference 1 --world 2 --dtype fp64", "pkb: error: --dtype fp64: 001_allreduce runs in bf16, fp16, fp32\n"},
      {"reference 1 --world 2 --dims K=4", "pkb: error: --dims K=4: 001_allreduce has no dim 'K'\n"},
      {"reference 1 --world 2 --dump /nonexistent/dir/d", "pkb: error: --dump /nonexistent/dir/d: parent folder /nonexistent/dir does not exist\n"},
      {"validate", "pkb: error: validate: give either a problem or --all\n"},
      {"refrence 1", "pkb: error: unknown command 'refrence', did you mean 'reference'?\n"},
      {"add-problem new_one --category colective",
       "pkb: error: --category colective: unknown category, did you mean 'collective'? (one of application, "
       "collective, data-parallel, expert-parallel, fsdp-zero, loss, optimizer, quantization, sequence-parallel, "
       "tensor-parallel)\n"},
      {"add-problem allreduce --category collective",
       "pkb: error: add-problem allreduce: problem 001_allreduce already has this name\n"},
      {"reference 1 --world 2 --wrld 2", "pkb: error: The following arguments were not expected: 2 --wrld\n"},
  };
  for (const auto& [args, message] : cases) {
    const PkbRun run = run_pkb("-q " + args);
    EXPECT_EQ(run.exit_code, 2) << args;
    EXPECT_EQ(run.err, message) << args;
    EXPECT_EQ(run.out, "") << args;
  }
  EXPECT_EQ(run_pkb("reference --world 2").exit_code, 2);  // missing problem
}

TEST(Cli, MalformedProblemJsonNamesTheFile) {
  const std::string root = make_temp_dir("problems");
  std::filesystem::create_directories(root + "/001_broken");
  std::ofstream(root + "/001_broken/problem.json") << "{\"schema_version\": 1, \"id\": \"one\"}";
  const std::string command = std::string("'") + PKB_BINARY + "' --problems-dir '" + root + "' list 2>'" + root +
                              "/err' >/dev/null";
  const int status = std::system(command.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  std::ifstream err(root + "/err");
  std::string line;
  std::getline(err, line);
  EXPECT_EQ(line, "pkb: error: " + root + "/001_broken/problem.json: id: expected an integer, got \"one\"");
  std::filesystem::remove_all(root);
}

TEST(Cli, ReferenceWritesTheDumpFormat) {
  const std::string root = make_temp_dir("dump");
  const std::string dir = root + "/d";
  const PkbRun run = run_pkb("reference 1 --world 4 --dtype bf16 --dump " + dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("rank  output  dtype  shape"), std::string::npos) << run.out;

  std::ifstream in(dir + "/manifest.json");
  const auto manifest = nlohmann::json::parse(in);
  EXPECT_EQ(manifest.at("schema_version"), 1);
  EXPECT_EQ(manifest.at("problem").at("key"), "001_allreduce");
  EXPECT_EQ(manifest.at("problem").at("id"), 1);
  EXPECT_EQ(manifest.at("world"), 4);
  EXPECT_EQ(manifest.at("dtype"), "bf16");
  EXPECT_EQ(manifest.at("dims"), nlohmann::json({{"M", 4}, {"N", 8}}));
  EXPECT_EQ(manifest.at("trial"), 0);
  ASSERT_EQ(manifest.at("ranks").size(), 4u);

  std::vector<double> sums;
  for (int rank = 0; rank < 4; ++rank) {
    const auto& entry = manifest["ranks"][rank];
    EXPECT_EQ(entry.at("inputs")[0].at("name"), "x");
    EXPECT_EQ(entry.at("inputs")[0].at("shape"), nlohmann::json({4, 8}));
    const auto inputs = dump::read_safetensors(dir + "/rank" + std::to_string(rank) + "/inputs.safetensors");
    const auto outputs = dump::read_safetensors(dir + "/rank" + std::to_string(rank) + "/outputs.safetensors");
    ASSERT_EQ(inputs.size(), 1u);
    ASSERT_EQ(outputs.size(), 1u);
    EXPECT_EQ(inputs[0].name, "x");
    EXPECT_EQ(outputs[0].name, "y");
    EXPECT_EQ(outputs[0].dtype, DType::bf16);
    EXPECT_EQ(outputs[0].shape, (std::vector<std::int64_t>{4, 8}));
    EXPECT_EQ(outputs[0].bytes.size(), 4u * 8u * 2u);
  }
  // Every rank's y is the same all-reduced tensor.
  const auto y0 = dump::read_safetensors(dir + "/rank0/outputs.safetensors")[0].bytes;
  const auto y3 = dump::read_safetensors(dir + "/rank3/outputs.safetensors")[0].bytes;
  EXPECT_EQ(y0, y3);

  // A second dump to the same folder is refused and leaves the first intact.
  const PkbRun again = run_pkb("-q reference 1 --world 4 --dump " + dir);
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_TRUE(std::filesystem::exists(dir + "/manifest.json"));
  // No temporary folders are left beside it.
  int entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(root)) ++entries;
  EXPECT_EQ(entries, 1);
  std::filesystem::remove_all(root);
}

TEST(Cli, ReferenceOutputIsReproducibleAndTrialDependent) {
  const PkbRun first = run_pkb("reference 8 --world 4 --json");
  const PkbRun again = run_pkb("reference 8 --world 4 --json");
  const PkbRun other = run_pkb("reference 8 --world 4 --trial 1 --json");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out, again.out);
  EXPECT_NE(nlohmann::json::parse(first.out)["outputs"], nlohmann::json::parse(other.out)["outputs"]);
}

TEST(Cli, ValidateExitsZeroWhenEveryModeBehaves) {
  // bf16 and fp32, each at the test dims and at one shape drawn under the size rules.
  const PkbRun run = run_pkb("validate 7 --world 4");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("validate: 4 passed, 0 failed"), std::string::npos) << run.out;
  const PkbRun pinned = run_pkb("validate 7 --world 4 --dims test");
  EXPECT_NE(pinned.out.find("validate: 2 passed, 0 failed"), std::string::npos) << pinned.out;
}

TEST(Cli, DimsThatBreakASizeRuleAreAUsageErrorBeforeAnythingRuns) {
  // 033 splits x's rows over the ranks: W must divide M.
  const PkbRun run = run_pkb("eval 33 " + std::string(PKB_SOURCE_DIR) +
                             "/problems/033_ulysses_all_to_all_tensor_primitive/answer.md --world 8 --dims M=12,N=8");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--dims M=12,N=8: 033_ulysses_all_to_all_tensor_primitive requires M % W == 0"),
            std::string::npos) << run.err;
  EXPECT_EQ(run.out, "");
  for (const std::string command : {"show 33 --world 8 --dims M=12", "prompt 33 --world 8 --dims M=12",
                                    "reference 33 --world 8 --dims M=12", "validate 33 --world 8 --dims M=12"})
    EXPECT_EQ(run_pkb(command).exit_code, 2) << command;
  const PkbRun show = run_pkb("show 1");
  EXPECT_NE(show.out.find("\n  size rules: "), std::string::npos) << show.out;
  const auto doc = nlohmann::json::parse(run_pkb("show 33 --world 8 --json").out);
  ASSERT_FALSE(doc.at("size_rules").empty());
  EXPECT_EQ(doc.at("size_rules")[0].at("rule"), "M % W == 0");
  EXPECT_FALSE(doc.at("size_rules")[0].at("drawn_only").get<bool>());
}

TEST(Cli, DoctorReportsWithoutAGpu) {
  const PkbRun run = run_pkb("doctor --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto doc = nlohmann::json::parse(run.out);
  EXPECT_FALSE(doc.at("nvrtc").get<std::string>().empty());
  EXPECT_TRUE(doc.at("api_keys_set").contains("OPENAI_API_KEY"));
  // Either GPUs are listed or the reason there are none is given.
  EXPECT_TRUE(!doc.at("gpus").empty() || !doc.at("gpu_error").get<std::string>().empty());
}

TEST(Cli, ShowPrintsShapesPerRankAndTheReference) {
  const PkbRun run = run_pkb("show scatter --world 4 --dims test");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("input chunks: bf16 [4, 4, 8]  (rank 0)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("input chunks: bf16 [0, 4, 8]  (ranks 1-3)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("def solution("), std::string::npos) << run.out;
}

TEST(Cli, ReferenceBatchAnswersEveryJobAndKeepsGoingPastAFailure) {
  const std::string dir = make_temp_dir("reference_batch");
  const std::string batch = dir + "/jobs.jsonl";
  std::ofstream(batch) << "{\"index\": 4, \"problem\": \"001_allreduce\", \"world\": 2, \"dtype\": \"bf16\", "
                          "\"dims\": \"test\", \"dump\": \"" + dir + "/a\"}\n"
                       << "{\"index\": 7, \"problem\": \"001_allreduce\", \"world\": 3, \"dtype\": \"bf16\", "
                          "\"dump\": \"" + dir + "/b\"}\n"
                       << "{\"index\": 9, \"problem\": \"scatter\", \"world\": 4, \"dtype\": \"fp32\", "
                          "\"dump\": \"" + dir + "/c\"}\n";
  // A job without "dump" only runs the reference (gpu-check.sh times them so).
  std::ofstream(batch, std::ios::app) << "{\"index\": 11, \"problem\": \"001_allreduce\", \"world\": 2, "
                                         "\"dtype\": \"fp32\", \"device\": \"cpu\"}\n";
  const PkbRun run = run_pkb("-q reference --batch " + batch);
  EXPECT_EQ(run.exit_code, 1) << "one job failed";
  std::vector<nlohmann::json> answers;
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) answers.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(answers.size(), 4u) << run.out;
  EXPECT_EQ(answers[1].dump(), "{\"error\":\"--world 3: 001_allreduce allows 2, 4, 8\",\"index\":7,\"ok\":false}");
  for (std::size_t job : {0, 2, 3}) {
    EXPECT_TRUE(answers[job].at("ok").get<bool>()) << answers[job];
    EXPECT_GE(answers[job].at("seconds").get<double>(), 0.0) << answers[job];
  }
  EXPECT_EQ(answers[3].at("index"), 11);
  EXPECT_TRUE(std::filesystem::exists(dir + "/a/rank1/outputs.safetensors"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/b"));
  const auto manifest = nlohmann::json::parse(std::ifstream(dir + "/c/manifest.json"));
  EXPECT_EQ(manifest.at("world"), 4);
  EXPECT_EQ(run_pkb("reference --batch " + batch + " 1").exit_code, 2) << "--batch takes no problem";
}

// A batch job with "drawn": k dumps at the k-th shape drawn under the size rules, the same shape
// `pkb validate` checks (the parity tests compare the Python reference there too).
TEST(Cli, ReferenceBatchDumpsAtADrawnShape) {
  const std::string dir = make_temp_dir("reference_batch_drawn");
  const std::string batch = dir + "/jobs.jsonl";
  std::ofstream(batch) << "{\"index\": 0, \"problem\": \"001_allreduce\", \"world\": 8, \"dtype\": \"bf16\", "
                          "\"drawn\": 0, \"dump\": \"" + dir + "/d\"}\n";
  const PkbRun run = run_pkb("-q reference --batch " + batch);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto manifest = nlohmann::json::parse(std::ifstream(dir + "/d/manifest.json"));
  const auto validated = nlohmann::json::parse(run_pkb("validate 1 --world 8 --dtype bf16 --json").out);
  nlohmann::json drawn;
  for (const auto& c : validated.at("cases"))
    if (c.at("drawn").get<bool>()) drawn = c.at("dims");
  ASSERT_FALSE(drawn.is_null()) << validated.dump();
  EXPECT_EQ(manifest.at("dims"), drawn);
  EXPECT_NE(manifest.at("dims"), (nlohmann::json{{"M", 4}, {"N", 8}})) << "the test dims";
}

}  // namespace
}  // namespace pkb::test

namespace pkb::test {
namespace {

// pkb itself must start without libtorch, NCCL or the CUDA runtime (docs/ARCHITECTURE.md, "Two
// programs"): those are pkb-torch's, which pkb starts only for the commands that need them.
TEST(Cli, PkbLinksNoLibtorchNcclOrCudaRuntime) {
  const std::string dir = make_temp_dir("ldd");
  const std::string listing = dir + "/ldd.txt";
  ASSERT_EQ(std::system(("ldd '" + std::string(PKB_BINARY) + "' > '" + listing + "' 2>&1").c_str()), 0);
  std::ifstream in(listing);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_NE(text.find("libc.so"), std::string::npos) << text;  // ldd worked
  for (const char* library : {"libtorch", "libc10", "libnccl", "libcudart", "libcuda.so"})
    EXPECT_EQ(text.find(library), std::string::npos) << "pkb links " << library << ":\n" << text;
}

TEST(Cli, ACommandOfPkbTorchWithoutPkbTorchSaysHowToBuildIt) {
  ::setenv("PKB_TORCH", "/nonexistent/pkb-torch", 1);
  const PkbRun run = run_pkb("reference 1 --world 2");
  ::unsetenv("PKB_TORCH");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err,
            "pkb: error: reference runs in pkb-torch (the part of pkb that links libtorch), and "
            "/nonexistent/pkb-torch cannot be started: No such file or directory (build it: cmake --build build "
            "--target pkb-torch)\n");
  // The commands of pkb itself never need it.
  ::setenv("PKB_TORCH", "/nonexistent/pkb-torch", 1);
  const PkbRun list = run_pkb("list --json");
  ::unsetenv("PKB_TORCH");
  EXPECT_EQ(list.exit_code, 0) << list.err;
}

TEST(Cli, HelpListsTheCommandsOfBothPrograms) {
  const PkbRun run = run_pkb("--help");
  EXPECT_EQ(run.exit_code, 0);
  for (const char* command : {"list", "prompt", "score", "reference", "validate", "eval", "run", "doctor"})
    EXPECT_NE(run.out.find(std::string("  ") + command + " "), std::string::npos) << command << "\n" << run.out;
  const PkbRun reference = run_pkb("reference --help");  // pkb-torch's own help for it
  EXPECT_EQ(reference.exit_code, 0);
  EXPECT_NE(reference.out.find("--world"), std::string::npos) << reference.out;
}

}  // namespace
}  // namespace pkb::test
