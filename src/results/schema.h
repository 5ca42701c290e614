// The schema versions a results directory's files carry (run.json and the lines of samples.jsonl
// and generate.jsonl; docs/RESULTS.md): one owner, so writers and readers cannot disagree.
#pragma once

namespace pkb::results {

/// Generation records and `pkb generate`'s run.json: the answer, no verdict.
constexpr int kGenerationSchema = 1;
/// Everything evaluated: `pkb run`, `pkb evaluate` and merged directories.
constexpr int kEvaluatedSchema = 2;
/// The newest this pkb reads; a higher schema_version is refused.
constexpr int kMaxSchemaVersion = kEvaluatedSchema;

}  // namespace pkb::results
