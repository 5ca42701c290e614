// The one reader and writer of run.json (see run_file.h).
#include "src/results/run_file.h"

#include <system_error>

#include "src/common/error.h"
#include "src/results/durable_file.h"
#include "src/results/record.h"

namespace pkb::results {
namespace fs = std::filesystem;

nlohmann::json read_run_file(const fs::path& dir) {
  const fs::path path = dir / "run.json";
  std::error_code error;
  if (!fs::is_regular_file(path, error))
    throw InputError(path.string() + ": no such file (not a results directory)");
  auto doc = nlohmann::json::parse(read_file(path), nullptr, false);
  if (doc.is_discarded() || !doc.is_object())
    throw InputError(path.string() + ": not a JSON object (corrupt or cut short)");
  check_schema_version(doc, path.string());
  return doc;
}

void write_run_file(const fs::path& dir, const nlohmann::json& doc) {
  write_file_atomic(dir / "run.json", doc.dump(2) + "\n");
}

}  // namespace pkb::results
