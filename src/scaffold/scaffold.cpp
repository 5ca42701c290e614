#include "src/scaffold/scaffold.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "src/common/did_you_mean.h"
#include "src/common/error.h"
#include "src/problem/problem_index.h"
#include "src/problem/spec_loader.h"

namespace pkb::scaffold {
namespace fs = std::filesystem;
namespace {

std::string key_of(int id, const std::string& name) {
  char prefix[8];
  std::snprintf(prefix, sizeof prefix, "%03d_", id);
  return prefix + name;
}

// A skeleton problem has one input x and one output y unless --from says otherwise.
PythonSignature skeleton_signature() {
  PythonSignature signature;
  signature.inputs = {"x"};
  signature.outputs = {"y"};
  return signature;
}

std::vector<std::string> output_names(const PythonSignature& signature) {
  if (!signature.outputs.empty()) return signature.outputs;
  return {"out"};
}

// Outputs named like an input are that input changed in place (upstream's in-place ops).
bool is_input(const PythonSignature& signature, const std::string& name) {
  return std::find(signature.inputs.begin(), signature.inputs.end(), name) != signature.inputs.end();
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

void write_new_file(const fs::path& path, const std::string& text) {
  // O_EXCL semantics: never overwrite; write to a temporary name, then link into place.
  const fs::path temp = path.string() + ".tmp-add-problem";
  {
    std::ofstream out(temp, std::ios::binary);
    out << text;
    if (!out.flush()) throw Error(temp.string() + ": cannot write");
  }
  std::error_code error;
  fs::create_hard_link(temp, path, error);
  fs::remove(temp);
  if (error) throw Error(path.string() + ": cannot create: " + error.message());
}

std::set<std::string> existing_keys(const fs::path& problems_dir, const fs::path& reference_dir) {
  std::set<std::string> keys;
  static const std::regex kKey("([0-9]{3})_([a-z0-9_]+)(\\.cpp)?");
  for (const auto& dir : {problems_dir, reference_dir})
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string name = entry.path().filename().string();
      std::smatch match;
      if (std::regex_match(name, match, kKey)) keys.insert(match[1].str() + "_" + match[2].str());
    }
  return keys;
}

}  // namespace

std::vector<int> parse_world_sizes(const std::string& text) {
  std::vector<int> sizes;
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    char* end = nullptr;
    const long value = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || value < 1 || value > 64)
      throw UsageError("--world-sizes " + text + ": '" + item + "' is not a world size from 1 to 64");
    if (std::find(sizes.begin(), sizes.end(), value) != sizes.end())
      throw UsageError("--world-sizes " + text + ": " + item + " appears twice");
    sizes.push_back(static_cast<int>(value));
  }
  if (sizes.empty()) throw UsageError("--world-sizes: expected a list such as 2,4,8");
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

std::string problem_json_text(const NewProblem& problem, const PythonSignature& signature) {
  using Json = nlohmann::ordered_json;
  const Json shape = Json::array({"M", "N"});
  Json inputs = Json::array();
  for (const auto& name : signature.inputs)
    inputs.push_back({{"name", name}, {"dtype", "P"}, {"shape", shape},
                      {"doc", "TODO: what this rank holds, and how make_inputs draws it"}});
  Json outputs = Json::array();
  for (const auto& name : output_names(signature)) {
    Json output = {{"name", name}, {"dtype", "P"}, {"shape", shape}};
    if (is_input(signature, name)) output["inout"] = true;
    output["doc"] = "TODO: what every rank returns";
    outputs.push_back(output);
  }
  Json scalars = Json::array();
  for (const auto& scalar : signature.scalars) {
    Json value = scalar.is_int ? Json(static_cast<std::int64_t>(scalar.value)) : Json(scalar.value);
    scalars.push_back({{"name", scalar.name}, {"type", scalar.is_int ? "int" : "float"}, {"value", value},
                       {"doc", "TODO: meaning"}});
  }
  Json groups = Json::array();
  if (signature.takes_groups)
    groups.push_back({{"name", "TODO_group"}, {"size", "W / 2"}, {"layout", "block"},
                      {"doc", "TODO: a sub-communicator solution(groups=...) uses; sizes are expressions"}});
  const Json tolerance = {{"bf16", {{"atol", 0.01}, {"rtol", 0.01}}},
                          {"fp16", {{"atol", 0.001}, {"rtol", 0.001}}},
                          {"fp32", {{"atol", 1e-05}, {"rtol", 1e-05}}}};
  const Json doc = {
      {"schema_version", problem::kSchemaVersion},
      {"id", problem.id},
      {"name", problem.name},
      {"category", problem.category},
      {"summary", signature.summary.empty() ? "TODO: one sentence: what every rank computes and returns"
                                            : signature.summary},
      {"dims", {{"M", 1024}, {"N", 1024}}},
      {"test_dims", {{"M", 4}, {"N", 8}}},
      {"world_sizes", problem.world_sizes},
      {"dtypes", {"bf16", "fp16", "fp32"}},
      {"inputs", inputs},
      {"outputs", outputs},
      {"scalars", scalars},
      {"groups", groups},
      {"tolerance", tolerance},
      {"error_ratio", 8},
      {"check_note", ""},
      {"upstream_divergence", ""},
      {"size_rules",
       Json::array({{{"rule", "M * N <= 16384"},
                     {"why", "keeps a simulated trial cheap (TODO: add the rules a user of such a "
                             "kernel faces, e.g. M % W == 0)"},
                     {"drawn_only", true}}})},
  };
  return doc.dump(2) + "\n";
}

// A skeleton that fails the answers test on purpose (its plan writes no output: a plan_error)
// until someone writes the real answer.
std::string answer_md_text(const std::string& key) {
  return "TODO (problems/" + key + "/answer.md): a known-correct answer to this problem, written from\n"
         "`pkb prompt " + key + "` alone, exactly as a model must answer: prose, one cuda block and one\n"
         "json plan (docs/ADDING_A_PROBLEM.md, \"The reference answer\"). The test eval_answers_tests\n"
         "compiles it and checks its plan at every world size and dtype, at test and bench dims, and\n"
         "fails until the plan below writes the outputs; scripts/gpu-check.sh judges it on a GPU.\n\n"
         "```cuda\n// TODO: the kernels (pkb::P for the run precision)\n```\n\n"
         "```json\n{\"steps\": []}\n```\n";
}

std::string reference_py_text(const std::string& key, const PythonSignature& signature) {
  std::vector<std::string> args = signature.inputs;
  for (const auto& scalar : signature.scalars)
    args.push_back(scalar.name + "=" + (scalar.is_int ? std::to_string(static_cast<long long>(scalar.value))
                                                      : std::to_string(scalar.value)));
  std::ostringstream out;
  out << "# pkb problem " << key << ": the PyTorch reference (shapes and dtypes: problem.json).\n"
      << "import torch\n"
      << "import torch.distributed as dist\n\n\n"
      << "def solution(" << join(args, ", ") << "):\n"
      << "    \"\"\"TODO: the argument shapes and the math, for a reader who has never seen pkb.\"\"\"\n"
      << "    raise NotImplementedError(\"problems/" << key << "/reference.py: write solution()\")\n";
  return out.str();
}

std::string reference_cpp_text(const std::string& key, const PythonSignature& signature) {
  std::vector<std::string> draws;
  for (const auto& name : signature.inputs) draws.push_back(name);
  const std::string file = "reference/" + key + ".cpp";
  std::ostringstream out;
  out << "// TODO: one line of math: what every rank returns. Written by `pkb add-problem`; see\n"
      << "// docs/ADDING_A_PROBLEM.md. Shapes, dtypes and tolerances: problems/" << key << "/problem.json.\n"
      << "#include \"reference/registry.h\"\n"
      << "#include \"src/common/error.h\"  // WorkFailed: remove with the two throws below\n\n"
      << "// Each reference has a namespace of its own: the references compile in unity batches.\n"
      << "namespace pkb::ref::p" << key.substr(0, 3) << " {\n"
      << "namespace {\n\n"
      << "// TODO: say why these inputs make a skipped collective or another trial's data visible.\n"
      << "Tensors make_inputs(InputContext& ctx) {\n"
      << "  // Draw " << (draws.empty() ? std::string("every input") : join(draws, ", "))
      << " in problem.json's order, e.g. {\"x\", ctx.randn({ctx.dim(\"M\"), ctx.dim(\"N\")})}.\n"
      << "  (void)ctx;\n"
      << "  throw WorkFailed(\"" << file << ": make_inputs is a skeleton: draw "
      << (draws.empty() ? std::string("the inputs") : join(draws, ", ")) << " as problem.json declares\");\n"
      << "}\n\n"
      << "Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {\n"
      << "  // Compute " << join(output_names(signature), ", ")
      << " exactly as problems/" << key << "/reference.py does, communicating only through comm.\n"
      << "  (void)comm;\n"
      << "  (void)in;\n"
      << "  (void)scalars;\n"
      << "  throw WorkFailed(\"" << file << ": solve is a skeleton: compute "
      << join(output_names(signature), ", ") << " as reference.py does\");\n"
      << "}\n\n"
      << "}  // namespace\n\n"
      << "PKB_REGISTER_REFERENCE(\"" << key << "\", make_inputs, solve);\n\n"
      << "}  // namespace pkb::ref::p" << key.substr(0, 3) << "\n";
  return out.str();
}

Created add_problem(const fs::path& problems_dir, NewProblem problem) {
  if (!std::regex_match(problem.name, std::regex("[a-z][a-z0-9_]*")))
    throw UsageError("add-problem " + problem.name +
                     ": a name is lowercase letters, digits and underscores, starting with a letter");
  const auto& categories = problem::problem_categories();
  if (!categories.count(problem.category)) {
    std::vector<std::string> names(categories.begin(), categories.end());
    std::string message = "--category " + problem.category + ": unknown category";
    if (auto near = closest_match(problem.category, names)) message += ", did you mean '" + *near + "'?";
    throw UsageError(message + " (one of " + join(names, ", ") + ")");
  }
  if (!fs::is_directory(problems_dir)) throw UsageError("--problems-dir " + problems_dir.string() + ": not a folder");
  const fs::path reference_dir = fs::absolute(problems_dir).parent_path() / "reference";
  if (!fs::exists(reference_dir / "registry.h"))
    throw UsageError("--problems-dir " + problems_dir.string() + ": add-problem writes the C++ reference to " +
                     reference_dir.string() + ", which is not pkb's reference folder");

  const std::set<std::string> keys = existing_keys(problems_dir, reference_dir);
  int next_id = 1;
  for (const auto& key : keys) {
    next_id = std::max(next_id, std::stoi(key.substr(0, 3)) + 1);
    if (key.substr(4) == problem.name)
      throw UsageError("add-problem " + problem.name + ": problem " + key + " already has this name");
  }
  if (problem.id == 0) problem.id = next_id;
  if (problem.id < 1 || problem.id > 999) throw UsageError("--id " + std::to_string(problem.id) + ": expected 1 to 999");
  for (const auto& key : keys)
    if (std::stoi(key.substr(0, 3)) == problem.id)
      throw UsageError("--id " + std::to_string(problem.id) + ": problem " + key + " already has this id");

  Created created;
  created.key = key_of(problem.id, problem.name);
  created.signature = skeleton_signature();
  if (problem.from) {
    try {
      created.signature = read_python_signature(*problem.from);
    } catch (const Error& e) {
      throw InputError(std::string("--from ") + e.what());
    }
  }
  if (created.signature.inputs.empty())
    throw UsageError("--from " + problem.from->string() + ": solution() takes no tensor arguments");

  std::string python;
  if (problem.from) {
    std::ifstream in(*problem.from);
    std::stringstream text;
    text << in.rdbuf();
    python = text.str();
  } else {
    python = reference_py_text(created.key, created.signature);
  }
  const std::string spec_text = problem_json_text(problem, created.signature);
  problem::parse_problem(spec_text, "(generated problem.json)", problems_dir / created.key);  // self-check

  const fs::path dir = problems_dir / created.key;
  try {
    fs::create_directory(dir);
    created.files.push_back(dir);
    write_new_file(dir / "problem.json", spec_text);
    created.files.push_back(dir / "problem.json");
    write_new_file(dir / "reference.py", python);
    created.files.push_back(dir / "reference.py");
    write_new_file(dir / "answer.md", answer_md_text(created.key));
    created.files.push_back(dir / "answer.md");
    write_new_file(reference_dir / (created.key + ".cpp"), reference_cpp_text(created.key, created.signature));
    created.files.push_back(reference_dir / (created.key + ".cpp"));
  } catch (...) {
    for (auto it = created.files.rbegin(); it != created.files.rend(); ++it) fs::remove(*it);
    throw;
  }
  return created;
}

}  // namespace pkb::scaffold
