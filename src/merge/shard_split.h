// The inverse of merge, for `pkb evaluate DIR --shard I/N --out OUT`: N nodes evaluate one
// generation directory without sharing a writable folder. OUT gets the shard's records and the
// files they name; `pkb evaluate OUT` then runs on it as on any generated directory.
#pragma once

#include <filesystem>

#include "src/shard/shard.h"

namespace pkb::merge {

/// Writes OUT (run.json last, with "shard" and "split_from") unless it already holds this shard,
/// in which case it is left as it is so the same command continues an interrupted evaluation.
/// Throws pkb::UsageError when OUT holds something else, pkb::InputError for a bad DIR.
void split_shard(const std::filesystem::path& dir, const std::filesystem::path& out, shard::Shard shard);

}  // namespace pkb::merge
