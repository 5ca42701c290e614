// The plan as written (internal to harness/plan): fields checked and expressions parsed, nothing
// evaluated. parse_plan builds it; resolve_plan evaluates it for one rank.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/plan/plan.h"
#include "src/problem/shape_expr.h"

namespace pkb::plan {

using problem::ShapeExpr;

struct ParsedBuffer {
  std::string name;
  BufferKind kind = BufferKind::symmetric;
  std::optional<DType> dtype;  // empty: the run precision P
  std::vector<ShapeExpr> shape;
  std::string where;  // "buffers[2]"
};

/// A kernel argument as written ("peers(x)", "i32(N / W)", "x[rank * N]", ...).
struct ParsedArg {
  ArgKind kind = ArgKind::i32;
  std::string buffer;               // pointer, peers, multicast
  std::optional<ShapeExpr> expr;    // integers; pointer element offset
  std::optional<double> literal;    // f32/f64 given as a number
  std::string scalar;               // f32/f64 given as a problem scalar's name
  std::string text;
};

/// An optional integer expression field with its default.
struct ExprField {
  std::optional<ShapeExpr> expr;
  std::string where;  // "steps[1].count"
};

struct ParsedStep {
  int index = 0;
  std::string where;  // "steps[1]"
  StepOp op = StepOp::kernel;
  int stream = 0;
  std::vector<std::string> waits;
  std::string record;  // "" when none

  // kernel
  std::string kernel;
  std::vector<ShapeExpr> grid, block, cluster;
  ExprField shared_bytes;
  bool cooperative = false;
  std::vector<ParsedArg> args;
  // memset: buffer, value
  std::string buffer;
  int value = 0;
  // copy: dst, src, count, offsets and ranks
  std::string dst, src;
  ExprField count, dst_offset, src_offset, dst_rank, src_rank;
  // gemm
  std::string a, b, c;
  ExprField m, n, k, lda, ldb, ldc, a_offset, b_offset, c_offset;
  bool trans_a = false, trans_b = false;
  double alpha = 1, beta = 0;
  // collective (send, recv, count, send_offset -> src_offset, recv_offset -> dst_offset)
  CollectiveKind collective = CollectiveKind::all_reduce;
  std::string send, recv;
  ReduceOp reduce = ReduceOp::sum;
  ExprField root, peer;
  std::string group;        // "" when the collective spans all W ranks
  std::string group_where;  // "steps[1].group"
};

struct ParsedPlan {
  std::vector<ParsedBuffer> buffers;
  std::vector<ParsedStep> steps;   // in file order
  std::vector<int> order;          // issue order: a topological order of the step graph
  std::vector<std::string> events; // event id -> name, in order of first record
};

/// Parses one kernel argument string; `where` is "steps[1].args[2]". Throws PlanError.
ParsedArg parse_arg(const std::string& text, const std::string& where);

/// The issue order of the steps: program order per stream plus event waits, as a graph; steps
/// that can go in any order keep file order. Throws PlanError naming a cycle or an unknown event.
std::vector<int> issue_order(const std::vector<ParsedStep>& steps, std::vector<std::string>& events);

}  // namespace pkb::plan
