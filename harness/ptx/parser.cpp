// load_program: the module's directives, variables and functions; each instruction's guard,
// opcode and operands, handed to decode_instruction. Registers and symbols are resolved here
// through nested scopes (inline-asm blocks declare their own), labels and .branchtargets tables
// after each body.
#include <algorithm>
#include <map>
#include <string>

#include "harness/ptx/decode.h"
#include "harness/ptx/program.h"
#include "harness/ptx/ptx_error.h"
#include "harness/ptx/ptx_lexer.h"

namespace pkb::ptx {
namespace {

std::int64_t align_up(std::int64_t value, std::int64_t align) {
  return align <= 1 ? value : (value + align - 1) / align * align;
}

/// What a name in scope stands for.
struct Binding {
  enum class Kind { reg, symbol } kind;
  std::int32_t index;
};

class Parser {
 public:
  Parser(std::unique_ptr<std::string> text) : program_(std::make_shared<Program>()) {
    program_->text = std::move(text);
    tokens_ = tokenize(*program_->text);
  }

  std::shared_ptr<const Program> run() {
    scopes_.emplace_back();  // module scope
    while (!at_end()) module_statement();
    for (std::size_t f = 0; f < program_->functions.size(); ++f)
      if (program_->functions[f].entry && !program_->functions[f].defined)
        throw ParseError(program_->functions[f].line,
                         "entry " + program_->functions[f].name + " has no body");
    return program_;
  }

 private:
  // ---- tokens
  const Token& peek(std::size_t ahead = 0) const {
    return tokens_[std::min(at_ + ahead, tokens_.size() - 1)];
  }
  bool at_end() const { return peek().kind == TokenKind::end; }
  const Token& next() {
    const Token& token = peek();
    if (at_ + 1 < tokens_.size()) ++at_;
    return token;
  }
  bool is(std::string_view text, std::size_t ahead = 0) const { return peek(ahead).text == text; }
  bool accept(std::string_view text) {
    if (!is(text)) return false;
    next();
    return true;
  }
  const Token& expect(std::string_view text) {
    if (!is(text))
      throw ParseError(peek().line, "expected '" + std::string(text) + "', got '" +
                                        std::string(peek().text) + "'");
    return next();
  }
  const Token& expect_ident() {
    if (peek().kind != TokenKind::ident)
      throw ParseError(peek().line, "expected a name, got '" + std::string(peek().text) + "'");
    return next();
  }
  std::int64_t expect_integer() {
    bool negative = accept("-");
    if (peek().kind != TokenKind::integer)
      throw ParseError(peek().line, "expected an integer, got '" + std::string(peek().text) + "'");
    const auto value = static_cast<std::int64_t>(next().bits);
    return negative ? -value : value;
  }
  void skip_to_semicolon() {
    while (!at_end() && !is(";")) next();
    accept(";");
  }
  void skip_line(int line) {
    while (!at_end() && peek().line == line) next();
  }
  void skip_braces() {
    int depth = 0;
    do {
      if (is("{")) ++depth;
      if (is("}")) --depth;
      next();
    } while (depth > 0 && !at_end());
  }

  // ---- scopes
  void bind(const std::string& name, Binding binding) { scopes_.back()[name] = binding; }
  const Binding* lookup(std::string_view name) const {
    const std::string key(name);
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      const auto found = scope->find(key);
      if (found != scope->end()) return &found->second;
    }
    return nullptr;
  }

  // ---- module level
  void module_statement() {
    const Token& token = peek();
    if (token.text == ".version" || token.text == ".address_size") {
      skip_line(token.line);
    } else if (token.text == ".target") {
      next();
      program_->target = std::string(expect_ident().text);
      while (accept(",")) next();
    } else if (token.text == ".file") {
      file_directive();
    } else if (token.text == ".section") {
      next();
      next();  // the section name
      skip_braces();
    } else if (token.text == ".pragma") {
      skip_to_semicolon();
    } else if (token.text == ".visible" || token.text == ".extern" || token.text == ".weak" ||
               token.text == ".entry" || token.text == ".func" || token.text == ".global" ||
               token.text == ".const" || token.text == ".shared" || token.text == ".local" ||
               token.text == ".common") {
      declaration();
    } else if (token.text == ".alias") {
      skip_to_semicolon();
    } else {
      throw ParseError(token.line, "unexpected '" + std::string(token.text) + "' at module scope");
    }
  }

  void file_directive() {
    next();
    const std::int64_t index = expect_integer();
    const Token& path = next();
    if (path.kind != TokenKind::string) throw ParseError(path.line, ".file: expected a path");
    if (index >= static_cast<std::int64_t>(program_->files.size()))
      program_->files.resize(static_cast<std::size_t>(index) + 1);
    program_->files[static_cast<std::size_t>(index)] =
        std::string(path.text.substr(1, path.text.size() - 2));
    while (accept(",")) next();  // timestamp, size
  }

  void declaration() {
    bool is_extern = false;
    while (is(".visible") || is(".extern") || is(".weak") || is(".common")) {
      if (is(".extern")) is_extern = true;
      next();
    }
    if (is(".entry") || is(".func")) return function();
    variable(is_extern, /*in_function=*/false, /*list=*/true);
    expect(";");
  }

  // A .global/.const/.shared/.local/.param variable: [.align N] .type name[dims] [= init], or
  // with `list` (a declaration statement, not a parameter) several names: `.shared .b64 a, b;`.
  // The caller takes the ';' or ',' after it; returns the first name's symbol.
  std::int32_t variable(bool is_extern, bool in_function, bool list = false) {
    const Token& space_token = next();
    Space space = Space::global;
    if (space_token.text == ".global") space = Space::global;
    else if (space_token.text == ".const") space = Space::const_;
    else if (space_token.text == ".shared" || space_token.text == ".shared::cta") space = Space::shared;
    else if (space_token.text == ".local") space = Space::local;
    else if (space_token.text == ".param") space = Space::param;
    else throw ParseError(space_token.line, "unknown state space " + std::string(space_token.text));
    Symbol symbol;
    symbol.space = space;
    std::uint32_t align = 0;
    Type type = Type::none;
    int vector = 1;
    while (peek().kind == TokenKind::ident && peek().text.front() == '.') {
      const Token& qualifier = next();
      if (qualifier.text == ".align") {
        align = static_cast<std::uint32_t>(expect_integer());
      } else if (qualifier.text == ".v2" || qualifier.text == ".v4" || qualifier.text == ".v8") {
        vector = qualifier.text[2] - '0';
      } else if (qualifier.text == ".attribute") {
        expect("(");
        while (!accept(")")) next();
      } else if (qualifier.text == ".ptr") {
        // .param .u64 .ptr .global .align 8 name: pointer attributes, no effect here
      } else if (parse_type(qualifier.text.substr(1)) != Type::none) {
        type = parse_type(qualifier.text.substr(1));
      } else if (qualifier.text == ".global" || qualifier.text == ".shared" ||
                 qualifier.text == ".const" || qualifier.text == ".local") {
        // the space a .ptr parameter points to
      } else {
        throw ParseError(qualifier.line, "unexpected " + std::string(qualifier.text) + " in a declaration");
      }
    }
    if (type == Type::none) throw ParseError(space_token.line, "declaration without a type");
    const bool frame = space == Space::local || (space == Space::param && in_function);
    const std::int32_t first = named_variable(symbol, type, vector, align, frame);
    if (list)
      while (accept(",")) named_variable(symbol, type, vector, align, frame);
    (void)is_extern;
    return first;
  }

  // One name of a declaration whose space and qualifiers `head` holds: name[dims] [= init]. A
  // frame variable (.local, a function's .param) gets its offset in the thread's frame.
  std::int32_t named_variable(const Symbol& head, Type type, int vector, std::uint32_t align, bool frame) {
    Symbol symbol = head;
    const Space space = symbol.space;
    const Token& name = expect_ident();
    symbol.name = std::string(name.text);
    const std::uint64_t element = static_cast<std::uint64_t>(type_bytes(type)) * vector;
    symbol.align = align ? align : static_cast<std::uint32_t>(element);
    std::uint64_t count = 1;
    bool open_size = false;
    while (accept("[")) {
      if (accept("]")) {
        open_size = true;
        continue;
      }
      count *= static_cast<std::uint64_t>(expect_integer());
      expect("]");
    }
    symbol.bytes = element * count;
    if (accept("=")) {
      symbol.init = initializer(type, name.line);
      if (open_size) symbol.bytes = symbol.init.size();
      symbol.init.resize(symbol.bytes, 0);
    } else if (open_size) {
      if (space != Space::shared) throw ParseError(name.line, symbol.name + ": an unsized array outside .shared");
      symbol.dynamic_shared = true;
      symbol.bytes = 0;
    }
    if (frame) {
      symbol.kind = SymbolKind::frame;
      symbol.offset = align_up(program_->frame_bytes, symbol.align);
      program_->frame_bytes = symbol.offset + static_cast<std::int64_t>(symbol.bytes);
    }
    const auto index = static_cast<std::int32_t>(program_->symbols.size());
    program_->symbols.push_back(std::move(symbol));
    bind(program_->symbols.back().name, {Binding::Kind::symbol, index});
    return index;
  }

  std::vector<std::uint8_t> initializer(Type type, int line) {
    std::vector<std::uint8_t> bytes;
    const int width = type_bytes(type);
    auto value = [&] {
      const bool negative = accept("-");
      const Token& token = next();
      std::uint64_t bits = token.bits;
      if (token.kind == TokenKind::floating) {
        if (type == Type::f32 && !token.f32) {
          double as_double;
          __builtin_memcpy(&as_double, &bits, 8);
          float as_float = static_cast<float>(as_double);
          std::uint32_t narrow;
          __builtin_memcpy(&narrow, &as_float, 4);
          bits = narrow;
        }
      } else if (token.kind != TokenKind::integer) {
        throw ParseError(line, "initializer '" + std::string(token.text) + "' is not a number");
      }
      if (negative) bits = ~bits + 1;
      for (int b = 0; b < width; ++b) bytes.push_back(static_cast<std::uint8_t>(bits >> (8 * b)));
    };
    if (accept("{")) {
      int depth = 1;
      while (depth > 0) {
        if (accept("{")) ++depth;
        else if (accept("}")) --depth;
        else if (accept(",")) continue;
        else value();
      }
    } else {
      value();
    }
    return bytes;
  }

  // ---- functions
  std::int32_t param_list(bool entry, Function& function) {
    std::uint32_t offset = 0;
    expect("(");
    std::int32_t count = 0;
    while (!accept(")")) {
      if (accept(",")) continue;
      if (!is(".param") && !is(".reg"))
        throw ParseError(peek().line, "expected .param in a parameter list");
      const bool is_reg = is(".reg");
      if (is_reg) {  // .func (.reg .b32 x): a register parameter
        next();
        const Type type = parse_type(expect_ident().text.substr(1));
        const Token& name = expect_ident();
        declare_register(std::string(name.text), type);
        continue;
      }
      // Parameters are declared in the function's own scope (they are bound before the body).
      const std::int32_t index = variable(false, !entry);
      Symbol& symbol = program_->symbols[static_cast<std::size_t>(index)];
      if (entry) {
        symbol.kind = SymbolKind::kernel_param;
        symbol.offset = align_up(offset, symbol.align);
        offset = static_cast<std::uint32_t>(symbol.offset + static_cast<std::int64_t>(symbol.bytes));
      }
      function.params.push_back(index);
      ++count;
    }
    if (entry) function.param_bytes = offset;
    return count;
  }

  void declare_register(const std::string& name, Type type) {
    const auto index = static_cast<std::int32_t>(program_->reg_types.size());
    program_->reg_types.push_back(type);
    program_->reg_names.push_back(name);
    bind(name, {Binding::Kind::reg, index});
  }

  void function() {
    const bool entry = next().text == ".entry";
    const int line = peek().line;
    Function function;
    function.entry = entry;
    function.line = line;
    // Its parameters live in its frame too. The frame starts 16-aligned, as the layout places it
    // (kernel_layout.cpp), so offsets its symbols keep from it stay aligned.
    program_->frame_bytes = align_up(program_->frame_bytes, 16);
    function.frame_begin = program_->frame_bytes;
    first_symbol_ = program_->symbols.size();
    scopes_.emplace_back();  // the function's scope: parameters, then the body
    // Return parameters: .func (.param .b32 r) name(...)
    if (!entry && is("(")) param_list_returns(function);
    function.name = std::string(expect_ident().text);
    if (is("(")) param_list(entry, function);
    while (peek().kind == TokenKind::ident && peek().text.front() == '.' && !is("{")) {
      const Token& directive = next();
      if (directive.text == ".noreturn") continue;
      std::uint32_t product = 1;
      do {
        product *= static_cast<std::uint32_t>(expect_integer());
      } while (accept(","));
      if (directive.text == ".reqntid" || directive.text == ".maxntid") function.reqntid = product;
    }
    int index = program_->find_function(function.name);
    if (index < 0) {
      index = static_cast<int>(program_->functions.size());
      program_->functions.push_back(function);
      Symbol symbol;
      symbol.name = function.name;
      symbol.kind = SymbolKind::function;
      symbol.function = index;
      program_->symbols.push_back(symbol);
      scopes_.front()[function.name] = {Binding::Kind::symbol,
                                        static_cast<std::int32_t>(program_->symbols.size() - 1)};
    }
    if (accept(";")) {  // a prototype
      scopes_.pop_back();
      return;
    }
    Function& stored = program_->functions[static_cast<std::size_t>(index)];
    if (stored.defined) throw ParseError(line, "function " + function.name + " defined twice");
    const std::string name = function.name;
    function.defined = true;
    function.first_pc = static_cast<std::int32_t>(program_->code.size());
    function.first_reg = static_cast<std::int32_t>(program_->reg_types.size());
    stored = function;
    current_function_ = index;
    labels_.clear();
    tables_.clear();
    fixups_.clear();
    body();
    Function& done = program_->functions[static_cast<std::size_t>(index)];
    done.end_pc = static_cast<std::int32_t>(program_->code.size());
    done.end_reg = static_cast<std::int32_t>(program_->reg_types.size());
    done.frame_end = program_->frame_bytes;
    resolve_labels(done);
    rebase(done, index);
    scopes_.pop_back();
  }

  // Registers and frame offsets become relative to the function: a launch places each function's
  // registers and frame where its kernel's layout says (machine.cpp, layout_of).
  void rebase(Function& function, int index) {
    for (std::int32_t pc = function.first_pc; pc < function.end_pc; ++pc) {
      Instr& instr = program_->code[static_cast<std::size_t>(pc)];
      if (instr.guard >= 0) instr.guard -= function.first_reg;
      for (int k = 0; k < instr.nops; ++k) {
        Operand& op = instr.ops[k];
        if ((op.kind == Operand::Kind::reg || op.kind == Operand::Kind::addr) && op.reg >= 0)
          op.reg -= function.first_reg;
        if (op.kind == Operand::Kind::vec && op.symbol != -2)
          for (int e = 0; e < op.count; ++e) {
            std::int32_t& reg = program_->vec_regs[static_cast<std::size_t>(op.reg + e)];
            if (reg >= 0) reg -= function.first_reg;
          }
      }
    }
    for (std::size_t sym = first_symbol_; sym < program_->symbols.size(); ++sym) {
      Symbol& symbol = program_->symbols[sym];
      if (symbol.kind != SymbolKind::frame || symbol.function >= 0) continue;
      symbol.function = index;
      symbol.offset -= function.frame_begin;
    }
  }

  void param_list_returns(Function& function) {
    expect("(");
    while (!accept(")")) {
      if (accept(",")) continue;
      if (accept(".reg")) {
        const Type type = parse_type(expect_ident().text.substr(1));
        declare_register(std::string(expect_ident().text), type);
        continue;
      }
      function.returns.push_back(variable(false, true));
    }
  }

  void body() {
    expect("{");
    int depth = 1;
    while (depth > 0) {
      if (at_end()) throw ParseError(peek().line, "unterminated function body");
      if (accept("{")) {
        ++depth;
        scopes_.emplace_back();
        continue;
      }
      if (accept("}")) {
        --depth;
        if (depth > 0) scopes_.pop_back();
        continue;
      }
      body_statement();
    }
  }

  void body_statement() {
    const Token& token = peek();
    if (token.text == ".reg") return register_declaration();
    if (token.text == ".loc") return loc_directive();
    if (token.text == ".pragma") return skip_to_semicolon();
    if (token.text == ".local" || token.text == ".shared" || token.text == ".param" ||
        token.text == ".global" || token.text == ".const") {
      variable(false, true, true);
      expect(";");
      return;
    }
    if (token.text == ".maxnreg" || token.text == ".maxntid" || token.text == ".reqntid" ||
        token.text == ".minnctapersm")
      return skip_line(token.line);
    if (token.kind == TokenKind::ident && is(":", 1) && token.text.front() != '.') {
      if (is(".branchtargets", 2)) return branch_targets();
      labels_[std::string(token.text)] = static_cast<std::int32_t>(program_->code.size());
      next();
      next();
      return;
    }
    instruction();
  }

  // name: .branchtargets L1, L2, ... (N<3> stands for N0, N1, N2): a table for brx.idx, whose
  // labels (possibly later in the body) resolve when the body ends.
  void branch_targets() {
    const Token& name = next();
    next();                        // ':'
    const int line = next().line;  // .branchtargets
    PendingTable table{program_->branch_tables.size(), line, {}};
    do {
      const std::string label(expect_ident().text);
      if (accept("<")) {
        const std::int64_t count = expect_integer();
        expect(">");
        for (std::int64_t i = 0; i < count; ++i) table.labels.push_back(label + std::to_string(i));
      } else {
        table.labels.push_back(label);
      }
    } while (accept(","));
    expect(";");
    program_->branch_tables.emplace_back();
    tables_[std::string(name.text)] = std::move(table);
  }

  void register_declaration() {
    next();
    int vector = 1;
    if (is(".v2") || is(".v4")) vector = next().text[2] - '0';
    const Token& type_token = expect_ident();
    const Type type = parse_type(type_token.text.substr(1));
    if (type == Type::none) throw ParseError(type_token.line, "unknown register type " + std::string(type_token.text));
    (void)vector;
    do {
      const Token& name = expect_ident();
      if (accept("<")) {
        const std::int64_t count = expect_integer();
        expect(">");
        for (std::int64_t i = 0; i < count; ++i) declare_register(std::string(name.text) + std::to_string(i), type);
      } else {
        declare_register(std::string(name.text), type);
      }
    } while (accept(","));
    expect(";");
  }

  // .loc file line column [, function_name label, inlined_at file line column]
  void loc_directive() {
    const int line = next().line;
    SourceLoc loc;
    loc.file = static_cast<std::int32_t>(expect_integer());
    loc.line = static_cast<std::int32_t>(expect_integer());
    loc.column = static_cast<std::int32_t>(expect_integer());
    while (accept(",")) {
      const Token& key = expect_ident();
      if (key.text == "function_name") {
        next();
      } else if (key.text == "inlined_at") {
        SourceLoc at;
        at.file = static_cast<std::int32_t>(expect_integer());
        at.line = static_cast<std::int32_t>(expect_integer());
        at.column = static_cast<std::int32_t>(expect_integer());
        const auto found = recent_locs_.find(key_of(at));
        if (found != recent_locs_.end()) {
          loc.inlined_at = found->second;
        } else {
          loc.inlined_at = static_cast<std::int32_t>(program_->locs.size());
          program_->locs.push_back(at);
        }
      }
    }
    skip_line(line);
    current_loc_ = static_cast<std::int32_t>(program_->locs.size());
    program_->locs.push_back(loc);
    recent_locs_[key_of(loc)] = current_loc_;
  }

  static std::int64_t key_of(const SourceLoc& loc) {
    return (static_cast<std::int64_t>(loc.file) << 40) ^ (static_cast<std::int64_t>(loc.line) << 16) ^ loc.column;
  }

  // ---- instructions
  void instruction() {
    Instr instr;
    instr.line = peek().line;
    instr.loc = current_loc_;
    if (accept("@")) {
      instr.guard_negate = accept("!");
      const Token& predicate = expect_ident();
      const Binding* binding = lookup(predicate.text);
      if (!binding || binding->kind != Binding::Kind::reg)
        throw ParseError(predicate.line, "unknown guard predicate " + std::string(predicate.text));
      instr.guard = binding->index;
    }
    const Token& opcode = expect_ident();
    instr.text = opcode.text;
    std::vector<Operand> ops;
    bool pair_dst = false;
    const bool is_call = opcode.text.substr(0, 4) == "call" &&
                         (opcode.text.size() == 4 || opcode.text[4] == '.');
    if (is_call) {
      call_operands(ops, instr.line);
    } else {
      while (!is(";")) {
        if (at_end()) throw ParseError(instr.line, "unterminated instruction");
        ops.push_back(operand(instr.line));
        if (accept("|")) {
          pair_dst = pair_dst || ops.size() == 1;
          ops.push_back(operand(instr.line));
        }
        if (!accept(",")) break;
      }
    }
    expect(";");
    if (ops.size() > 6) throw ParseError(instr.line, "more than 6 operands");
    DecodeInput input{Qualifiers(opcode.text), ops, *program_};
    if (pair_dst) instr.mods |= kPairDst;
    for (std::size_t i = 0; i < ops.size(); ++i)
      if (ops[i].kind == Operand::Kind::label)
        fixups_.push_back({program_->code.size(), i, label_names_.at(static_cast<std::size_t>(ops[i].reg))});
    instr.nops = static_cast<std::uint8_t>(ops.size());
    for (std::size_t i = 0; i < ops.size(); ++i) instr.ops[i] = ops[i];
    decode_instruction(input, instr);
    program_->code.push_back(instr);
  }

  // call[.uni] [(ret, ...),] target[, (arg, ...)][, prototype];
  void call_operands(std::vector<Operand>& ops, int line) {
    Operand returns{Operand::Kind::vec};
    returns.reg = static_cast<std::int32_t>(program_->vec_regs.size());
    if (accept("(")) {
      while (!accept(")")) {
        if (accept(",")) continue;
        returns.count++;
        program_->vec_regs.push_back(symbol_or_register(expect_ident(), line));
      }
      expect(",");
    }
    const Token& target = expect_ident();
    Operand callee{Operand::Kind::symbol};
    const Binding* binding = lookup(target.text);
    if (!binding || binding->kind != Binding::Kind::symbol ||
        program_->symbols[static_cast<std::size_t>(binding->index)].kind != SymbolKind::function)
      throw ParseError(line, "call of " + std::string(target.text) + ", which is not a declared function (indirect calls are not supported)");
    callee.symbol = binding->index;
    Operand args{Operand::Kind::vec};
    args.reg = static_cast<std::int32_t>(program_->vec_regs.size());
    if (accept(",")) {
      expect("(");
      while (!accept(")")) {
        if (accept(",")) continue;
        args.count++;
        program_->vec_regs.push_back(symbol_or_register(expect_ident(), line));
      }
      while (accept(",")) next();  // a prototype name
    }
    // A call's vec operands hold symbol indices (parameters), tagged by symbol = -2.
    returns.symbol = -2;
    args.symbol = -2;
    ops = {returns, callee, args};
  }

  std::int32_t symbol_or_register(const Token& name, int line) {
    const Binding* binding = lookup(name.text);
    if (!binding) throw ParseError(line, "unknown name " + std::string(name.text));
    if (binding->kind == Binding::Kind::reg)
      throw ParseError(line, "register arguments of call are not supported (" + std::string(name.text) + ")");
    return binding->index;
  }

  Operand operand(int line) {
    Operand op;
    if (accept("{")) {
      op.kind = Operand::Kind::vec;
      op.reg = static_cast<std::int32_t>(program_->vec_regs.size());
      while (!accept("}")) {
        if (accept(",")) continue;
        const Token& name = expect_ident();
        if (name.text == "_") {
          program_->vec_regs.push_back(-1);
        } else {
          const Binding* binding = lookup(name.text);
          if (!binding || binding->kind != Binding::Kind::reg)
            throw ParseError(line, "unknown register " + std::string(name.text) + " in a vector");
          program_->vec_regs.push_back(binding->index);
        }
        ++op.count;
      }
      return op;
    }
    if (accept("[")) return address(line);
    if (accept("!")) {
      op = operand(line);
      op.negate = true;
      return op;
    }
    const bool negative = accept("-");
    const Token& token = next();
    if (token.kind == TokenKind::integer || token.kind == TokenKind::floating) {
      op.kind = Operand::Kind::imm;
      std::uint64_t bits = token.bits;
      if (negative) {
        if (token.kind == TokenKind::integer) bits = ~bits + 1;
        else bits ^= token.f32 ? 0x80000000ull : 0x8000000000000000ull;
      }
      op.imm = static_cast<std::int64_t>(bits);
      // A double literal where f32 is meant is narrowed by the decoder (it knows the type).
      if (token.kind == TokenKind::floating && !token.f32) op.sreg = SReg::count;  // marks f64 bits
      return op;
    }
    if (token.kind != TokenKind::ident)
      throw ParseError(line, "unexpected '" + std::string(token.text) + "' in operands");
    return named(token, line);
  }

  Operand named(const Token& token, int line) {
    Operand op;
    if (token.text == "_") {
      op.kind = Operand::Kind::sink;
      return op;
    }
    if (const Binding* binding = lookup(token.text)) {
      if (binding->kind == Binding::Kind::reg) {
        op.kind = Operand::Kind::reg;
        op.reg = binding->index;
      } else {
        op.kind = Operand::Kind::symbol;
        op.symbol = binding->index;
      }
      return op;
    }
    SReg sreg;
    if (parse_sreg(token.text, sreg)) {
      op.kind = Operand::Kind::sreg;
      op.sreg = sreg;
      return op;
    }
    if (token.text.front() == '%')
      throw ParseError(line, "unknown register " + std::string(token.text));
    if (token.text == "WARP_SZ") {  // PTX's one predefined constant
      op.kind = Operand::Kind::imm;
      op.imm = 32;
      return op;
    }
    op.kind = Operand::Kind::label;  // resolved when the body ends
    op.reg = static_cast<std::int32_t>(label_names_.size());
    label_names_.push_back(std::string(token.text));
    return op;
  }

  // [reg], [reg+imm], [reg+-imm], [sym], [sym+imm], [imm]; and a tensor map with coordinates,
  // [tmap, {c0, c1}], whose coordinates are counted (op.count) but not kept: only the .tensor
  // copies use them, and they decode as unsupported.
  Operand address(int line) {
    Operand op;
    op.kind = Operand::Kind::addr;
    bool first = true;
    while (!accept("]")) {
      bool negative = false;
      if (!first && accept(",")) {
        expect("{");
        while (!accept("}")) {
          if (!accept(",")) {
            expect_ident();
            ++op.count;
          }
        }
        expect("]");
        break;
      }
      if (!first) {
        if (accept("+")) negative = accept("-");
        else if (accept("-")) negative = true;
        else throw ParseError(line, "malformed address");
      }
      first = false;
      const Token& token = next();
      if (token.kind == TokenKind::integer) {
        const auto value = static_cast<std::int64_t>(token.bits);
        op.imm += negative ? -value : value;
      } else if (token.kind == TokenKind::ident) {
        const Binding* binding = lookup(token.text);
        if (!binding) throw ParseError(line, "unknown name " + std::string(token.text) + " in an address");
        if (binding->kind == Binding::Kind::reg) op.reg = binding->index;
        else op.symbol = binding->index;
      } else {
        throw ParseError(line, "malformed address");
      }
    }
    return op;
  }

  void resolve_labels(Function& function) {
    for (const auto& fixup : fixups_) {
      Instr& instr = program_->code[fixup.pc];
      const auto table = tables_.find(fixup.name);
      if (table != tables_.end()) {  // brx.idx's table operand: its index in Program::branch_tables
        Operand& op = instr.ops[fixup.operand];
        op.kind = Operand::Kind::imm;
        op.imm = static_cast<std::int64_t>(table->second.index);
        op.reg = -1;
        continue;
      }
      const auto found = labels_.find(fixup.name);
      if (found == labels_.end()) {
        // A name that is neither a label nor declared: NVRTC never writes one.
        throw ParseError(instr.line, "unknown label or name " + fixup.name);
      }
      instr.ops[fixup.operand].symbol = found->second;
      instr.ops[fixup.operand].reg = -1;
      if (found->second < static_cast<std::int32_t>(program_->code.size()))
        program_->code[static_cast<std::size_t>(found->second)].join = true;
    }
    for (const auto& [name, table] : tables_) {
      std::vector<std::int32_t>& pcs = program_->branch_tables[table.index];
      for (const std::string& label : table.labels) {
        const auto found = labels_.find(label);
        if (found == labels_.end())
          throw ParseError(table.line, ".branchtargets " + name + " names " + label +
                                           ", which is no label of the function");
        pcs.push_back(found->second);
        if (found->second < static_cast<std::int32_t>(program_->code.size()))
          program_->code[static_cast<std::size_t>(found->second)].join = true;
      }
    }
    (void)function;
    label_names_.clear();
  }

  struct Fixup {
    std::size_t pc;
    std::size_t operand;
    std::string name;
  };
  struct PendingTable {
    std::size_t index;  // into Program::branch_tables
    int line;
    std::vector<std::string> labels;
  };

  std::shared_ptr<Program> program_;
  std::vector<Token> tokens_;
  std::size_t at_ = 0;
  std::vector<std::map<std::string, Binding>> scopes_;
  std::map<std::string, std::int32_t> labels_;
  std::map<std::string, PendingTable> tables_;  // the current function's .branchtargets
  std::vector<Fixup> fixups_;
  std::vector<std::string> label_names_;
  std::map<std::int64_t, std::int32_t> recent_locs_;
  std::int32_t current_loc_ = -1;
  int current_function_ = -1;
  std::size_t first_symbol_ = 0;  // the first symbol the current function declared
};

}  // namespace

int Program::find_function(const std::string& name) const {
  for (std::size_t f = 0; f < functions.size(); ++f)
    if (functions[f].name == name) return static_cast<int>(f);
  return -1;
}

std::shared_ptr<const Program> load_program(std::string ptx) {
  return Parser(std::make_unique<std::string>(std::move(ptx))).run();
}

}  // namespace pkb::ptx
