// The files through which pkb and its pkb-nvrtc child talk. pkb writes the request into an empty
// folder and runs `pkb-nvrtc FOLDER`; the child answers in the same folder and by its exit code. A
// cache entry keeps the answer files under the same names.
#pragma once

namespace pkb::compile {

// Written by pkb.
constexpr const char* kSourceFile = "source.cu";
constexpr const char* kRequestFile = "request.json";  // {"name", "options": [...], "timeout_s"}

// Written by pkb-nvrtc. result.json is written last: its presence means the others are complete.
constexpr const char* kCubinFile = "kernel.cubin";
constexpr const char* kPtxFile = "kernel.ptx";
constexpr const char* kLogFile = "compile.log";
// {"kernels": {"NAME": ["float const*", "long long", ...]}, "error"?}: C++ parameter types of
// the extern "C" kernels, read by a syntax-only probe pass (source_types.h); {} after an error.
constexpr const char* kSignaturesFile = "signatures.json";
constexpr const char* kResultFile = "result.json";  // {"ok", "nvrtc_result", "nvrtc_version"}

// The name NVRTC gives the source in its log: "candidate.cu(12): error: ...".
constexpr const char* kProgramName = "candidate.cu";

// Exit codes of pkb-nvrtc.
constexpr int kExitOk = 0;
constexpr int kExitCompileError = 1;  // compile.log says why
constexpr int kExitBadRequest = 2;    // a pkb-side failure: unreadable request, unwritable folder

}  // namespace pkb::compile
