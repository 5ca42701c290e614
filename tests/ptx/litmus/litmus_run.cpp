// See litmus_run.h.
#include "tests/ptx/litmus/litmus_run.h"

#include <set>
#include <sstream>

#include "tests/ptx/ptx_fixture.h"

namespace pkb::ptx_test {
namespace {

constexpr int kRegisters = 16;
constexpr std::uint64_t kSlotBytes = kRegisters * 4;  // one thread's registers in the output buffer

// `line` with every [name] of a location rewritten to [%loc_name].
std::string rewrite_locations(const LitmusCase& c, const std::string& line) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t open; (open = line.find('[', at)) != std::string::npos;) {
    const std::size_t close = line.find(']', open);
    if (close == std::string::npos) break;
    const std::string inside = line.substr(open + 1, close - open - 1);
    bool location = false;
    for (const auto& l : c.locations) location = location || l.name == inside;
    out += line.substr(at, open - at) + (location ? "[%loc_" + inside + "]" : line.substr(open, close - open + 1));
    at = close + 1;
  }
  return out + line.substr(at);
}

}  // namespace

std::string litmus_module(const LitmusCase& c) {
  std::ostringstream ptx;
  ptx << ".version 8.3\n.target sm_90a\n.address_size 64\n";
  if (c.shared) ptx << ".shared .align 4 .b32 litmus_shared[" << c.locations.size() << "];\n";
  ptx << ".visible .entry litmus(.param .u64 locations, .param .u64 out, .param .u32 rank)\n{\n"
      << "  .reg .b32 %r<" << kRegisters << ">, %rank, %block, %thread;\n"
      << "  .reg .pred %p<4>, %not_me;\n  .reg .b64 %out;\n";
  for (const auto& l : c.locations) ptx << "  .reg .b64 %loc_" << l.name << ";\n";
  ptx << "  ld.param.u64 %out, [out];\n  ld.param.u32 %rank, [rank];\n"
      << "  mov.u32 %block, %ctaid.x;\n  mov.u32 %thread, %tid.x;\n";
  for (std::size_t l = 0; l < c.locations.size(); ++l) {
    const std::string reg = "%loc_" + c.locations[l].name;
    ptx << (c.shared ? "  mov.u64 " + reg + ", litmus_shared;\n" : "  ld.param.u64 " + reg + ", [locations];\n");
    if (l > 0) ptx << "  add.u64 " << reg << ", " << reg << ", " << l * 4 << ";\n";
  }
  if (c.shared) {  // thread 0 writes the initial values, a barrier orders them before every role
    ptx << "  setp.ne.u32 %not_me, %thread, 0;\n  @%not_me bra L_initialised;\n";
    for (const auto& l : c.locations) ptx << "  st.shared.u32 [%loc_" << l.name << "], " << l.initial << ";\n";
    ptx << "L_initialised:\n  bar.sync 0;\n";
  }
  for (int r = 0; r < kRegisters; ++r) ptx << "  mov.u32 %r" << r << ", 0;\n";
  for (std::size_t i = 0; i < c.threads.size(); ++i) {
    const LitmusThread& t = c.threads[i];
    const std::string skip = "L_not_" + t.name;
    ptx << "  // " << t.name << ": rank " << t.rank << " block " << t.block << " thread " << t.thread << "\n";
    for (const auto& [reg, value] : {std::pair<const char*, int>{"%rank", t.rank}, {"%block", t.block}, {"%thread", t.thread}})
      ptx << "  setp.ne.u32 %not_me, " << reg << ", " << value << ";\n  @%not_me bra " << skip << ";\n";
    for (const auto& line : t.body) ptx << "  " << rewrite_locations(c, line) << "\n";
    for (int r = 0; r < kRegisters; ++r)
      ptx << "  st.global.u32 [%out+" << i * kSlotBytes + static_cast<std::uint64_t>(r) * 4 << "], %r" << r << ";\n";
    ptx << "  bra.uni L_done;\n" << skip << ":\n";
  }
  ptx << "L_done:\n";
  if (c.shared) {  // every thread meets again, then thread 0 copies the final values out
    ptx << "  bar.sync 0;\n  setp.ne.u32 %not_me, %thread, 0;\n  @%not_me bra L_exit;\n";
    for (std::size_t l = 0; l < c.locations.size(); ++l)
      ptx << "  ld.shared.u32 %r0, [%loc_" << c.locations[l].name << "];\n  st.global.u32 [%out+"
          << c.threads.size() * kSlotBytes + l * 4 << "], %r0;\n";
    ptx << "L_exit:\n";
  }
  ptx << "  ret;\n}\n";
  return ptx.str();
}

LitmusRun run_litmus(const LitmusCase& c, const ptx::Schedule& schedule) {
  PtxFixture fixture(c.world());
  fixture.machine().set_schedule(schedule);
  fixture.machine().set_memory_model(ptx::MemoryModel::ptx, /*fault_on_race=*/false);
  fixture.load(litmus_module(c));
  const std::uint64_t locations = fixture.alloc(c.home, c.locations.size() * 4, "litmus locations");
  std::vector<std::uint32_t> initial;
  for (const auto& l : c.locations) initial.push_back(l.initial);
  fixture.write(locations, initial);
  std::vector<std::uint64_t> out;
  for (int rank = 0; rank < c.world(); ++rank)
    out.push_back(fixture.alloc(rank, c.threads.size() * kSlotBytes + c.locations.size() * 4, "litmus registers"));
  LitmusRun run;
  run.fault = fixture.run("litmus", {static_cast<std::uint32_t>(c.blocks()), 1, 1},
                          {static_cast<std::uint32_t>(c.threads_per_block()), 1, 1}, [&](int rank) {
                            return std::vector<std::string>{u64_param(locations), u64_param(out[static_cast<std::size_t>(rank)]),
                                                            u32_param(static_cast<std::uint32_t>(rank))};
                          });
  for (std::size_t i = 0; i < c.threads.size(); ++i)
    run.regs.push_back(fixture.read<std::uint32_t>(out[static_cast<std::size_t>(c.threads[i].rank)] + i * kSlotBytes, kRegisters));
  run.memory = fixture.read<std::uint32_t>(c.shared ? out[0] + c.threads.size() * kSlotBytes : locations,
                                           c.locations.size());
  for (const auto& finding : fixture.machine().race_findings())
    (finding.warning ? run.warnings : run.errors).push_back(finding.message);
  return run;
}

std::vector<ptx::Schedule> litmus_schedules(int world, int random_seeds) {
  std::vector<ptx::Schedule> schedules(3);
  schedules[0].policy = ptx::SchedulePolicy::fair;
  schedules[1].policy = ptx::SchedulePolicy::rank_order;
  schedules[2].policy = ptx::SchedulePolicy::reverse_order;
  for (int rank = world - 1; rank >= 0; --rank) schedules[2].rank_priority.push_back(rank);
  for (int seed = 1; seed <= random_seeds; ++seed) {
    ptx::Schedule random;
    random.policy = ptx::SchedulePolicy::random;
    random.seed = static_cast<std::uint64_t>(seed);
    schedules.push_back(random);
  }
  return schedules;
}

std::string schedule_text(const ptx::Schedule& schedule) {
  return ptx::schedule_name(schedule.policy) +
         (schedule.policy == ptx::SchedulePolicy::random ? " seed " + std::to_string(schedule.seed) : "");
}

std::string outcome_text(const LitmusCase& c, const LitmusRun& run) {
  std::set<std::pair<int, int>> named;
  for (const auto& conjunction : c.weak)
    for (const auto& term : conjunction)
      for (const LitmusValue* v : {&term.left, &term.right})
        if (v->kind == LitmusValue::Kind::reg) named.insert({v->thread, v->reg});
  std::ostringstream text;
  for (const auto& [thread, reg] : named)
    text << c.threads[static_cast<std::size_t>(thread)].name << ":r" << reg << "="
         << run.regs[static_cast<std::size_t>(thread)][static_cast<std::size_t>(reg)] << " ";
  for (std::size_t l = 0; l < c.locations.size(); ++l)
    text << c.locations[l].name << "=" << run.memory[l] << (l + 1 < c.locations.size() ? " " : "");
  return text.str();
}

}  // namespace pkb::ptx_test
