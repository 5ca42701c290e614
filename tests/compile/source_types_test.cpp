// Reading kernel parameter types from demangled probe names, and parameter names from the source.
#include "src/compile/source_types.h"

#include <gtest/gtest.h>

namespace pkb::compile {
namespace {

using Strings = std::vector<std::string>;

TEST(ProbeParameterTypes, SplitsAtTopLevelCommasOnly) {
  EXPECT_EQ(probe_parameter_types("void pkb_signature_probe<void (float const*, pkb::Peers<float const>, long "
                                  "long)>()"),
            (Strings{"float const*", "pkb::Peers<float const>", "long long"}));
  EXPECT_EQ(probe_parameter_types("void pkb_signature_probe<void (void (*)(int, int), int)>()"),
            (Strings{"void (*)(int, int)", "int"}));
  EXPECT_TRUE(probe_parameter_types("void pkb_signature_probe<void ()>()").empty());
  EXPECT_TRUE(probe_parameter_types("something else").empty());
}

TEST(SourceParameterNames, ReadsTheDefinitionNotAComment) {
  const std::string source = R"(// kernel(int wrong) is not it
__device__ int helper(int kernel) { return kernel; }
extern "C" __global__ void kernel(const float* __restrict__ x, pkb::Peers<const float> peers,
                                  long long n /* count */, float alpha = 1.f) {}
)";
  EXPECT_EQ(source_parameter_names(source, "kernel"), (Strings{"x", "peers", "n", "alpha"}));
  EXPECT_EQ(source_parameter_names("extern \"C\" __global__ void k(float*, int) {}", "k"), (Strings{"", ""}));
  EXPECT_TRUE(source_parameter_names("extern \"C\" __global__ void k() {}", "k").empty());
  EXPECT_TRUE(source_parameter_names("void other() {}", "k").empty());
}

}  // namespace
}  // namespace pkb::compile
