// The problem.json loader: a valid file loads, and each malformed field gets its own message
// naming the file and the field.
#include "src/problem/spec_loader.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/common/error.h"

namespace pkb::problem {
namespace {

nlohmann::json valid() {
  return nlohmann::json::parse(R"({
    "schema_version": 1, "id": 7, "name": "demo", "category": "collective",
    "summary": "a demo", "dims": {"M": 64, "N": 32}, "test_dims": {"M": 4, "N": 2},
    "world_sizes": [2, 4], "dtypes": ["bf16", "fp32"],
    "inputs": [{"name": "x", "dtype": "P", "shape": ["W * M", "N"]}],
    "outputs": [{"name": "y", "dtype": "fp32", "shape": ["M", 2]},
                {"name": "x", "dtype": "P", "shape": ["W * M", "N"], "inout": true}],
    "scalars": [{"name": "alpha", "type": "float", "value": 0.5}],
    "groups": [{"name": "tp", "size": "W / 2", "layout": "strided"}],
    "tolerance": {"bf16": {"atol": 0.01, "rtol": 0.01}, "fp32": {"atol": 1e-5, "rtol": 1e-5}}
  })");
}

std::string error_of(const nlohmann::json& doc) {
  try {
    parse_problem(doc.dump(), "p.json", "");
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

TEST(SpecLoader, LoadsAValidProblem) {
  const ProblemSpec spec = parse_problem(valid().dump(), "p.json", "");
  EXPECT_EQ(spec.key, "007_demo");
  EXPECT_EQ(spec.dims.at("M"), 64);
  EXPECT_EQ(spec.test_dims.at("N"), 2);
  EXPECT_EQ(spec.world_sizes, (std::vector<int>{2, 4}));
  ASSERT_EQ(spec.outputs.size(), 2u);
  EXPECT_TRUE(spec.outputs[1].inout);
  EXPECT_EQ(spec.outputs[0].dtype.resolve(DType::bf16), DType::fp32);
  EXPECT_EQ(spec.inputs[0].dtype.resolve(DType::bf16), DType::bf16);
  EXPECT_EQ(eval_shape(spec.inputs[0], make_env(spec.test_dims, 4, 0)), (std::vector<std::int64_t>{16, 2}));
  EXPECT_EQ(spec.groups[0].layout, GroupLayout::strided);
  EXPECT_DOUBLE_EQ(spec.scalars[0].value, 0.5);
  EXPECT_DOUBLE_EQ(spec.tolerance_for(DType::bf16).atol, 0.01);
  EXPECT_DOUBLE_EQ(spec.error_ratio, 8);
}

TEST(SpecLoader, RejectsEachBadFieldWithItsOwnMessage) {
  struct Case {
    std::function<void(nlohmann::json&)> edit;
    std::string message;
  };
  const std::vector<Case> cases = {
      {[](auto& d) { d.erase("summary"); }, "p.json: summary: expected a value, got nothing (the field is missing)"},
      {[](auto& d) { d["schema_version"] = 2; }, "p.json: schema_version: expected 1, got 2"},
      {[](auto& d) { d["id"] = "7"; }, "p.json: id: expected an integer, got \"7\""},
      {[](auto& d) { d["id"] = 0; }, "p.json: id: expected an integer from 1 to 999, got 0"},
      {[](auto& d) { d["name"] = "Demo"; }, "p.json: name: expected lowercase letters, digits and underscores, got \"Demo\""},
      {[](auto& d) { d["category"] = "misc"; },
       "p.json: category: expected one of application, collective, data-parallel, expert-parallel, fsdp-zero, "
       "loss, optimizer, quantization, sequence-parallel, tensor-parallel, got \"misc\""},
      {[](auto& d) { d["dims"]["M"] = -1; }, "p.json: dims.M: expected a positive integer, got -1"},
      {[](auto& d) { d["test_dims"].erase("N"); }, "p.json: test_dims: expected a size for every dim, got none for N"},
      {[](auto& d) { d["world_sizes"] = {2, 0}; }, "p.json: world_sizes[1]: expected an integer from 1 to 64, got 0"},
      {[](auto& d) { d["dtypes"] = {"bfloat16"}; }, "p.json: dtypes[0]: expected one of bf16, fp16, fp32, got \"bfloat16\""},
      {[](auto& d) { d["inputs"][0]["dtype"] = "bfloat16"; },
       "p.json: inputs[0].dtype: expected P or one of bf16, fp16, fp32, fp64, int8, uint8, int16, int32, int64, "
       "bool, fp8e4m3, fp8e5m2, got \"bfloat16\""},
      {[](auto& d) { d["inputs"][0]["shape"] = {"K", "N"}; },
       "p.json: inputs[0].shape[0]: expected an expression over the dims, W and rank, got unknown name 'K'"},
      {[](auto& d) { d["inputs"][0]["shape"] = {"M +", "N"}; },
       "p.json: inputs[0].shape[0]: expected a valid expression, got expression \"M +\": at column 4: expected a "
       "number, a name or '(', got the end"},
      {[](auto& d) { d["inputs"][0]["shape"] = {1.5}; }, "p.json: inputs[0].shape[0]: expected an integer or an expression string, got 1.5"},
      {[](auto& d) { d["outputs"][0]["name"] = "x"; },
       "p.json: outputs[1].name: expected a name unique within outputs, got a second 'x'"},
      {[](auto& d) { d["outputs"][1]["inout"] = false; },
       "p.json: outputs: expected names distinct from the inputs (or \"inout\": true), got 'x'"},
      {[](auto& d) { d["outputs"] = nlohmann::json::array(); }, "p.json: outputs: expected a non-empty array of tensors, got []"},
      {[](auto& d) { d["scalars"][0]["type"] = "double"; }, "p.json: scalars[0].type: expected int or float, got \"double\""},
      {[](auto& d) { d["groups"][0]["layout"] = "ring"; }, "p.json: groups[0].layout: expected block or strided, got \"ring\""},
      {[](auto& d) { d["tolerance"].erase("fp32"); }, "p.json: tolerance: expected an entry for every dtype in dtypes, got none for fp32"},
      {[](auto& d) { d["tolerance"]["bf16"]["atol"] = -1; }, "p.json: tolerance.bf16.atol: expected non-negative atol and rtol, got a negative value"},
      {[](auto& d) { d["error_ratio"] = 0.5; }, "p.json: error_ratio: expected a number >= 1, got 0.500000"},
      {[](auto& d) { d["dimz"] = 1; }, "p.json: dimz: expected a known field (did you mean 'dims'?), got unknown field 'dimz'"},
      {[](auto& d) { d["inputs"][0]["shap"] = 1; },
       "p.json: inputs[0].shap: expected a known field (did you mean 'shape'?), got unknown field 'shap'"},
  };
  for (const auto& item : cases) {
    nlohmann::json doc = valid();
    item.edit(doc);
    EXPECT_EQ(error_of(doc), item.message);
  }
}

TEST(SpecLoader, RejectsInvalidJsonNamingTheFile) {
  try {
    parse_problem("{\"id\": ", "problems/x/problem.json", "");
    FAIL();
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()).rfind("problems/x/problem.json: not valid JSON: ", 0), 0u) << error.what();
  }
}

TEST(SpecLoader, RequiresTheFolderToMatchIdAndName) {
  try {
    parse_problem(valid().dump(), "p.json", "problems/008_demo");
    FAIL();
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "p.json: name: expected id and name to match the folder '008_demo', got '007_demo'");
  }
}

TEST(SpecLoader, ReportsAMissingFile) {
  try {
    load_problem("/nonexistent/001_x");
    FAIL();
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "/nonexistent/001_x/problem.json: cannot read the file (missing or unreadable)");
  }
}

}  // namespace
}  // namespace pkb::problem
