// The Python binding of a torch C++ extension around the bench kernel (scripts/bench-compile.sh):
// what other kernel benchmarks build for every candidate.
#include <torch/extension.h>

#include <vector>

void launch_all_reduce_bf16(void* const* inputs, unsigned int* const* flags, void* out, int rank,
                            int world, long long count, unsigned epoch);

torch::Tensor all_reduce(std::vector<torch::Tensor> inputs, std::vector<torch::Tensor> flags, int64_t rank,
                         int64_t epoch) {
  std::vector<void*> input_ptrs;
  std::vector<unsigned int*> flag_ptrs;
  for (auto& t : inputs) input_ptrs.push_back(t.data_ptr());
  for (auto& t : flags) flag_ptrs.push_back(static_cast<unsigned int*>(t.data_ptr()));
  torch::Tensor out = torch::empty_like(inputs.at(0));
  launch_all_reduce_bf16(input_ptrs.data(), flag_ptrs.data(), out.data_ptr(), static_cast<int>(rank),
                         static_cast<int>(inputs.size()), inputs[0].numel(), static_cast<unsigned>(epoch));
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("all_reduce", &all_reduce, "one-shot bf16 all-reduce"); }
