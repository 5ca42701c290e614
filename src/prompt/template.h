// Prompt templates: text files with {{name}} placeholders and {{#name}}...{{/name}} sections that
// appear only when `name` is not empty. Nothing else is special, so any Markdown survives as is.
#pragma once

#include <map>
#include <string>

namespace pkb::prompt {

using TemplateValues = std::map<std::string, std::string>;

/// Throws pkb::InputError naming `source` (the template's path) for an unknown name or an
/// unclosed section, so a typo in a user's template never silently drops text.
std::string render_template(const std::string& text, const TemplateValues& values,
                            const std::string& source);

}  // namespace pkb::prompt
