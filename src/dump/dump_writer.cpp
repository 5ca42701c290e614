// write_dump: manifest and per-rank safetensors, atomically.
#include "src/dump/dump_writer.h"

#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "src/common/remove_tree.h"
#include "src/dump/safetensors.h"

namespace pkb::dump {
namespace {

nlohmann::ordered_json describe(const std::vector<RawTensor>& tensors) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& tensor : tensors)
    list.push_back({{"name", tensor.name}, {"dtype", dtype_name(tensor.dtype)}, {"shape", tensor.shape}});
  return list;
}

std::vector<RawTensor> to_raw_all(const ref::Tensors& tensors,
                                  const std::vector<problem::TensorSpec>& declared, DType run_dtype) {
  std::vector<RawTensor> raw;
  for (std::size_t index = 0; index < declared.size(); ++index)
    raw.push_back(to_raw(declared[index].name, tensors.at(declared[index].name),
                         declared[index].dtype.resolve(run_dtype)));
  return raw;
}

std::filesystem::path temporary_sibling(const std::filesystem::path& dir) {
  std::random_device random;
  return dir.parent_path() / ("." + dir.filename().string() + ".tmp-" + std::to_string(random()));
}

}  // namespace

RawTensor to_raw(const std::string& name, const at::Tensor& tensor, DType declared) {
  const at::Tensor cpu = tensor.to(at::kCPU).contiguous();
  RawTensor raw;
  raw.name = name;
  raw.dtype = declared;
  raw.shape = cpu.sizes().vec();
  const auto* begin = static_cast<const unsigned char*>(cpu.data_ptr());
  raw.bytes.assign(begin, begin + cpu.numel() * cpu.element_size());
  return raw;
}

void write_dump(const std::filesystem::path& dir, const problem::ProblemSpec& spec,
                const ref::RunConfig& config, const std::vector<ref::Tensors>& inputs,
                const std::vector<ref::Tensors>& outputs) {
  std::error_code error;
  if (std::filesystem::exists(dir, error))
    throw InputError("--dump " + dir.string() + ": already exists; remove it or choose another folder");
  const std::filesystem::path parent = dir.parent_path().empty() ? "." : dir.parent_path();
  if (!std::filesystem::is_directory(parent, error))
    throw InputError("--dump " + dir.string() + ": parent folder " + parent.string() + " does not exist");
  const std::filesystem::path temp = temporary_sibling(parent / dir.filename());
  if (!std::filesystem::create_directory(temp, error))
    throw InputError("--dump " + dir.string() + ": cannot create a folder in " + parent.string() + ": " +
                     error.message());
  try {
    nlohmann::ordered_json manifest;
    manifest["schema_version"] = kDumpSchemaVersion;
    manifest["problem"] = {{"id", spec.id}, {"key", spec.key}, {"name", spec.name}};
    manifest["world"] = config.world;
    manifest["dtype"] = dtype_name(config.dtype);
    manifest["dims"] = config.dims;
    manifest["trial"] = config.trial;
    manifest["seed"] = ref::input_seed(spec.id, 0, config.trial);
    manifest["seed_rule"] = "42 + 1000*id + rank + 1000003*trial";
    nlohmann::ordered_json scalars = nlohmann::ordered_json::object();
    for (const auto& scalar : spec.scalars) {
      if (scalar.type == problem::ScalarType::int64) scalars[scalar.name] = static_cast<std::int64_t>(scalar.value);
      else scalars[scalar.name] = scalar.value;
    }
    manifest["scalars"] = scalars;
    manifest["ranks"] = nlohmann::ordered_json::array();
    for (int rank = 0; rank < config.world; ++rank) {
      const auto rank_inputs = to_raw_all(inputs[rank], spec.inputs, config.dtype);
      const auto rank_outputs = to_raw_all(outputs[rank], spec.outputs, config.dtype);
      const std::filesystem::path rank_dir = temp / ("rank" + std::to_string(rank));
      std::filesystem::create_directory(rank_dir);
      const std::map<std::string, std::string> metadata = {
          {"problem", spec.key}, {"rank", std::to_string(rank)}, {"trial", std::to_string(config.trial)}};
      write_safetensors(rank_dir / "inputs.safetensors", rank_inputs, metadata);
      write_safetensors(rank_dir / "outputs.safetensors", rank_outputs, metadata);
      manifest["ranks"].push_back({{"rank", rank},
                                   {"seed", ref::input_seed(spec.id, rank, config.trial)},
                                   {"inputs", describe(rank_inputs)},
                                   {"outputs", describe(rank_outputs)}});
    }
    std::ofstream out(temp / "manifest.json");
    out << manifest.dump(2) << "\n";
    out.close();
    if (!out) throw Error(temp.string() + "/manifest.json: write failed");
    std::filesystem::rename(temp, dir);
  } catch (...) {
    remove_tree(temp);
    throw;
  }
}

}  // namespace pkb::dump
