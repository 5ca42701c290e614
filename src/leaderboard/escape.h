// Escaping text that comes from results (model names, problem keys, categories): untrusted, since a
// results directory can come from anyone's pull request.
#pragma once

#include <string>

namespace pkb::leaderboard {

/// &, <, >, " and ' as entities: safe in element text and in quoted attribute values.
std::string html_escape(const std::string& text);

/// Safe in a markdown table cell: markdown punctuation backslash-escaped, HTML specials as
/// entities, newlines as spaces.
std::string markdown_escape(const std::string& text);

}  // namespace pkb::leaderboard
