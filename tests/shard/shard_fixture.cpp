// Cutting shards out of one run checks merge against the exact records the unsharded run wrote:
// whatever the shards lose or duplicate shows up as a difference in samples or scores.
#include "tests/shard/shard_fixture.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "src/shard/shard.h"
#include "tests/e2e/run_pkb.h"

namespace pkb::test {
namespace fs = std::filesystem;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::trunc) << text;
}

nlohmann::json read_json(const std::string& path) { return nlohmann::json::parse(read_text(path)); }

const std::string& whole_run() {
  static const std::string out = [] {
    const std::string cache = make_temp_dir("merge_cache");
    ::setenv("PKB_CACHE_DIR", cache.c_str(), 1);
    const std::string dir = make_temp_dir("merge_whole") + "/whole";
    // The six problems with replay folders: every status, 24 samples.
    const PkbRun run = run_pkb("-q run --model replay:examples/replay --problems 1-4,7,16 --samples 4 --dims test --out '" + dir + "'");
    if (run.exit_code != 0) throw std::runtime_error("pkb run failed: " + run.err);
    return dir;
  }();
  return out;
}

std::vector<std::string> cut_shards(int count) {
  const std::string& whole = whole_run();
  const nlohmann::json run = read_json(whole + "/run.json");
  std::vector<std::string> problems;
  for (const auto& problem : run["problems"]) problems.push_back(problem["key"]);
  const auto work = shard::work_list(problems, run["fingerprint"]["samples"].get<int>());
  const std::string root = make_temp_dir("merge_shards");
  std::vector<std::string> dirs;
  for (int index = 0; index < count; ++index) {
    const std::string dir = root + "/shard-" + std::to_string(index);
    fs::create_directories(dir);
    nlohmann::json shard_run = run;
    shard_run["shard"] = {{"index", index}, {"count", count}};
    write_text(dir + "/run.json", shard_run.dump(2) + "\n");
    std::string lines;
    std::istringstream in(read_text(whole + "/samples.jsonl"));
    for (const auto& item : shard::select_shard(work, {index, count})) {
      in.clear();
      in.seekg(0);
      for (std::string line; std::getline(in, line);) {
        const auto record = nlohmann::json::parse(line);
        if (record["problem"] == item.problem && record["sample"] == item.sample) lines += line + "\n";
      }
      const std::string sample = item.problem + "/sample_" + std::to_string(item.sample);
      if (fs::exists(whole + "/solutions/" + sample)) {
        fs::create_directories(dir + "/solutions/" + item.problem);
        fs::copy(whole + "/solutions/" + sample, dir + "/solutions/" + sample, fs::copy_options::recursive);
      }
      if (fs::exists(whole + "/logs/" + sample + ".txt")) {
        fs::create_directories(dir + "/logs/" + item.problem);
        fs::copy(whole + "/logs/" + sample + ".txt", dir + "/logs/" + sample + ".txt");
      }
    }
    write_text(dir + "/samples.jsonl", lines);
    dirs.push_back(dir);
  }
  return dirs;
}

}  // namespace pkb::test
