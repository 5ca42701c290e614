// render_template: one pass over the text; sections do not nest (the templates need none).
#include "src/prompt/template.h"

#include "src/common/did_you_mean.h"
#include "src/common/error.h"

namespace pkb::prompt {
namespace {

int line_of(const std::string& text, std::size_t pos) {
  int line = 1;
  for (std::size_t index = 0; index < pos && index < text.size(); ++index)
    line += text[index] == '\n';
  return line;
}

const std::string& lookup(const TemplateValues& values, const std::string& name,
                          const std::string& text, std::size_t pos, const std::string& source) {
  const auto found = values.find(name);
  if (found != values.end()) return found->second;
  std::vector<std::string> names;
  for (const auto& entry : values) names.push_back(entry.first);
  std::string hint;
  if (auto near = closest_match(name, names)) hint = ", did you mean '" + *near + "'?";
  throw InputError(source + ":" + std::to_string(line_of(text, pos)) + ": unknown placeholder '" +
                   name + "'" + hint);
}

}  // namespace

std::string render_template(const std::string& text, const TemplateValues& values,
                            const std::string& source) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t open = text.find("{{", pos);
    if (open == std::string::npos) {
      out.append(text, pos, std::string::npos);
      break;
    }
    out.append(text, pos, open - pos);
    const std::size_t close = text.find("}}", open + 2);
    if (close == std::string::npos)
      throw InputError(source + ":" + std::to_string(line_of(text, open)) + ": '{{' without '}}'");
    const std::string tag = text.substr(open + 2, close - open - 2);
    pos = close + 2;
    if (tag.empty() || tag[0] != '#') {
      if (!tag.empty() && tag[0] == '/')
        throw InputError(source + ":" + std::to_string(line_of(text, open)) + ": '{{" + tag +
                         "}}' closes no section");
      out += lookup(values, tag, text, open, source);
      continue;
    }
    const std::string name = tag.substr(1);
    const std::string end_tag = "{{/" + name + "}}";
    const std::size_t end = text.find(end_tag, pos);
    if (end == std::string::npos)
      throw InputError(source + ":" + std::to_string(line_of(text, open)) + ": section '" + name +
                       "' is never closed with " + end_tag);
    const bool shown = !lookup(values, name, text, open, source).empty();
    if (shown) out += render_template(text.substr(pos, end - pos), values, source);
    pos = end + end_tag.size();
  }
  return out;
}

}  // namespace pkb::prompt
