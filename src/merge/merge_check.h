// The three rules that make shards one run: equal settings, no sample twice, none missing. Each
// throws pkb::InputError with a message that names the field, both directories, or the shard
// that did not finish.
#pragma once

#include <vector>

#include "src/merge/shard_dir.h"

namespace pkb::merge {

/// kind, schema_version, hardware_key, every fingerprint field, the shard count and, for shards of
/// one problem list, problem_set (the problem files' hash) must be equal; shard indexes distinct.
void check_same_settings(const std::vector<ShardDir>& dirs);

/// A (problem, sample, turn) in two places is an error naming both.
void check_no_duplicates(const std::vector<ShardDir>& dirs);

/// Every sample run.json promises (its problems x samples per problem) has a record; the message
/// groups the missing ones by the shard that owns them.
void check_complete(const std::vector<ShardDir>& dirs);

}  // namespace pkb::merge
