// Program::source_line: the candidate's line an instruction came from, walking the `.loc`
// inlining chain out to the candidate's own file.
#include "harness/ptx/program.h"

namespace pkb::ptx {
namespace {

// Paths in .file are the compiling machine's; a message names the file only ("kernel.cu",
// "pkb/memory.cuh", "cuda_bf16.hpp").
std::string short_name(const std::string& path) {
  const std::size_t include = path.rfind("/include/");
  if (include != std::string::npos) return path.substr(include + 9);
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string Program::source_line(const Instr& instr) const {
  if (instr.loc < 0) return "";
  const SourceLoc* inner = &locs[static_cast<std::size_t>(instr.loc)];
  const SourceLoc* outer = inner;
  for (int guard = 0; outer->inlined_at >= 0 && guard < 64; ++guard)
    outer = &locs[static_cast<std::size_t>(outer->inlined_at)];
  auto text = [&](const SourceLoc& loc) {
    const std::string file = loc.file >= 0 && loc.file < static_cast<int>(files.size())
                                 ? short_name(files[static_cast<std::size_t>(loc.file)])
                                 : "?";
    return file + ":" + std::to_string(loc.line);
  };
  if (outer->line == 0) return "";
  if (outer == inner || inner->line == 0) return text(*outer);
  return text(*outer) + " (" + text(*inner) + ")";
}

}  // namespace pkb::ptx
