// `pkb add-problem`'s pieces: reading a Python reference's signature (with python3 and without),
// the generated problem.json (loadable, every field present), and writing into a repository
// (refusals leave nothing behind; a failed write removes what was written).
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "src/common/subprocess.h"
#include "src/problem/spec_loader.h"
#include "src/scaffold/scaffold.h"

namespace pkb::scaffold {
namespace {
namespace fs = std::filesystem;

fs::path temp_dir() {
  std::random_device random;
  const fs::path dir = fs::temp_directory_path() / ("pkb-scaffold-" + std::to_string(random()));
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

std::string read(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

constexpr const char* kReference = R"(import torch
import torch.distributed as dist


def helper(a):
    return a


def solution(x: torch.Tensor, w: torch.Tensor, eps: float, block: int = 128, *, groups=None):
    """RMSNorm over a sharded hidden dimension.

    More text.
    """
    y = x * w
    return y, x
)";

// A repository with problems 001 and 002 and a reference folder (what add_problem needs).
struct Repo {
  fs::path root = temp_dir();
  fs::path problems = root / "problems";
  Repo() {
    write(root / "reference" / "registry.h", "");
    write(problems / "001_allreduce" / "problem.json", "{}");
    write(root / "reference" / "001_allreduce.cpp", "");
    write(problems / "002_allgather" / "problem.json", "{}");
  }
  ~Repo() { fs::remove_all(root); }
};

TEST(PythonSignature, Python3ReadsInputsScalarsGroupsOutputsAndSummary) {
  if (find_program("python3").empty()) GTEST_SKIP() << "no python3 on PATH";
  const fs::path dir = temp_dir();
  write(dir / "ref.py", kReference);
  const PythonSignature signature = read_python_signature(dir / "ref.py");
  EXPECT_EQ(signature.inputs, (std::vector<std::string>{"x", "w"}));
  ASSERT_EQ(signature.scalars.size(), 2u);
  EXPECT_EQ(signature.scalars[0].name, "eps");
  EXPECT_FALSE(signature.scalars[0].is_int);
  EXPECT_EQ(signature.scalars[1].name, "block");
  EXPECT_TRUE(signature.scalars[1].is_int);
  EXPECT_EQ(signature.scalars[1].value, 128);
  EXPECT_TRUE(signature.takes_groups);
  EXPECT_EQ(signature.outputs, (std::vector<std::string>{"y", "x"}));
  EXPECT_EQ(signature.summary, "RMSNorm over a sharded hidden dimension.");
  fs::remove_all(dir);
}

TEST(PythonSignature, Python3NamesTheLineOfASyntaxErrorAndAMissingSolution) {
  if (find_program("python3").empty()) GTEST_SKIP() << "no python3 on PATH";
  const fs::path dir = temp_dir();
  write(dir / "bad.py", "import torch\n\ndef solution(x:\n    return x\n");
  try {
    read_python_signature(dir / "bad.py");
    ADD_FAILURE() << "a syntax error was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find((dir / "bad.py").string() + ": line 3"), std::string::npos) << e.what();
  }
  write(dir / "none.py", "def solve(x):\n    return x\n");
  EXPECT_THROW(read_python_signature(dir / "none.py"), InputError);
  fs::remove_all(dir);
}

TEST(PythonSignature, TextFallbackAgreesOnArguments) {
  const PythonSignature signature = read_signature_text(kReference, "ref.py");
  EXPECT_EQ(signature.inputs, (std::vector<std::string>{"x", "w"}));
  ASSERT_EQ(signature.scalars.size(), 2u);
  EXPECT_EQ(signature.scalars[0].name, "eps");
  EXPECT_EQ(signature.scalars[1].name, "block");
  EXPECT_TRUE(signature.scalars[1].is_int);
  EXPECT_EQ(signature.scalars[1].value, 128);
  EXPECT_TRUE(signature.takes_groups);
  EXPECT_THROW(read_signature_text("def solve(x): pass", "f.py"), InputError);
}

TEST(Scaffold, GeneratedSpecLoadsAndHasEveryField) {
  NewProblem problem;
  problem.id = 88;
  problem.name = "my_norm";
  problem.category = "tensor-parallel";
  problem.world_sizes = {2, 4};
  PythonSignature signature = read_signature_text(kReference, "ref.py");
  signature.outputs = {"y", "x"};  // x is returned: an inout output
  const std::string text = problem_json_text(problem, signature);
  const auto spec = problem::parse_problem(text, "generated", "");
  EXPECT_EQ(spec.key, "088_my_norm");
  EXPECT_EQ(spec.world_sizes, (std::vector<int>{2, 4}));
  ASSERT_EQ(spec.inputs.size(), 2u);
  ASSERT_EQ(spec.outputs.size(), 2u);
  EXPECT_FALSE(spec.outputs[0].inout);
  EXPECT_TRUE(spec.outputs[1].inout);
  ASSERT_EQ(spec.scalars.size(), 2u);
  ASSERT_EQ(spec.groups.size(), 1u);
  const auto doc = nlohmann::json::parse(text);
  for (const char* field : {"schema_version", "id", "name", "category", "summary", "dims", "test_dims", "world_sizes",
                            "dtypes", "inputs", "outputs", "scalars", "groups", "tolerance", "error_ratio",
                            "check_note", "upstream_divergence"})
    EXPECT_TRUE(doc.contains(field)) << field;
}

TEST(Scaffold, SkeletonsSayWhatToWrite) {
  const PythonSignature signature = read_signature_text(kReference, "ref.py");
  const std::string cpp = reference_cpp_text("088_my_norm", signature);
  EXPECT_NE(cpp.find("PKB_REGISTER_REFERENCE(\"088_my_norm\", make_inputs, solve);"), std::string::npos);
  EXPECT_NE(cpp.find("reference/088_my_norm.cpp: make_inputs is a skeleton: draw x, w"), std::string::npos);
  EXPECT_NE(cpp.find("reference/088_my_norm.cpp: solve is a skeleton"), std::string::npos);
  const std::string py = reference_py_text("088_my_norm", signature);
  EXPECT_NE(py.find("def solution(x, w, eps=0.000000, block=128):"), std::string::npos) << py;
  EXPECT_NE(py.find("raise NotImplementedError"), std::string::npos);
}

TEST(Scaffold, AddProblemWritesFourFilesWithTheNextId) {
  Repo repo;
  NewProblem problem;
  problem.name = "my_norm";
  problem.category = "loss";
  const Created created = add_problem(repo.problems, problem);
  EXPECT_EQ(created.key, "003_my_norm");
  const auto spec = problem::load_problem(repo.problems / "003_my_norm");
  EXPECT_EQ(spec.category, "loss");
  EXPECT_EQ(spec.inputs.at(0).name, "x");
  EXPECT_NE(read(repo.problems / "003_my_norm" / "reference.py").find("def solution(x):"), std::string::npos);
  EXPECT_NE(read(repo.root / "reference" / "003_my_norm.cpp").find("\"003_my_norm\""), std::string::npos);
  // The answer skeleton's plan writes no output, so the answers test fails until it is written.
  const std::string answer = read(repo.problems / "003_my_norm" / "answer.md");
  EXPECT_NE(answer.find("TODO (problems/003_my_norm/answer.md)"), std::string::npos) << answer;
  EXPECT_NE(answer.find("```json\n{\"steps\": []}\n```"), std::string::npos) << answer;
  EXPECT_EQ(created.files.size(), 5u);  // the folder and four files
}

TEST(Scaffold, RefusalsNameTheFlagAndWriteNothing) {
  Repo repo;
  auto refused = [&](NewProblem problem, const std::string& message) {
    try {
      add_problem(repo.problems, problem);
      ADD_FAILURE() << "accepted " << problem.name;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  };
  refused({0, "allgather", "collective", {2}, {}}, "add-problem allgather: problem 002_allgather already has this name");
  refused({1, "new_one", "collective", {2}, {}}, "--id 1: problem 001_allreduce already has this id");
  refused({0, "New", "collective", {2}, {}}, "a name is lowercase");
  refused({0, "new_one", "colective", {2}, {}}, "did you mean 'collective'?");
  refused({0, "new_one", "loss", {2}, repo.root / "missing.py"}, "--from " + (repo.root / "missing.py").string());
  EXPECT_FALSE(fs::exists(repo.problems / "003_new_one"));
  EXPECT_FALSE(fs::exists(repo.root / "reference" / "003_new_one.cpp"));
  EXPECT_THROW(parse_world_sizes("2,x"), UsageError);
  EXPECT_THROW(parse_world_sizes("2,2"), UsageError);
  EXPECT_EQ(parse_world_sizes("8,2,4"), (std::vector<int>{2, 4, 8}));
}

TEST(Scaffold, AFailedWriteRemovesWhatWasWritten) {
  Repo repo;
  // The C++ file's temporary name is taken by a folder, so the last write fails.
  fs::create_directories(repo.root / "reference" / "003_new_one.cpp.tmp-add-problem");
  NewProblem problem;
  problem.name = "new_one";
  problem.category = "loss";
  EXPECT_THROW(add_problem(repo.problems, problem), Error);
  EXPECT_FALSE(fs::exists(repo.problems / "003_new_one"));
  EXPECT_FALSE(fs::exists(repo.root / "reference" / "003_new_one.cpp"));
}

}  // namespace
}  // namespace pkb::scaffold
