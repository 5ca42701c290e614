// issue_order: the plan's steps form a graph (program order on each stream, plus an edge from
// the step that records an event to every step that waits for it). The executor issues steps in
// a topological order of that graph, so a wait may name an event recorded by a later step in
// the file; a cycle can never run and is a plan_error.
#include <map>
#include <set>

#include "harness/plan/plan_parsed.h"

namespace pkb::plan {
namespace {

/// One cycle among the steps left over by Kahn's algorithm, as "steps[1] waits for 'b' (recorded by
/// steps[3]), steps[3] ...". Every leftover step has an unfinished predecessor, so walking
/// predecessors from any of them must revisit a step.
std::string describe_cycle(const std::vector<ParsedStep>& steps,
                           const std::vector<std::vector<std::pair<int, std::string>>>& preds,
                           const std::vector<int>& indegree) {
  int at = -1;
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (indegree[i] > 0) at = static_cast<int>(i);
  std::vector<int> path;
  std::map<int, std::size_t> seen;
  while (!seen.count(at)) {
    seen[at] = path.size();
    path.push_back(at);
    for (const auto& [pred, why] : preds[at])
      if (indegree[pred] > 0) {
        at = pred;
        break;
      }
  }
  std::string text;
  for (std::size_t i = seen[at]; i < path.size(); ++i) {
    const int step = path[i];
    const int pred = i + 1 < path.size() ? path[i + 1] : at;
    for (const auto& [p, why] : preds[step])
      if (p == pred) text += (text.empty() ? "" : ", ") + steps[step].where + " " + why;
  }
  return text;
}

}  // namespace

std::vector<int> issue_order(const std::vector<ParsedStep>& steps, std::vector<std::string>& events) {
  const int count = static_cast<int>(steps.size());
  std::map<std::string, int> recorder;
  for (const auto& step : steps) {
    if (step.record.empty()) continue;
    if (recorder.count(step.record))
      throw PlanError("plan: " + step.where + ".record: event '" + step.record + "' is already recorded by " +
                      steps[recorder[step.record]].where + " (record each event once)");
    recorder[step.record] = step.index;
    events.push_back(step.record);
  }
  // preds[s]: (step that must be issued before s, why) pairs.
  std::vector<std::vector<std::pair<int, std::string>>> preds(count);
  std::map<int, int> last_on_stream;
  for (const auto& step : steps) {
    if (last_on_stream.count(step.stream))
      preds[step.index].push_back({last_on_stream[step.stream],
                                   "follows " + steps[last_on_stream[step.stream]].where + " on stream " +
                                       std::to_string(step.stream)});
    last_on_stream[step.stream] = step.index;
    for (std::size_t w = 0; w < step.waits.size(); ++w) {
      const std::string& event = step.waits[w];
      if (!recorder.count(event)) {
        std::string known;
        for (const auto& name : events) known += (known.empty() ? "" : ", ") + name;
        throw PlanError("plan: " + step.where + ".wait[" + std::to_string(w) + "]: event '" + event +
                        "' is never recorded (recorded events: " + (known.empty() ? "none" : known) + ")");
      }
      preds[step.index].push_back({recorder[event], "waits for '" + event + "' (recorded by " +
                                                        steps[recorder[event]].where + ")"});
    }
  }
  std::vector<int> indegree(count, 0);
  std::vector<std::vector<int>> succs(count);
  for (int s = 0; s < count; ++s)
    for (const auto& [pred, why] : preds[s]) {
      ++indegree[s];
      succs[pred].push_back(s);
    }
  std::set<int> ready;
  for (int s = 0; s < count; ++s)
    if (indegree[s] == 0) ready.insert(s);
  std::vector<int> order;
  while (!ready.empty()) {
    const int s = *ready.begin();  // the earliest ready step keeps file order where it can
    ready.erase(ready.begin());
    order.push_back(s);
    for (int next : succs[s])
      if (--indegree[next] == 0) ready.insert(next);
  }
  if (static_cast<int>(order.size()) != count)
    throw PlanError("plan: steps: the event waits form a cycle, so no order can run them: " +
                    describe_cycle(steps, preds, indegree));
  return order;
}

}  // namespace pkb::plan
