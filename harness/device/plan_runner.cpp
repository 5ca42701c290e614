// PlanRunner: buffers on the Device, arguments as bytes, steps issued rank by rank.
#include "harness/device/plan_runner.h"

#include <cstring>

namespace pkb::harness {
namespace {

using plan::ArgKind;
using plan::BufferKind;
using plan::BufferRole;
using plan::StepOp;

template <class T>
void append(std::string& bytes, T value) {
  char raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));  // the hosts pkb runs on are little-endian, like the GPU
  bytes.append(raw, sizeof(T));
}

/// Zero-byte tensors (an empty shard) still get an address inside an allocation.
std::uint64_t at_least_one(std::uint64_t bytes) { return bytes == 0 ? 1 : bytes; }

bool rotates(const plan::ResolvedBuffer& buffer) {
  return buffer.role == BufferRole::input || buffer.inout;
}

}  // namespace

PlanRunner::PlanRunner(std::vector<plan::ResolvedPlan> plans, Device& device)
    : plans_(std::move(plans)), device_(device) {
  PKB_ASSERT(!plans_.empty() && static_cast<int>(plans_.size()) == device.world(),
             "PlanRunner needs one plan per rank of the device");
  const auto& buffers = plans_[0].buffers;
  for (std::size_t b = 0; b < buffers.size(); ++b) {
    const auto& buffer = buffers[b];
    if (buffer.kind == BufferKind::local) {
      SymmetricAlloc alloc;
      for (int rank = 0; rank < world(); ++rank)
        alloc.addr.push_back(device_.alloc_local(rank, at_least_one(plans_[rank].buffers[b].bytes)));
      alloc.bytes = buffer.bytes;
      allocs_.push_back(alloc);
    } else if (buffer.kind == BufferKind::multicast) {
      allocs_.push_back(device_.alloc_multicast(at_least_one(buffer.bytes_max)));
    } else {
      allocs_.push_back(device_.alloc_symmetric(at_least_one(buffer.bytes_max)));
    }
  }
  signals_ = device_.alloc_symmetric(signal_pad_bytes());
}

std::uint64_t PlanRunner::signal_pad_bytes() const { return plan::kSignalPadWords * 4; }

DevAddr PlanRunner::signal_pad(int rank) const { return signals_.addr.at(rank); }

int PlanRunner::add_input_set() {
  std::vector<SymmetricAlloc> set;
  for (const auto& buffer : plans_[0].buffers)
    set.push_back(rotates(buffer) ? device_.alloc_symmetric(at_least_one(buffer.bytes_max)) : SymmetricAlloc{});
  extra_sets_.push_back(std::move(set));
  return input_sets() - 1;
}

DevAddr PlanRunner::address(int rank, int buffer, int input_set) const {
  PKB_ASSERT(input_set >= 0 && input_set < input_sets(), "no such input set");
  if (input_set > 0 && rotates(plans_[0].buffers.at(buffer)))
    return extra_sets_[input_set - 1][buffer].addr.at(rank);
  return allocs_.at(buffer).addr.at(rank);
}

DevAddr PlanRunner::address(int rank, int buffer) const { return address(rank, buffer, 0); }

DevAddr PlanRunner::address(int rank, const std::string& name) const {
  const int buffer = plans_[0].find_buffer(name);
  PKB_ASSERT(buffer >= 0, "no buffer named " + name);
  return address(rank, buffer, 0);
}

int PlanRunner::first_free_event() const {
  return static_cast<int>(plans_[0].events.size()) + 1 + plan::kMaxStreams;
}

std::vector<std::string> PlanRunner::marshal_args(int rank, const plan::KernelStep& step, int input_set) const {
  std::vector<std::string> params;
  const auto& buffers = plans_[rank].buffers;
  for (const auto& arg : step.args) {
    std::string bytes;
    switch (arg.kind) {
      case ArgKind::pointer:
        append<std::uint64_t>(bytes, address(rank, arg.buffer, input_set) +
                                         arg.element_offset * dtype_size(buffers[arg.buffer].dtype));
        break;
      case ArgKind::peers:
        for (int r = 0; r < plan::kMaxRanks; ++r)
          append<std::uint64_t>(bytes, r < world() ? address(r, arg.buffer, input_set) : 0);
        break;
      case ArgKind::multicast: append<std::uint64_t>(bytes, allocs_[arg.buffer].multicast_addr); break;
      case ArgKind::signals:
        for (int r = 0; r < plan::kMaxRanks; ++r) append<std::uint64_t>(bytes, r < world() ? signal_pad(r) : 0);
        append<std::int32_t>(bytes, rank);
        append<std::int32_t>(bytes, world());
        break;
      case ArgKind::context:
        append<std::int32_t>(bytes, rank);
        append<std::int32_t>(bytes, world());
        append<std::int32_t>(bytes, device_.limits().num_sms);
        append<std::int32_t>(bytes, device_.emulated() ? 1 : 0);
        break;
      case ArgKind::i32: append<std::int32_t>(bytes, static_cast<std::int32_t>(arg.int_value)); break;
      case ArgKind::u32: append<std::uint32_t>(bytes, static_cast<std::uint32_t>(arg.int_value)); break;
      case ArgKind::i64: append<std::int64_t>(bytes, arg.int_value); break;
      case ArgKind::u64: append<std::uint64_t>(bytes, static_cast<std::uint64_t>(arg.int_value)); break;
      case ArgKind::f32: append<float>(bytes, static_cast<float>(arg.float_value)); break;
      case ArgKind::f64: append<double>(bytes, arg.float_value); break;
    }
    PKB_ASSERT(bytes.size() == arg.bytes(), "marshalled size differs from the argument's size");
    params.push_back(std::move(bytes));
  }
  return params;
}

std::vector<std::string> PlanRunner::library_steps() const { return plan::library_steps(plans_[0]); }

}  // namespace pkb::harness
