#include "src/scaffold/python_signature.h"

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "src/common/subprocess.h"

namespace pkb::scaffold {
namespace {

// Run as `python3 -c PROGRAM FILE`; prints one JSON object, {"error": ...} for a bad file.
constexpr const char* kProgram = R"PY(
import ast, json, sys
path = sys.argv[1]
def done(obj):
    print(json.dumps(obj)); sys.exit(0)
try:
    tree = ast.parse(open(path, encoding="utf-8").read(), filename=path)
except SyntaxError as e:
    done({"error": "line %s: %s" % (e.lineno, e.msg)})
except (OSError, UnicodeDecodeError) as e:
    done({"error": str(e)})
found = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "solution"]
if not found:
    done({"error": "no top-level def solution(...)"})
fn = found[0]
def number(node):
    try:
        value = ast.literal_eval(node)
    except Exception:
        return None
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
positional = list(getattr(fn.args, "posonlyargs", [])) + list(fn.args.args)
first_default = len(positional) - len(fn.args.defaults)
inputs, scalars, groups = [], [], False
def annotated(arg):
    a = arg.annotation
    return a.id if isinstance(a, ast.Name) and a.id in ("int", "float") else None
for i, arg in enumerate(positional):
    if arg.arg == "groups":
        groups = True
    elif i < first_default and annotated(arg) is None:
        inputs.append(arg.arg)
    else:
        v = number(fn.args.defaults[i - first_default]) if i >= first_default else None
        is_int = isinstance(v, int) if v is not None else annotated(arg) == "int"
        scalars.append({"name": arg.arg, "int": is_int, "value": v if v is not None else 0})
for arg, default in zip(fn.args.kwonlyargs, fn.args.kw_defaults):
    if arg.arg == "groups":
        groups = True
        continue
    v = number(default) if default is not None else None
    scalars.append({"name": arg.arg, "int": isinstance(v, int), "value": v if v is not None else 0})
outputs = []
for node in ast.walk(fn):
    if isinstance(node, ast.Return) and node.value is not None:
        items = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
        if all(isinstance(x, ast.Name) for x in items):
            outputs = [x.id for x in items]
doc = (ast.get_docstring(fn) or "").strip().splitlines()
done({"inputs": inputs, "scalars": scalars, "outputs": outputs, "groups": groups,
      "summary": doc[0] if doc else ""})
)PY";

std::string python_program() {
  if (const char* env = std::getenv("PKB_PYTHON"); env != nullptr && *env != '\0') return env;
  return find_program("python3");
}

}  // namespace

PythonSignature parse_signature_json(const std::string& json, const std::string& file) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(json);
  } catch (const nlohmann::json::parse_error&) {
    throw Error(file + ": python3 printed no signature: " + json.substr(0, 200));
  }
  if (doc.contains("error")) throw InputError(file + ": " + doc["error"].get<std::string>());
  PythonSignature signature;
  signature.inputs = doc.at("inputs").get<std::vector<std::string>>();
  for (const auto& item : doc.at("scalars"))
    signature.scalars.push_back({item.at("name"), item.at("int").get<bool>(), item.at("value").get<double>()});
  signature.outputs = doc.at("outputs").get<std::vector<std::string>>();
  signature.takes_groups = doc.at("groups").get<bool>();
  signature.summary = doc.at("summary").get<std::string>();
  return signature;
}

PythonSignature read_signature_text(const std::string& source, const std::string& file) {
  static const std::regex kDef(R"((^|\n)def solution\(([^)]*)\))");
  std::smatch match;
  if (!std::regex_search(source, match, kDef)) throw InputError(file + ": no top-level def solution(...)");
  PythonSignature signature;
  std::stringstream args(match[2].str());
  std::string arg;
  bool keyword_only = false;
  while (std::getline(args, arg, ',')) {
    arg = std::regex_replace(arg, std::regex(R"(^\s+|\s+$)"), "");
    if (arg.empty() || arg == "/") continue;
    if (arg == "*") {
      keyword_only = true;
      continue;
    }
    const auto equals = arg.find('=');
    const std::string name = std::regex_replace(arg.substr(0, arg.find_first_of(":=")), std::regex(R"(\s+)"), "");
    if (name == "groups") {
      signature.takes_groups = true;
    } else if (equals == std::string::npos && !keyword_only &&
               !std::regex_search(arg, std::regex(R"(:\s*(int|float)\s*$)"))) {
      signature.inputs.push_back(name);
    } else {
      const std::string value = equals == std::string::npos ? "" : arg.substr(equals + 1);
      char* end = nullptr;
      const double number = std::strtod(value.c_str(), &end);
      const bool numeric = !value.empty() && end != value.c_str();
      const bool is_int = numeric ? value.find_first_of(".eE") == std::string::npos
                                  : std::regex_search(arg, std::regex(R"(:\s*int\b)"));
      signature.scalars.push_back({name, is_int, numeric ? number : 0});
    }
  }
  return signature;
}

PythonSignature read_python_signature(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw InputError(file.string() + ": cannot read the file");
  std::stringstream text;
  text << in.rdbuf();
  const std::string python = python_program();
  if (python.empty()) return read_signature_text(text.str(), file.string());
  const ProcessResult run = run_process({python, "-c", kProgram, file.string()}, "", 60);
  if (run.exit_code != 0)
    throw Error(file.string() + ": python3 could not read it: " + run.err.substr(0, 400));
  return parse_signature_json(run.out, file.string());
}

}  // namespace pkb::scaffold
