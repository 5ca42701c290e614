// Kernel parameter types against plan arguments: the C++ types the compile reports (pkb::P
// resolved) must take what the plan passes, so a bf16 answer run at fp32, or an i64 in a pointer,
// is a plan_error rather than a run that reads garbage.
#include "harness/plan/param_types.h"
#include "tests/plan/plan_fixture.h"

namespace pkb::plan {
namespace {

compile::KernelParam typed(compile::KernelParam param, const std::string& type, const std::string& name) {
  param.source_type = type;
  param.name = name;
  return param;
}

std::string plan_of(const std::string& args) {
  return R"J({"steps": [{"op": "kernel", "kernel": "typed", "grid": 1, "block": 1, "args": )J" + args + "}]}";
}

TEST(ParamTypes, ClassifiesTheDemangledSpellings) {
  EXPECT_EQ(classify_param("float const*").shape, ParamShape::pointer);
  EXPECT_EQ(classify_param("float const*").element, "float");
  EXPECT_EQ(classify_param("__nv_bfloat16 volatile*").element, "__nv_bfloat16");
  EXPECT_EQ(classify_param("pkb::Peers<__half const>").shape, ParamShape::peers);
  EXPECT_EQ(classify_param("pkb::Peers<__half const>").element, "__half");
  EXPECT_EQ(classify_param("pkb::SignalPad").shape, ParamShape::signal_pad);
  EXPECT_EQ(classify_param("pkb::Context").shape, ParamShape::context);
  EXPECT_EQ(classify_param("long long").shape, ParamShape::value);
  EXPECT_EQ(classify_param("").shape, ParamShape::unknown);
  EXPECT_EQ(classify_param("constant_t*").element, "constant_t");  // "const" only as a word
}

TEST(ParamTypes, FloatingElementsMustMatchIntegersBySizeRawAlways) {
  EXPECT_FALSE(element_mismatch("__nv_bfloat16", DType::bf16));
  EXPECT_EQ(element_mismatch("__nv_bfloat16", DType::fp32), "holds fp32, not bf16 (__nv_bfloat16)");
  EXPECT_EQ(element_mismatch("float", DType::int32), "holds int32, not fp32 (float)");
  EXPECT_FALSE(element_mismatch("unsigned int", DType::int32));
  EXPECT_FALSE(element_mismatch("long long", DType::int64));
  EXPECT_EQ(element_mismatch("int", DType::int64), "holds int64 (8-byte elements), not int (4 bytes)");
  EXPECT_FALSE(element_mismatch("uint4", DType::bf16));
  EXPECT_FALSE(element_mismatch("void", DType::fp8e4m3));
  EXPECT_FALSE(element_mismatch("unsigned char", DType::fp32));
}

class PlanTypesTest : public PlanTest {
 protected:
  void SetUp() override {
    PlanTest::SetUp();
    // typed(const P* x, P* y, long long n, pkb::Peers<const P> xs, pkb::SignalPad signals)
    target_.kernels = {{"typed",
                        {typed(u64(), "__nv_bfloat16 const*", "x"), typed(u64(), "__nv_bfloat16*", "y"),
                         typed(u64(), "long long", "n"), typed(blob(64), "pkb::Peers<__nv_bfloat16 const>", "xs"),
                         typed(blob(72), "pkb::SignalPad", "signals")}}};
  }
};

TEST_F(PlanTypesTest, MatchingTypesResolve) {
  EXPECT_NO_THROW(resolve(plan_of(R"J(["x", "y", "i64(M * N)", "peers(x)", "signals"])J")));
}

TEST_F(PlanTypesTest, RejectsABf16KernelAtFp32NamingTheParameter) {
  target_.dtype = DType::fp32;
  EXPECT_EQ(error_of(plan_of(R"J(["x", "y", "i64(M * N)", "peers(x)", "signals"])J")),
            "plan: steps[0].args[0]: parameter 'x' of 'typed' is __nv_bfloat16 const*, but buffer 'x' holds fp32, "
            "not bf16 (__nv_bfloat16) (rank 0 of 4)");
}

TEST_F(PlanTypesTest, RejectsAnIntegerInAPointerParameter) {
  EXPECT_EQ(error_of(plan_of(R"J(["i64(4096)", "y", "i64(M * N)", "peers(x)", "signals"])J")),
            "plan: steps[0].args[0]: \"i64(4096)\" is a number, but parameter 'x' of 'typed' is __nv_bfloat16 "
            "const* (rank 0 of 4)");
}

TEST_F(PlanTypesTest, RejectsABufferInAnIntegerParameter) {
  EXPECT_EQ(error_of(plan_of(R"J(["x", "y", "y", "peers(x)", "signals"])J")),
            "plan: steps[0].args[2]: \"y\" is a pointer to a buffer, but parameter 'n' of 'typed' is long long "
            "(rank 0 of 4)");
}

TEST_F(PlanTypesTest, RejectsPeersOfAnotherElementType) {
  const std::string buffers = R"J([{"name": "acc", "kind": "symmetric", "dtype": "fp32", "shape": [32]}])J";
  const std::string json = R"J({"buffers": )J" + buffers +
                           R"J(, "steps": [{"op": "kernel", "kernel": "typed", "grid": 1, "block": 1,
                                 "args": ["x", "y", "i64(1)", "peers(acc)", "signals"]}]})J";
  EXPECT_EQ(error_of(json),
            "plan: steps[0].args[3]: parameter 'xs' of 'typed' is pkb::Peers<__nv_bfloat16 const>, but buffer 'acc' "
            "holds fp32, not bf16 (__nv_bfloat16) (rank 0 of 4)");
}

TEST_F(PlanTypesTest, RejectsTheSignalPadWhereTheKernelTakesPeers) {
  target_.kernels[0].params[3] = typed(blob(72), "pkb::Peers<__nv_bfloat16 const>", "xs");  // size agrees
  EXPECT_EQ(error_of(plan_of(R"J(["x", "y", "i64(1)", "signals", "signals"])J")),
            "plan: steps[0].args[3]: \"signals\" is the pkb::SignalPad, but parameter 'xs' of 'typed' is "
            "pkb::Peers<__nv_bfloat16 const> (rank 0 of 4)");
}

TEST_F(PlanTypesTest, UnknownTypesAreNotChecked) {
  for (auto& param : target_.kernels[0].params) param.source_type.clear();
  target_.dtype = DType::fp32;
  EXPECT_NO_THROW(resolve(plan_of(R"J(["x", "y", "i64(1)", "peers(x)", "signals"])J")));
}

}  // namespace
}  // namespace pkb::plan
