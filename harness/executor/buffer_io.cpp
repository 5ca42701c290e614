// Tensors in and out of the candidate's buffers (see buffer_io.h).
#include "harness/executor/buffer_io.h"

#include "harness/executor/poison.h"
#include "reference/runner.h"
#include "src/common/error.h"

namespace pkb::harness {
namespace {

using plan::BufferRole;

void write_tensor(Device& device, int rank, DevAddr address, const plan::ResolvedBuffer& buffer,
                  const at::Tensor& tensor) {
  const std::string bytes = tensor_bytes(tensor);
  PKB_ASSERT(bytes.size() == buffer.bytes, "rank " + std::to_string(rank) + " '" + buffer.name +
                                               "': " + std::to_string(bytes.size()) +
                                               " bytes for a buffer of " +
                                               std::to_string(buffer.bytes));
  if (!bytes.empty()) device.write(rank, address, bytes.data(), bytes.size());
}

void write_buffers(Device& device, const PlanRunner& runner,
                   const std::vector<ref::Tensors>& inputs, int set, bool inputs_too) {
  for (int rank = 0; rank < runner.world(); ++rank) {
    const auto& buffers = runner.plan(rank).buffers;
    for (std::size_t b = 0; b < buffers.size(); ++b) {
      const bool input = buffers[b].role == BufferRole::input;
      if ((input && inputs_too) || buffers[b].inout)
        write_tensor(device, rank, runner.address(rank, static_cast<int>(b), set), buffers[b],
                     inputs.at(rank).at(buffers[b].name));
    }
  }
}

}  // namespace

std::string tensor_bytes(const at::Tensor& tensor) {
  const at::Tensor cpu = tensor.to(at::kCPU).contiguous();
  return std::string(static_cast<const char*>(cpu.data_ptr()), cpu.nbytes());
}

void write_inputs(Device& device, const PlanRunner& runner, const std::vector<ref::Tensors>& inputs,
                  int set) {
  write_buffers(device, runner, inputs, set, true);
}

void write_inouts(Device& device, const PlanRunner& runner, const std::vector<ref::Tensors>& inputs,
                  int set) {
  write_buffers(device, runner, inputs, set, false);
}

void prepare_call(ExecDevice& device, const PlanRunner& runner, int set, int variant,
                  std::uint64_t seed) {
  for (int rank = 0; rank < runner.world(); ++rank) {
    const auto& buffers = runner.plan(rank).buffers;
    for (std::size_t b = 0; b < buffers.size(); ++b) {
      const auto& buffer = buffers[b];
      const DevAddr address = runner.address(rank, static_cast<int>(b), set);
      if (buffer.role == BufferRole::output && !buffer.inout)
        device.fill(rank, address, poison_pattern(buffer.dtype, variant), buffer.bytes);
      else if (buffer.role == BufferRole::plan)
        device.fill(rank, address, {4, garbage_word(seed * 1315423911ull + b * 8 + rank)},
                    buffer.bytes);
    }
    // A harness fill like the others (not a plan step): the simulated node's memory model counts it
    // as written before the call, not as a step a kernel could race with.
    device.fill(rank, runner.signal_pad(rank), {4, 0}, runner.signal_pad_bytes());
  }
}

std::vector<ref::Tensors> read_outputs(Device& device, const PlanRunner& runner, int set) {
  std::vector<ref::Tensors> outputs(runner.world());
  for (int rank = 0; rank < runner.world(); ++rank) {
    const auto& buffers = runner.plan(rank).buffers;
    for (std::size_t b = 0; b < buffers.size(); ++b) {
      const auto& buffer = buffers[b];
      if (buffer.role != BufferRole::output) continue;
      at::Tensor tensor =
          at::empty(buffer.shape, at::TensorOptions().dtype(ref::to_scalar_type(buffer.dtype)));
      PKB_ASSERT(tensor.nbytes() == buffer.bytes,
                 "output '" + buffer.name + "' size differs from its tensor");
      if (buffer.bytes > 0)
        device.read(rank, runner.address(rank, static_cast<int>(b), set), tensor.data_ptr(),
                    buffer.bytes);
      outputs[rank].set(buffer.name, tensor);
    }
  }
  return outputs;
}

std::string changed_input(Device& device, const PlanRunner& runner,
                          const std::vector<ref::Tensors>& inputs, int set) {
  for (int rank = 0; rank < runner.world(); ++rank) {
    const auto& buffers = runner.plan(rank).buffers;
    for (std::size_t b = 0; b < buffers.size(); ++b) {
      const auto& buffer = buffers[b];
      if (buffer.role != BufferRole::input || buffer.bytes == 0) continue;
      const std::string written = tensor_bytes(inputs.at(rank).at(buffer.name));
      std::string now(buffer.bytes, '\0');
      device.read(rank, runner.address(rank, static_cast<int>(b), set), now.data(), now.size());
      if (now != written) {
        std::size_t at = 0;
        while (at < now.size() && now[at] == written[at]) ++at;
        return "rank " + std::to_string(rank) + " changed its input '" + buffer.name +
               "' (first at byte " + std::to_string(at) + "); inputs are read-only";
      }
    }
  }
  return "";
}

std::uint64_t input_bytes(const PlanRunner& runner, int rank) {
  std::uint64_t total = 0;
  for (const auto& buffer : runner.plan(rank).buffers)
    if (buffer.role == BufferRole::input || buffer.inout) total += buffer.bytes;
  return total;
}

}  // namespace pkb::harness
