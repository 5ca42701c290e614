// make_rank_inputs and solve_simulated: the thread-per-rank driver of the simulated world.
#include "reference/runner.h"

#include <exception>
#include <mutex>
#include <sstream>
#include <thread>

#include "src/common/error.h"

namespace pkb::ref {
namespace {

std::string shape_text(at::IntArrayRef shape) {
  std::ostringstream out;
  out << "[";
  for (std::size_t index = 0; index < shape.size(); ++index) out << (index ? ", " : "") << shape[index];
  out << "]";
  return out.str();
}

// Names, order, shapes and (unless widened) dtypes must be exactly problem.json's.
void check_against_spec(const problem::ProblemSpec& spec, const RunConfig& config, int rank,
                        const std::vector<problem::TensorSpec>& declared, const Tensors& actual,
                        const std::string& what, bool check_dtype) {
  const std::string where = spec.key + " rank " + std::to_string(rank) + " " + what;
  if (actual.size() != declared.size()) {
    throw Error(where + ": returned " + std::to_string(actual.size()) + " tensors, problem.json declares " +
                std::to_string(declared.size()));
  }
  const problem::ExprEnv env = problem::make_env(config.dims, config.world, rank);
  for (std::size_t index = 0; index < declared.size(); ++index) {
    const auto& [name, tensor] = actual.items()[index];
    const problem::TensorSpec& expected = declared[index];
    if (name != expected.name)
      throw Error(where + "[" + std::to_string(index) + "]: named '" + name + "', problem.json says '" +
                  expected.name + "'");
    const auto shape = problem::eval_shape(expected, env);
    if (tensor.sizes().vec() != shape)
      throw Error(where + " '" + name + "': shape " + shape_text(tensor.sizes()) + ", problem.json says " +
                  shape_text(shape));
    const at::ScalarType dtype = to_scalar_type(expected.dtype.resolve(config.dtype));
    if (check_dtype && tensor.scalar_type() != dtype)
      throw Error(where + " '" + name + "': dtype " + std::string(c10::toString(tensor.scalar_type())) +
                  ", problem.json says " +
                  (expected.dtype.is_run_precision ? "P = " : "") +
                  std::string(dtype_name(expected.dtype.resolve(config.dtype))));
  }
}

Tensors widen(const Tensors& tensors) {
  Tensors out;
  for (const auto& [name, tensor] : tensors)
    out.set(name, at::isFloatingType(tensor.scalar_type()) ? tensor.to(at::kDouble) : tensor);
  return out;
}

void add_groups(const problem::ProblemSpec& spec, const RunConfig& config, int rank, Comm& comm) {
  const problem::ExprEnv env = problem::make_env(config.dims, config.world, rank);
  for (const auto& group : spec.groups) {
    const int size = static_cast<int>(group.size.eval(env));
    const auto members =
        group_members(config.world, rank, size, group.layout == problem::GroupLayout::strided);
    comm.add_group(group.name, comm.split(members));
  }
}

}  // namespace

at::ScalarType to_scalar_type(DType dtype) {
  switch (dtype) {
    case DType::bf16: return at::kBFloat16;
    case DType::fp16: return at::kHalf;
    case DType::fp32: return at::kFloat;
    case DType::fp64: return at::kDouble;
    case DType::int8: return at::kChar;
    case DType::uint8: return at::kByte;
    case DType::int16: return at::kShort;
    case DType::int32: return at::kInt;
    case DType::int64: return at::kLong;
    case DType::boolean: return at::kBool;
    case DType::fp8e4m3:
    case DType::fp8e5m2: return at::kByte;  // raw bytes: torch 1.13 has no float8
  }
  return at::kFloat;
}

const Reference& reference_for(const problem::ProblemSpec& spec) {
  const Reference* reference = find_reference(spec.key);
  if (reference == nullptr)
    throw Error(spec.key + ": no C++ reference registered (expected reference/" + spec.key + ".cpp)");
  return *reference;
}

Scalars scalars_of(const problem::ProblemSpec& spec) {
  std::map<std::string, double> values;
  for (const auto& scalar : spec.scalars) values[scalar.name] = scalar.value;
  return Scalars(std::move(values));
}

std::vector<Tensors> make_rank_inputs(const problem::ProblemSpec& spec, const RunConfig& config) {
  const Reference& reference = reference_for(spec);
  std::vector<Tensors> inputs;
  for (int rank = 0; rank < config.world; ++rank) {
    InputContext context(spec.id, config.dims, config.world, rank, config.trial,
                         to_scalar_type(config.dtype), config.device);
    inputs.push_back(reference.make_inputs(context));
    check_against_spec(spec, config, rank, spec.inputs, inputs.back(), "inputs", true);
  }
  return inputs;
}

// References define fp32 as full fp32: libtorch's default lets cuDNN convolutions run in TF32
// (10-bit mantissa) on a GPU, which would make the fp32 reference, and so the fp32 tolerance it
// sets, about 1000 times coarser there than on a CPU. Called before every run (cheap, idempotent).
void use_full_fp32() {
  at::globalContext().setAllowTF32CuDNN(false);
  at::globalContext().setAllowTF32CuBLAS(false);
}

std::vector<Tensors> solve_ranks(const problem::ProblemSpec& spec, const RunConfig& config,
                                 const std::vector<Tensors>& inputs, bool widen_to_fp64,
                                 const RankComms& comms) {
  const Reference& reference = reference_for(spec);
  const Scalars scalars = scalars_of(spec);
  use_full_fp32();
  std::vector<Tensors> outputs(config.world);
  std::mutex error_mutex;
  std::string first_error;

  auto run_rank = [&](int rank) {
    try {
      Comm& comm = comms.comm(rank);
      add_groups(spec, config, rank, comm);
      const Tensors rank_inputs = widen_to_fp64 ? widen(inputs[rank]) : comms.place(rank, inputs[rank]);
      outputs[rank] = reference.solve(comm, rank_inputs, scalars);
      check_against_spec(spec, config, rank, spec.outputs, outputs[rank], "outputs", !widen_to_fp64);
    } catch (const RankAborted&) {
      // Another rank failed first; its error is the one reported.
    } catch (const std::exception& error) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (first_error.empty()) first_error = "rank " + std::to_string(rank) + ": " + error.what();
      comms.abort(first_error);
    }
    comms.finished(rank);
  };

  std::vector<std::thread> threads;
  for (int rank = 0; rank < config.world; ++rank) threads.emplace_back(run_rank, rank);
  for (auto& thread : threads) thread.join();
  if (!first_error.empty()) throw Error(spec.key + " " + first_error);
  return outputs;
}

std::vector<Tensors> solve_simulated(const problem::ProblemSpec& spec, const RunConfig& config,
                                     const std::vector<Tensors>& inputs, const SolveOptions& options) {
  // Each rank's communicator is made on its own thread, which is where SimWorld expects it.
  class SimComms final : public RankComms {
   public:
    SimComms(int world, SimMode mode) : world_(world, mode), comms_(world) {}
    Comm& comm(int rank) const override {
      comms_[rank] = world_.comm(rank);
      return *comms_[rank];
    }
    void abort(const std::string& reason) const override { world_.abort(reason); }
    void finished(int rank) const override { world_.rank_finished(rank); }

   private:
    mutable SimWorld world_;
    mutable std::vector<std::unique_ptr<Comm>> comms_;
  };
  return solve_ranks(spec, config, inputs, options.widen_to_fp64, SimComms(config.world, options.mode));
}

}  // namespace pkb::ref
