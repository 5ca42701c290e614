// The GPU-scope lint on PTX text: it names the kernel and the instruction, and only for kernels
// that reach other ranks' memory.
#include <gtest/gtest.h>

#include "src/eval/scope_lint.h"

namespace pkb::eval {
namespace {

const char* kPtx = R"PTX(
.version 9.0
.target sm_90a
.visible .entry peer_fence(
	.param .align 8 .b8 peer_fence_param_0[64]
)
{
	membar.gl;
	ret;
}
.visible .entry local_fence(
	.param .u64 local_fence_param_0
)
{
	membar.gl;
	ret;
}
.visible .entry peer_sys(
	.param .align 8 .b8 peer_sys_param_0[72]
)
{
	st.release.sys.global.u32 [%rd1], %r1;
	ld.acquire.sys.global.u32 %r2, [%rd2];
	fence.acq_rel.sys;
	ret;
}
.visible .entry peer_acquire(
	.param .align 8 .b8 peer_acquire_param_0[72]
)
{
	ld.acquire.gpu.global.u32 %r2, [%rd2];
	ret;
}
)PTX";

TEST(ScopeLint, WarnsOnlyForPeerKernelsThatOrderAtGpuScope) {
  const auto warnings = gpu_scope_warnings(kPtx, {"peer_fence", "peer_sys", "peer_acquire"});
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].rfind("kernel 'peer_fence' reaches other ranks' memory but orders it at GPU scope (membar.gl)", 0), 0u)
      << warnings[0];
  EXPECT_NE(warnings[1].find("'peer_acquire'"), std::string::npos);
  EXPECT_NE(warnings[1].find("(ld.acquire.gpu.global.u32)"), std::string::npos) << warnings[1];
}

TEST(ScopeLint, SystemScopeAndKernelsWithoutPeerMemoryPass) {
  EXPECT_TRUE(gpu_scope_warnings(kPtx, {"peer_sys"}).empty());
  // local_fence's membar.gl is fine: nothing tells it reaches another rank.
  EXPECT_TRUE(gpu_scope_warnings(kPtx, {"peer_sys", "not_in_the_ptx"}).empty());
  EXPECT_TRUE(gpu_scope_warnings(kPtx, {}).empty());
}

}  // namespace
}  // namespace pkb::eval
