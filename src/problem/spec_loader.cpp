// problem.json -> ProblemSpec. The schema is described field by field in docs/ARCHITECTURE.md.
#include "src/problem/spec_loader.h"

#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "src/common/error.h"
#include "src/problem/json_fields.h"
#include "src/problem/size_rules.h"

namespace pkb::problem {
namespace {

const std::set<std::string> kCategories = {
    "collective", "data-parallel", "tensor-parallel", "sequence-parallel", "expert-parallel",
    "fsdp-zero",  "quantization",  "optimizer",       "loss",              "application"};

constexpr int kMaxWorld = 64;

std::string join(const std::set<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

bool is_identifier(const std::string& name) {
  static const std::regex kIdentifier("[A-Za-z_][A-Za-z0-9_]*");
  return std::regex_match(name, kIdentifier);
}

std::map<std::string, std::int64_t> read_dims(const JsonFields& obj, const std::string& key) {
  const JsonFields dims = obj.child(key);
  if (!dims.raw().is_object()) obj.fail(key, "an object of dim name to size", "an array");
  std::map<std::string, std::int64_t> out;
  for (const auto& name : dims.keys()) {
    if (!is_identifier(name) || name == "W" || name == "rank")
      dims.fail(name, "a dim name (an identifier other than W and rank)", "'" + name + "'");
    const std::int64_t size = dims.integer(name);
    if (size <= 0) dims.fail(name, "a positive integer", std::to_string(size));
    out[name] = size;
  }
  return out;
}

ShapeExpr read_expr(const JsonFields& obj, const nlohmann::json& value, const std::string& field,
                    const std::set<std::string>& names) {
  std::string text;
  if (value.is_number_integer()) text = std::to_string(value.get<std::int64_t>());
  else if (value.is_string()) text = value.get<std::string>();
  else obj.fail(field, "an integer or an expression string", JsonFields::describe(value));
  ShapeExpr expr;
  try {
    expr = ShapeExpr::parse(text);
  } catch (const Error& e) {
    obj.fail(field, "a valid expression", e.what());
  }
  for (const auto& variable : expr.variables())
    if (!names.count(variable))
      obj.fail(field,
               names.count("ELEM") ? "an expression over the dims, W, E and ELEM"
                                   : "an expression over the dims, W and rank",
               "unknown name '" + variable + "'");
  return expr;
}

DTypeRef read_dtype_ref(const JsonFields& obj) {
  const std::string name = obj.string("dtype");
  if (name == "P") return DTypeRef{};
  auto dtype = parse_dtype(name);
  if (!dtype) obj.fail("dtype", "P or one of " + dtype_names_list(), "\"" + name + "\"");
  return DTypeRef{false, *dtype};
}

std::vector<TensorSpec> read_tensors(const JsonFields& root, const std::string& key,
                                     const std::set<std::string>& names, bool outputs) {
  const JsonFields list = root.child(key);
  if (!list.raw().is_array() || list.size() == 0)
    root.fail(key, "a non-empty array of tensors", JsonFields::describe(list.raw()));
  std::vector<TensorSpec> tensors;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonFields item = list.element(i);
    if (!item.raw().is_object()) item.fail("", "an object", JsonFields::describe(item.raw()));
    std::set<std::string> allowed = {"name", "dtype", "shape", "doc"};
    if (outputs) allowed.insert("inout");
    item.reject_unknown(allowed);
    TensorSpec tensor;
    tensor.name = item.string("name");
    if (!is_identifier(tensor.name)) item.fail("name", "an identifier", "\"" + tensor.name + "\"");
    if (!seen.insert(tensor.name).second)
      item.fail("name", "a name unique within " + key, "a second '" + tensor.name + "'");
    tensor.dtype = read_dtype_ref(item);
    const JsonFields shape = item.child("shape");
    if (!shape.raw().is_array()) item.fail("shape", "an array of sizes", "an object");
    for (std::size_t d = 0; d < shape.size(); ++d)
      tensor.shape.push_back(read_expr(item, shape.raw()[d], "shape[" + std::to_string(d) + "]", names));
    tensor.doc = item.string_or("doc", "");
    tensor.inout = outputs && item.boolean_or("inout", false);
    tensors.push_back(std::move(tensor));
  }
  return tensors;
}

std::vector<ScalarSpec> read_scalars(const JsonFields& root) {
  std::vector<ScalarSpec> scalars;
  if (!root.has("scalars")) return scalars;
  const JsonFields list = root.child("scalars");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonFields item = list.element(i);
    item.reject_unknown({"name", "type", "value", "doc"});
    ScalarSpec scalar;
    scalar.name = item.string("name");
    const std::string type = item.string("type");
    if (type == "int") {
      scalar.type = ScalarType::int64;
      scalar.value = static_cast<double>(item.integer("value"));
    } else if (type == "float") {
      scalar.type = ScalarType::float64;
      scalar.value = item.number("value");
    } else {
      item.fail("type", "int or float", "\"" + type + "\"");
    }
    scalar.doc = item.string_or("doc", "");
    scalars.push_back(std::move(scalar));
  }
  return scalars;
}

std::vector<GroupSpec> read_groups(const JsonFields& root, const std::set<std::string>& names) {
  std::vector<GroupSpec> groups;
  if (!root.has("groups")) return groups;
  const JsonFields list = root.child("groups");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonFields item = list.element(i);
    item.reject_unknown({"name", "size", "layout", "doc"});
    GroupSpec group;
    group.name = item.string("name");
    if (!item.has("size")) item.fail("size", "a value", "nothing (the field is missing)");
    group.size = read_expr(item, item.raw().at("size"), "size", names);
    const std::string layout = item.string_or("layout", "block");
    if (layout == "block") group.layout = GroupLayout::block;
    else if (layout == "strided") group.layout = GroupLayout::strided;
    else item.fail("layout", "block or strided", "\"" + layout + "\"");
    groups.push_back(std::move(group));
  }
  return groups;
}

void read_tolerance(const JsonFields& root, ProblemSpec& spec) {
  const JsonFields table = root.child("tolerance");
  for (const auto& key : table.keys()) {
    auto dtype = parse_dtype(key);
    if (!dtype || !is_floating(*dtype))
      table.fail(key, "a floating dtype name", "\"" + key + "\"");
    const JsonFields entry = table.child(key);
    entry.reject_unknown({"atol", "rtol"});
    Tolerance tolerance{entry.number("atol"), entry.number("rtol")};
    if (tolerance.atol < 0 || tolerance.rtol < 0)
      entry.fail("atol", "non-negative atol and rtol", "a negative value");
    spec.tolerance[*dtype] = tolerance;
  }
  for (DType dtype : spec.dtypes)
    if (!spec.tolerance.count(dtype))
      root.fail("tolerance", "an entry for every dtype in dtypes",
                "none for " + std::string(dtype_name(dtype)));
}

/// Whether a problem.json without "sol" fails to load. Off: scaffolded problems and hand-written
/// test specs load without one; tests/sol/sol_registry_test.cpp requires one in every registered
/// problem instead, so the registry cannot lose a floor unnoticed.
constexpr bool kRequireSol = false;

SolTerm read_sol_term(const JsonFields& sol, const std::string& key,
                      const std::set<std::string>& names) {
  const JsonFields item = sol.child(key);
  if (!item.raw().is_object())
    sol.fail(key, "an object with expr and why", JsonFields::describe(item.raw()));
  item.reject_unknown({"expr", "why"});
  if (!item.has("expr")) item.fail("expr", "a value", "nothing (the field is missing)");
  SolTerm term{read_expr(item, item.raw().at("expr"), "expr", names), item.string("why")};
  return term;
}

std::optional<SolSpec> read_sol(const JsonFields& root,
                                const std::map<std::string, std::int64_t>& dims) {
  if (!root.has("sol")) {
    if (kRequireSol)
      root.fail("sol", "the speed-of-light entry (link_bytes, hbm_bytes, flops)", "nothing");
    return std::nullopt;
  }
  const JsonFields sol = root.child("sol");
  if (!sol.raw().is_object()) root.fail("sol", "an object", "an array");
  sol.reject_unknown({"link_bytes", "link_bytes_nvls", "hbm_bytes", "flops", "notes"});
  const std::set<std::string> names = sol_names(dims);
  SolSpec spec;
  spec.link_bytes = read_sol_term(sol, "link_bytes", names);
  spec.hbm_bytes = read_sol_term(sol, "hbm_bytes", names);
  spec.flops = read_sol_term(sol, "flops", names);
  if (sol.has("link_bytes_nvls"))
    spec.link_bytes_nvls = read_sol_term(sol, "link_bytes_nvls", names);
  spec.notes = sol.string_or("notes", "");
  return spec;
}

std::string dims_text(const std::map<std::string, std::int64_t>& dims) {
  std::string out;
  for (const auto& [name, size] : dims) out += (out.empty() ? "" : " ") + name + "=" + std::to_string(size);
  return out;
}

// "size_rules": each rule parses, names only dims, W and int scalars, and holds where it must: a
// user rule at the test and the bench dims, a drawn_only rule at the test dims (the sampler starts
// there), for every allowed W.
std::vector<SizeRule> read_size_rules(const JsonFields& root, const ProblemSpec& spec) {
  std::vector<SizeRule> rules;
  if (!root.has("size_rules")) return rules;
  const JsonFields list = root.child("size_rules");
  if (!list.raw().is_array())
    root.fail("size_rules", "an array of {rule, why}", JsonFields::describe(list.raw()));
  const std::set<std::string> names = size_rule_names(spec);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonFields item = list.element(i);
    if (!item.raw().is_object()) item.fail("", "an object", JsonFields::describe(item.raw()));
    item.reject_unknown({"rule", "why", "drawn_only"});
    SizeRule rule;
    const std::string text = item.string("rule");
    try {
      rule.rule = ShapeExpr::parse(text);
    } catch (const Error& e) {
      item.fail("rule", "a valid expression", e.what());
    }
    for (const auto& variable : rule.rule.variables())
      if (!names.count(variable))
        item.fail("rule", "an expression over the dims, W and the int scalars",
                  "unknown name '" + variable + "'");
    rule.why = item.string_or("why", "");
    rule.drawn_only = item.boolean_or("drawn_only", false);
    rules.push_back(std::move(rule));
  }
  for (std::size_t i = 0; i < rules.size(); ++i) {
    ProblemSpec one = spec;
    one.size_rules = {rules[i]};
    for (int world : spec.world_sizes) {
      const JsonFields item = list.element(i);
      if (broken_size_rule(one, spec.test_dims, world, RuleScope::drawn))
        item.fail("rule", "a rule the test dims satisfy at every allowed W",
                  "'" + rules[i].rule.text() + "' breaks at W=" + std::to_string(world) + " " +
                      dims_text(spec.test_dims));
      if (!rules[i].drawn_only && broken_size_rule(one, spec.dims, world, RuleScope::user))
        item.fail("rule", "a rule the bench dims satisfy at every allowed W (or \"drawn_only\": true)",
                  "'" + rules[i].rule.text() + "' breaks at W=" + std::to_string(world) + " " +
                      dims_text(spec.dims));
    }
  }
  return rules;
}

}  // namespace

ProblemSpec parse_problem(const std::string& text, const std::string& file,
                          const std::filesystem::path& dir) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(file + ": not valid JSON: " + e.what());
  }
  if (!doc.is_object()) throw InputError(file, "(top level)", "an object", JsonFields::describe(doc));
  const JsonFields root(doc, file, "");
  root.reject_unknown({"schema_version", "id", "name", "category", "summary", "dims", "test_dims",
                       "world_sizes", "dtypes", "inputs", "outputs", "scalars", "groups",
                       "tolerance", "error_ratio", "check_note", "upstream_divergence", "sol", "size_rules"});

  const std::int64_t version = root.integer("schema_version");
  if (version != kSchemaVersion)
    root.fail("schema_version", std::to_string(kSchemaVersion), std::to_string(version));

  ProblemSpec spec;
  spec.dir = dir;
  const std::int64_t id = root.integer("id");
  if (id < 1 || id > 999) root.fail("id", "an integer from 1 to 999", std::to_string(id));
  spec.id = static_cast<int>(id);
  spec.name = root.string("name");
  if (!std::regex_match(spec.name, std::regex("[a-z0-9_]+")))
    root.fail("name", "lowercase letters, digits and underscores", "\"" + spec.name + "\"");
  char key[16];
  std::snprintf(key, sizeof key, "%03d_", spec.id);
  spec.key = key + spec.name;
  if (!dir.empty() && dir.filename().string() != spec.key)
    root.fail("name", "id and name to match the folder '" + dir.filename().string() + "'",
              "'" + spec.key + "'");
  spec.category = root.string("category");
  if (!kCategories.count(spec.category))
    root.fail("category", "one of " + join(kCategories), "\"" + spec.category + "\"");
  spec.summary = root.string("summary");

  spec.dims = read_dims(root, "dims");
  spec.test_dims = read_dims(root, "test_dims");
  for (const auto& [name, size] : spec.dims)
    if (!spec.test_dims.count(name)) root.fail("test_dims", "a size for every dim", "none for " + name);
  for (const auto& [name, size] : spec.test_dims)
    if (!spec.dims.count(name)) root.fail("test_dims." + name, "a dim declared in dims", "'" + name + "'");

  const JsonFields worlds = root.child("world_sizes");
  for (std::size_t i = 0; i < worlds.size(); ++i) {
    const auto& value = worlds.raw()[i];
    if (!value.is_number_integer() || value.get<int>() < 1 || value.get<int>() > kMaxWorld)
      root.fail("world_sizes[" + std::to_string(i) + "]", "an integer from 1 to 64", JsonFields::describe(value));
    spec.world_sizes.push_back(value.get<int>());
  }
  if (spec.world_sizes.empty()) root.fail("world_sizes", "a non-empty array", "[]");

  if (root.has("dtypes")) {
    const JsonFields list = root.child("dtypes");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const auto& value = list.raw()[i];
      auto dtype = value.is_string() ? parse_dtype(value.get<std::string>()) : std::nullopt;
      if (!dtype || !is_run_precision(*dtype))
        root.fail("dtypes[" + std::to_string(i) + "]", "one of bf16, fp16, fp32", JsonFields::describe(value));
      spec.dtypes.push_back(*dtype);
    }
  } else {
    spec.dtypes = {DType::bf16, DType::fp16, DType::fp32};
  }

  std::set<std::string> names = {"W", "rank"};
  for (const auto& [name, size] : spec.dims) names.insert(name);
  spec.inputs = read_tensors(root, "inputs", names, false);
  spec.outputs = read_tensors(root, "outputs", names, true);
  for (const auto& output : spec.outputs) {
    bool has_input = false;
    for (const auto& input : spec.inputs) has_input = has_input || input.name == output.name;
    if (output.inout && !has_input)
      root.fail("outputs", "an inout output to share its name with an input", "'" + output.name + "'");
    if (!output.inout && has_input)
      root.fail("outputs", "names distinct from the inputs (or \"inout\": true)", "'" + output.name + "'");
  }
  spec.scalars = read_scalars(root);
  spec.groups = read_groups(root, names);
  read_tolerance(root, spec);
  if (root.has("error_ratio")) {
    spec.error_ratio = root.number("error_ratio");
    if (spec.error_ratio < 1) root.fail("error_ratio", "a number >= 1", std::to_string(spec.error_ratio));
  }
  spec.check_note = root.string_or("check_note", "");
  spec.upstream_divergence = root.string_or("upstream_divergence", "");
  spec.sol = read_sol(root, spec.dims);
  spec.size_rules = read_size_rules(root, spec);
  return spec;
}

const std::set<std::string>& problem_categories() { return kCategories; }

ProblemSpec load_problem(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "problem.json";
  std::ifstream in(file);
  if (!in) throw InputError(file.string() + ": cannot read the file (missing or unreadable)");
  std::stringstream text;
  text << in.rdbuf();
  return parse_problem(text.str(), file.string(), dir);
}

}  // namespace pkb::problem
