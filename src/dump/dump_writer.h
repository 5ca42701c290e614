// `pkb reference --dump DIR`: manifest.json plus rank<r>/inputs.safetensors and
// rank<r>/outputs.safetensors (docs/ARCHITECTURE.md, "Dumps"). Written to a temporary sibling folder and renamed,
// so DIR is either complete or absent.
#pragma once

#include <filesystem>
#include <vector>

#include "reference/runner.h"
#include "src/dump/safetensors.h"
#include "src/problem/spec.h"

namespace pkb::dump {

constexpr int kDumpSchemaVersion = 1;

/// Throws pkb::InputError when DIR exists (pkb never overwrites a dump) or cannot be created.
void write_dump(const std::filesystem::path& dir, const problem::ProblemSpec& spec,
                const ref::RunConfig& config, const std::vector<ref::Tensors>& inputs,
                const std::vector<ref::Tensors>& outputs);

/// The tensor's bytes as the safetensors file stores them (moved to the CPU, contiguous).
RawTensor to_raw(const std::string& name, const at::Tensor& tensor, DType declared);

}  // namespace pkb::dump
