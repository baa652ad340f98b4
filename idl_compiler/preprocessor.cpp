#include "idl_compiler/preprocessor.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace switchyard::idl {

std::optional<std::string> DiskFileSystem::read(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::optional<std::string> MemoryFileSystem::read(const std::string& path) {
  auto found = files_.find(path);
  if (found == files_.end()) return std::nullopt;
  return found->second;
}

struct Preprocessor::Frame {
  std::shared_ptr<const std::string> text;
  Lexer lexer;
  std::string path;
  std::string directory;
  std::size_t conditional_base;
  std::uint32_t physical_file;

  Frame(std::shared_ptr<const std::string> t, std::uint32_t file, std::string p, std::size_t base,
        Diagnostics& diagnostics)
      : text(std::move(t)),
        lexer(*text, file, diagnostics),
        path(std::move(p)),
        directory(std::filesystem::path(path).parent_path().string()),
        conditional_base(base),
        physical_file(file) {}
};

namespace {

// Tokens that all macro expansions of one translation unit may produce.
constexpr std::size_t max_expanded_tokens = 2000000;

Token make_marker(TokenKind kind, std::string text, SourceLocation location) {
  Token token;
  token.kind = kind;
  token.text = std::move(text);
  token.location = location;
  return token;
}

// Value of an integer literal; false when it does not fit in 64 bits.
bool parse_integer(const std::string& text, std::uint64_t& value) {
  value = 0;
  std::size_t i = 0;
  unsigned base = 10;
  if (text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    i = 2;
  } else if (text.size() > 1 && text[0] == '0') {
    base = 8;
    i = 1;
  }
  for (; i < text.size(); ++i) {
    const char c = text[i];
    unsigned digit;
    if (c >= '0' && c <= '9') digit = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f') digit = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') digit = static_cast<unsigned>(c - 'A' + 10);
    else return false;
    if (digit >= base) return false;
    if (value > (UINT64_MAX - digit) / base) return false;
    value = value * base + digit;
  }
  return true;
}

// #if expressions: C's integer arithmetic on 64 bits, unknown identifiers are 0.
class ConditionEvaluator {
 public:
  ConditionEvaluator(const std::vector<Token>& tokens, Diagnostics& diagnostics, SourceLocation location)
      : tokens_(tokens), diagnostics_(diagnostics), location_(location) {}

  bool evaluate(bool& result) {
    std::int64_t value = conditional();
    if (!failed_ && position_ < tokens_.size())
      fail(tokens_[position_].location, "unexpected '" + tokens_[position_].text + "' in #if expression");
    result = value != 0;
    return !failed_;
  }

 private:
  const Token* peek() const { return position_ < tokens_.size() ? &tokens_[position_] : nullptr; }
  bool accept(std::string_view p) {
    const Token* t = peek();
    if (t != nullptr && t->is_punct(p)) {
      ++position_;
      return true;
    }
    return false;
  }
  void fail(SourceLocation at, std::string message) {
    if (!failed_) diagnostics_.error(at.valid() ? at : location_, std::move(message));
    failed_ = true;
  }
  static std::int64_t wrap(std::uint64_t v) { return static_cast<std::int64_t>(v); }
  static std::uint64_t bits(std::int64_t v) { return static_cast<std::uint64_t>(v); }

  std::int64_t conditional() {
    if (++depth_ > 200) {
      fail(location_, "#if expression nested too deeply");
      return 0;
    }
    std::int64_t c = logical_or();
    if (accept("?")) {
      std::int64_t a = conditional();
      if (!accept(":")) fail(location_, "expected ':' in #if expression");
      std::int64_t b = conditional();
      c = c != 0 ? a : b;
    }
    --depth_;
    return c;
  }
  std::int64_t logical_or() {
    std::int64_t v = logical_and();
    while (accept("||")) {
      std::int64_t r = logical_and();
      v = (v != 0 || r != 0) ? 1 : 0;
    }
    return v;
  }
  std::int64_t logical_and() {
    std::int64_t v = binary(0);
    while (accept("&&")) {
      std::int64_t r = binary(0);
      v = (v != 0 && r != 0) ? 1 : 0;
    }
    return v;
  }
  // Levels: | ^ & (== !=) (< > <= >=) (<< >>) (+ -) (* / %)
  std::int64_t binary(int level) {
    static const std::vector<std::vector<std::string_view>> levels = {
        {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
    if (level == static_cast<int>(levels.size())) return unary();
    std::int64_t v = binary(level + 1);
    while (true) {
      std::string_view op;
      for (std::string_view candidate : levels[static_cast<std::size_t>(level)])
        if (accept(candidate)) {
          op = candidate;
          break;
        }
      if (op.empty()) return v;
      const SourceLocation at = tokens_[position_ - 1].location;
      std::int64_t r = binary(level + 1);
      if (op == "|") v = v | r;
      else if (op == "^") v = v ^ r;
      else if (op == "&") v = v & r;
      else if (op == "==") v = v == r;
      else if (op == "!=") v = v != r;
      else if (op == "<") v = v < r;
      else if (op == ">") v = v > r;
      else if (op == "<=") v = v <= r;
      else if (op == ">=") v = v >= r;
      else if (op == "<<") v = (r < 0 || r > 63) ? 0 : wrap(bits(v) << r);
      else if (op == ">>") v = (r < 0 || r > 63) ? 0 : (v >> r);
      else if (op == "+") v = wrap(bits(v) + bits(r));
      else if (op == "-") v = wrap(bits(v) - bits(r));
      else if (op == "*") v = wrap(bits(v) * bits(r));
      else {
        if (r == 0) {
          fail(at, "division by zero in #if expression");
          return 0;
        }
        if (r == -1) v = op == "/" ? wrap(0 - bits(v)) : 0;
        else v = op == "/" ? v / r : v % r;
      }
    }
  }
  std::int64_t unary() {
    if (++depth_ > 200) {
      fail(location_, "#if expression nested too deeply");
      return 0;
    }
    std::int64_t v;
    if (accept("-")) v = wrap(0 - bits(unary()));
    else if (accept("+")) v = unary();
    else if (accept("~")) v = ~unary();
    else if (accept("!")) v = unary() == 0 ? 1 : 0;
    else v = primary();
    --depth_;
    return v;
  }
  std::int64_t primary() {
    const Token* t = peek();
    if (t == nullptr) {
      fail(location_, "#if expression ends too early");
      return 0;
    }
    ++position_;
    if (t->is_punct("(")) {
      std::int64_t v = conditional();
      if (!accept(")")) fail(t->location, "missing ')' in #if expression");
      return v;
    }
    if (t->kind == TokenKind::integer_literal) {
      std::string text = t->text;
      while (!text.empty() && (text.back() == 'u' || text.back() == 'U' || text.back() == 'l' || text.back() == 'L'))
        text.pop_back();
      std::uint64_t value;
      if (!parse_integer(text, value)) fail(t->location, "invalid integer '" + t->text + "' in #if");
      return wrap(value);
    }
    if (t->kind == TokenKind::char_literal) {
      return t->text.empty() ? 0 : static_cast<unsigned char>(t->text[0]);
    }
    if (t->kind == TokenKind::identifier) return 0;  // what no macro replaced is 0, as in C
    fail(t->location, "unexpected '" + t->text + "' in #if expression");
    return 0;
  }

  const std::vector<Token>& tokens_;
  Diagnostics& diagnostics_;
  SourceLocation location_;
  std::size_t position_ = 0;
  int depth_ = 0;
  bool failed_ = false;
};

}  // namespace

Preprocessor::Preprocessor(SourceManager& sources, Diagnostics& diagnostics, FileSystem& files,
                           PreprocessorOptions options)
    : sources_(sources), diagnostics_(diagnostics), files_(files), options_(std::move(options)) {
  for (const auto& [name, value] : options_.defines) {
    Macro macro;
    const auto text = std::make_shared<const std::string>(value);
    Lexer lexer(*text, 0, diagnostics_);
    for (Token t = lexer.next(); !t.is(TokenKind::end_of_file); t = lexer.next()) {
      t.location = SourceLocation{};
      t.at_line_start = false;
      macro.body.push_back(std::move(t));
    }
    macros_[name] = std::move(macro);
  }
}

Preprocessor::~Preprocessor() = default;

bool Preprocessor::open_main_file(const std::string& path) {
  std::optional<std::string> text = files_.read(path);
  if (!text) {
    diagnostics_.error(SourceLocation{}, "cannot read '" + path + "'");
    return false;
  }
  const auto shared = std::make_shared<const std::string>(std::move(*text));
  main_file_ = sources_.add_file(path, shared);
  frames_.push_back(std::make_unique<Frame>(shared, main_file_, path, 0, diagnostics_));
  return true;
}

bool Preprocessor::push_file(const std::string& path, SourceLocation included_from) {
  if (frames_.size() >= options_.max_include_depth) {
    diagnostics_.error(included_from, "#include nested too deeply (more than " +
                                          std::to_string(options_.max_include_depth) + " levels)");
    return false;
  }
  std::optional<std::string> text = files_.read(path);
  if (!text) return false;
  for (const auto& frame : frames_) {
    if (frame->path != path) continue;
    // Re-entering a file that is still open: harmless only when its include guard is already
    // defined (then it would be skipped whole); otherwise it is a cycle.
    Lexer probe(*text, 0, diagnostics_);
    probe.set_quiet(true);
    Token hash = probe.next();
    Token word = probe.next_on_line();
    Token guard = probe.next_on_line();
    if (hash.is_punct("#") && word.is_identifier("ifndef") && guard.is(TokenKind::identifier) &&
        macros_.count(guard.text) != 0)
      return true;
    diagnostics_.error(included_from, "#include cycle: '" + path + "' includes itself");
    return true;  // reported; the file is not entered again
  }
  const auto shared = std::make_shared<const std::string>(std::move(*text));
  const std::uint32_t file = sources_.add_file(path, shared);
  frames_.push_back(std::make_unique<Frame>(shared, file, path, conditionals_.size(), diagnostics_));
  pending_.emplace_back(make_marker(TokenKind::file_begin, path, included_from), false);
  return true;
}

bool Preprocessor::is_disabled(const std::string& name) const {
  for (const Expansion& e : expansions_)
    if (e.macro == name) return true;
  return false;
}

Token Preprocessor::raw_next(bool& from_file) {
  if (!pending_.empty()) {
    Token t = std::move(pending_.back().first);
    from_file = pending_.back().second;
    pending_.pop_back();
    return t;
  }
  while (!expansions_.empty()) {
    Expansion& top = expansions_.back();
    if (top.position < top.tokens.size()) {
      from_file = false;
      Token t = top.tokens[top.position++];
      if (t.is(TokenKind::identifier) && is_disabled(t.text)) t.no_expand = true;
      return t;
    }
    expansions_.pop_back();
  }
  from_file = true;
  if (frames_.empty()) return Token{};
  Lexer& lexer = frames_.back()->lexer;
  lexer.set_quiet(skipping());
  return lexer.next();
}

Token Preprocessor::next() {
  while (true) {
    bool from_file = false;
    Token token = raw_next(from_file);
    if (token.is(TokenKind::end_of_file) && from_file) {
      if (frames_.empty()) return token;
      Frame& frame = *frames_.back();
      if (conditionals_.size() > frame.conditional_base) {
        diagnostics_.error(conditionals_[frame.conditional_base].location,
                           "unterminated conditional directive (#if without #endif)");
        conditionals_.resize(frame.conditional_base);
      }
      const SourceLocation end = token.location;
      frames_.pop_back();
      if (frames_.empty()) return token;
      return make_marker(TokenKind::file_end, "", end);
    }
    if (from_file && token.is_punct("#") && token.at_line_start) {
      directive(token);
      continue;
    }
    if (skipping()) continue;
    if (token.is(TokenKind::identifier) && !token.no_expand) {
      auto found = macros_.find(token.text);
      if (found != macros_.end()) {
        if (is_disabled(token.text)) {
          token.no_expand = true;
          return token;
        }
        if (expand(token)) continue;
        token.no_expand = true;
      }
    }
    return token;
  }
}

std::vector<Token> Preprocessor::line_tokens() {
  std::vector<Token> tokens;
  Lexer& lexer = frames_.back()->lexer;
  for (Token t = lexer.next_on_line(); !t.is(TokenKind::end_of_line) && !t.is(TokenKind::end_of_file);
       t = lexer.next_on_line())
    tokens.push_back(std::move(t));
  return tokens;
}

void Preprocessor::directive(const Token& hash) {
  Lexer& lexer = frames_.back()->lexer;
  Token name = lexer.next_on_line();
  if (name.is(TokenKind::end_of_line) || name.is(TokenKind::end_of_file)) return;  // null directive
  const std::string& word = name.text;
  if (skipping()) {
    if (word == "if" || word == "ifdef" || word == "ifndef") {
      conditionals_.push_back(Conditional{false, true, false, false, name.location});
      lexer.skip_line();
    } else if (word == "elif" || word == "else" || word == "endif") {
      do_if(name, word);
    } else {
      lexer.skip_line();
    }
    return;
  }
  if (!name.is(TokenKind::identifier)) {
    diagnostics_.error(name.location, "invalid preprocessor directive");
    lexer.skip_line();
    return;
  }
  if (word == "include") {
    do_include(name);
  } else if (word == "define") {
    do_define(name);
  } else if (word == "undef") {
    std::vector<Token> tokens = line_tokens();
    if (tokens.empty() || !tokens[0].is(TokenKind::identifier))
      diagnostics_.error(name.location, "#undef expects a macro name");
    else macros_.erase(tokens[0].text);
  } else if (word == "if" || word == "ifdef" || word == "ifndef" || word == "elif" || word == "else" ||
             word == "endif") {
    do_if(name, word);
  } else if (word == "line") {
    do_line(name);
  } else if (word == "pragma") {
    bool emit = false;
    Token pragma = do_pragma(name, emit);
    if (emit) pending_.emplace_back(std::move(pragma), false);
  } else if (word == "error") {
    diagnostics_.error(hash.location, "#error " + lexer.rest_of_line());
  } else if (word == "warning") {
    diagnostics_.warning(hash.location, "#warning " + lexer.rest_of_line());
  } else if (word == "ident" || word == "sccs") {
    lexer.skip_line();
  } else {
    diagnostics_.error(name.location, "unknown preprocessor directive '#" + word + "'");
    lexer.skip_line();
  }
}

void Preprocessor::do_include(const Token& directive_token) {
  Lexer& lexer = frames_.back()->lexer;
  std::string header;
  SourceLocation at;
  bool angle = lexer.read_angle_header(header, at);
  if (!angle) {
    std::vector<Token> tokens = line_tokens();
    if (!tokens.empty() && tokens[0].is(TokenKind::identifier)) tokens = expand_list(std::move(tokens), 0);
    if (tokens.empty() || !tokens[0].is(TokenKind::string_literal)) {
      diagnostics_.error(tokens.empty() ? directive_token.location : tokens[0].location,
                         "#include expects \"FILE\" or <FILE>");
      return;
    }
    header = tokens[0].text;
    at = tokens[0].location;
  } else {
    lexer.skip_line();
  }
  if (header.empty()) {
    diagnostics_.error(at, "empty file name in #include");
    return;
  }
  std::vector<std::string> candidates;
  if (std::filesystem::path(header).is_absolute()) {
    candidates.push_back(header);
  } else {
    if (!angle) {
      const std::string& dir = frames_.back()->directory;
      candidates.push_back(dir.empty() ? header : dir + "/" + header);
    }
    for (const std::string& dir : options_.include_dirs)
      candidates.push_back(dir.empty() ? header : dir + "/" + header);
  }
  for (const std::string& candidate : candidates) {
    const std::string path = std::filesystem::path(candidate).lexically_normal().string();
    if (push_file(path, at)) return;
    if (frames_.size() >= options_.max_include_depth) return;  // reported
  }
  diagnostics_.error(at, "cannot find include file '" + header + "'");
}

void Preprocessor::do_define(const Token& directive_token) {
  Lexer& lexer = frames_.back()->lexer;
  Token name = lexer.next_on_line();
  if (!name.is(TokenKind::identifier)) {
    diagnostics_.error(name.is(TokenKind::end_of_line) ? directive_token.location : name.location,
                       "macro name must be an identifier");
    lexer.skip_line();
    return;
  }
  if (name.text == "defined") {
    diagnostics_.error(name.location, "'defined' cannot be used as a macro name");
    lexer.skip_line();
    return;
  }
  Macro macro;
  macro.location = name.location;
  if (lexer.current_char() == '(') {
    macro.function_like = true;
    lexer.next_on_line();  // '('
    bool ok = true;
    for (Token t = lexer.next_on_line();; t = lexer.next_on_line()) {
      if (t.is_punct(")") && macro.parameters.empty()) break;
      if (t.is(TokenKind::identifier)) {
        macro.parameters.push_back(t.text);
      } else if (t.is_punct(".")) {
        Token b = lexer.next_on_line(), c = lexer.next_on_line();
        if (!b.is_punct(".") || !c.is_punct(".")) {
          ok = false;
          break;
        }
        macro.variadic = true;
        macro.parameters.push_back("__VA_ARGS__");
      } else {
        ok = false;
        break;
      }
      Token sep = lexer.next_on_line();
      if (sep.is_punct(")")) break;
      if (!sep.is_punct(",") || macro.variadic) {
        ok = false;
        break;
      }
    }
    if (!ok) {
      diagnostics_.error(name.location, "invalid parameter list in definition of macro '" + name.text + "'");
      lexer.skip_line();
      return;
    }
  }
  macro.body = line_tokens();
  for (Token& t : macro.body) t.at_line_start = false;
  macros_[name.text] = std::move(macro);
}

void Preprocessor::do_if(const Token& directive_token, const std::string& kind) {
  Lexer& lexer = frames_.back()->lexer;
  const std::size_t base = frames_.back()->conditional_base;
  const bool active = !skipping();
  if (kind == "ifdef" || kind == "ifndef") {
    std::vector<Token> tokens = line_tokens();
    bool value = false;
    if (tokens.empty() || !tokens[0].is(TokenKind::identifier))
      diagnostics_.error(directive_token.location, "#" + kind + " expects a macro name");
    else value = (macros_.count(tokens[0].text) != 0) == (kind == "ifdef");
    if (conditionals_.size() == options_.max_conditional_depth)
      diagnostics_.error(directive_token.location, "conditional directives nested too deeply");
    conditionals_.push_back(Conditional{value, value, false, active, directive_token.location});
    return;
  }
  if (kind == "if") {
    const bool value = evaluate_condition(line_tokens(), directive_token.location);
    if (conditionals_.size() == options_.max_conditional_depth)
      diagnostics_.error(directive_token.location, "conditional directives nested too deeply");
    conditionals_.push_back(Conditional{value, value, false, active, directive_token.location});
    return;
  }
  if (conditionals_.size() <= base) {
    diagnostics_.error(directive_token.location, "#" + kind + " without #if");
    lexer.skip_line();
    return;
  }
  Conditional& c = conditionals_.back();
  if (kind == "endif") {
    conditionals_.pop_back();
    lexer.skip_line();
    return;
  }
  if (c.seen_else) {
    diagnostics_.error(directive_token.location, "#" + kind + " after #else");
    lexer.skip_line();
    return;
  }
  if (kind == "else") {
    c.seen_else = true;
    c.active = c.parent_active && !c.taken;
    c.taken = true;
    lexer.skip_line();
    return;
  }
  // #elif: evaluated only when no earlier branch was taken.
  if (c.taken || !c.parent_active) {
    c.active = false;
    lexer.skip_line();
    return;
  }
  lexer.set_quiet(false);
  const bool value = evaluate_condition(line_tokens(), directive_token.location);
  c.active = value;
  c.taken = value;
}

bool Preprocessor::evaluate_condition(std::vector<Token> tokens, SourceLocation location) {
  // `defined X` and `defined(X)` are replaced before macro expansion.
  std::vector<Token> replaced;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!tokens[i].is_identifier("defined")) {
      replaced.push_back(std::move(tokens[i]));
      continue;
    }
    Token value = tokens[i];
    value.kind = TokenKind::integer_literal;
    const bool paren = i + 1 < tokens.size() && tokens[i + 1].is_punct("(");
    const std::size_t name_at = i + (paren ? 2 : 1);
    if (name_at >= tokens.size() || !tokens[name_at].is(TokenKind::identifier) ||
        (paren && (name_at + 1 >= tokens.size() || !tokens[name_at + 1].is_punct(")")))) {
      diagnostics_.error(tokens[i].location, "'defined' expects a macro name");
      return false;
    }
    value.text = macros_.count(tokens[name_at].text) != 0 ? "1" : "0";
    replaced.push_back(std::move(value));
    i = name_at + (paren ? 1 : 0);
  }
  std::vector<Token> expanded = expand_list(std::move(replaced), 0);
  if (expanded.empty()) {
    diagnostics_.error(location, "#if with no expression");
    return false;
  }
  bool result = false;
  ConditionEvaluator evaluator(expanded, diagnostics_, location);
  if (!evaluator.evaluate(result)) return false;
  return result;
}

void Preprocessor::do_line(const Token& directive_token) {
  Frame& frame = *frames_.back();
  std::vector<Token> tokens = line_tokens();
  std::uint64_t line = 0;
  if (tokens.empty() || !tokens[0].is(TokenKind::integer_literal) || !parse_integer(tokens[0].text, line) ||
      line == 0 || line > 0x7fffffff || (tokens.size() > 1 && !tokens[1].is(TokenKind::string_literal))) {
    diagnostics_.error(directive_token.location, "#line expects a line number and an optional file name");
    return;
  }
  const std::string name = tokens.size() > 1 ? tokens[1].text : sources_.name(frame.lexer.file());
  const std::int64_t delta =
      static_cast<std::int64_t>(line) - (static_cast<std::int64_t>(frame.lexer.physical_line()) + 1);
  const std::uint32_t file = sources_.add_file(name, frame.text, frame.physical_file, delta);
  frame.lexer.set_presumed(file, static_cast<std::uint32_t>(line));
}

Token Preprocessor::do_pragma(const Token& directive_token, bool& emit) {
  Lexer& lexer = frames_.back()->lexer;
  Token name = lexer.next_on_line();
  emit = false;
  if (name.is_identifier("prefix") || name.is_identifier("version") || name.is_identifier("ID")) {
    Token pragma = make_marker(TokenKind::pragma, name.text, directive_token.location);
    pragma.arguments = line_tokens();
    emit = true;
    return pragma;
  }
  if (!name.is(TokenKind::end_of_line)) lexer.skip_line();  // other pragmas are ignored
  return Token{};
}

Token Preprocessor::next_for_arguments() {
  // Tokens for a function-like macro's arguments: from expansions, then from the file, which
  // may cross lines but stops at a directive or at the end of the file.
  bool from_file = false;
  Token t = raw_next(from_file);
  if (from_file && ((t.is_punct("#") && t.at_line_start) || t.is(TokenKind::end_of_file))) {
    pending_.emplace_back(t, true);  // read again (as a directive or the end) after this macro
    t.kind = TokenKind::end_of_line;
  }
  return t;
}

bool Preprocessor::collect_arguments(const Token& name, const Macro& macro,
                                     std::vector<std::vector<Token>>& arguments) {
  arguments.assign(1, {});
  int depth = 0;
  std::size_t count = 0;
  while (true) {
    Token t = next_for_arguments();
    if (t.is(TokenKind::end_of_line)) {
      diagnostics_.error(name.location, "unterminated call of macro '" + name.text + "'");
      return false;
    }
    if (++count > options_.max_tokens_per_expansion) {
      diagnostics_.error(name.location, "arguments of macro '" + name.text + "' are too long");
      return false;
    }
    if (t.is_punct("(")) ++depth;
    if (t.is_punct(")")) {
      if (depth == 0) break;
      --depth;
    }
    if (t.is_punct(",") && depth == 0 && !(macro.variadic && arguments.size() == macro.parameters.size())) {
      arguments.emplace_back();
      continue;
    }
    arguments.back().push_back(std::move(t));
  }
  if (macro.parameters.empty() && arguments.size() == 1 && arguments[0].empty()) arguments.clear();
  if (macro.variadic && arguments.size() + 1 == macro.parameters.size()) arguments.emplace_back();
  if (arguments.size() != macro.parameters.size()) {
    diagnostics_.error(name.location, "macro '" + name.text + "' expects " + std::to_string(macro.parameters.size()) +
                                          (macro.parameters.size() == 1 ? " argument, got " : " arguments, got ") +
                                          std::to_string(arguments.size()));
    return false;
  }
  return true;
}

bool Preprocessor::expand(const Token& name) {
  if (expansions_.size() >= options_.max_macro_depth || expansion_count_ >= options_.max_macro_expansions ||
      expanded_tokens_ >= max_expanded_tokens) {
    if (!expansion_limit_reported_)
      diagnostics_.error(name.location, "macro expansion limit exceeded while expanding '" + name.text + "'");
    expansion_limit_reported_ = true;
    return false;
  }
  const Macro macro = macros_.at(name.text);
  std::vector<std::vector<Token>> arguments;
  if (macro.function_like) {
    // Not followed by '(': an ordinary identifier.
    bool from_file = false;
    Token open = raw_next(from_file);
    if (!open.is_punct("(")) {
      pending_.emplace_back(std::move(open), from_file);
      return false;
    }
    if (!collect_arguments(name, macro, arguments)) return true;
  }
  ++expansion_count_;
  std::vector<Token> result = substitute(macro, arguments, name, 0);
  for (Token& t : result) {
    t.location = name.location;
    t.at_line_start = false;
  }
  expansions_.push_back(Expansion{std::move(result), 0, name.text});
  return true;
}

std::vector<Token> Preprocessor::substitute(const Macro& macro, const std::vector<std::vector<Token>>& raw,
                                            const Token& name, std::size_t depth) {
  std::vector<Token> out;
  const auto parameter_index = [&](const Token& t) -> int {
    if (!t.is(TokenKind::identifier)) return -1;
    for (std::size_t i = 0; i < macro.parameters.size() && i < raw.size(); ++i)
      if (macro.parameters[i] == t.text) return static_cast<int>(i);
    return -1;
  };
  const std::vector<Token>& body = macro.body;
  bool paste_next = false;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const Token& t = body[i];
    if (t.is_punct("##") && !out.empty() && i + 1 < body.size()) {
      paste_next = true;
      continue;
    }
    std::vector<Token> piece;
    if (macro.function_like && t.is_punct("#") && i + 1 < body.size() && parameter_index(body[i + 1]) >= 0) {
      Token s = t;
      s.kind = TokenKind::string_literal;
      s.text.clear();
      for (const Token& a : raw[static_cast<std::size_t>(parameter_index(body[i + 1]))]) {
        if (!s.text.empty()) s.text += ' ';
        s.text += a.text;
      }
      piece.push_back(std::move(s));
      ++i;
    } else if (int p = parameter_index(t); p >= 0) {
      const bool pasted = paste_next || (i + 1 < body.size() && body[i + 1].is_punct("##"));
      piece = pasted ? raw[static_cast<std::size_t>(p)] : expand_list(raw[static_cast<std::size_t>(p)], depth + 1);
    } else {
      piece.push_back(t);
    }
    if (paste_next && !piece.empty()) {
      // Paste: the spelling of both sides lexed again as one token.
      const std::string joined = out.back().text + piece.front().text;
      Lexer relex(joined, 0, diagnostics_);
      relex.set_quiet(true);
      Token merged = relex.next();
      if (relex.next().is(TokenKind::end_of_file) && merged.text == joined) {
        merged.location = out.back().location;
        out.back() = std::move(merged);
        piece.erase(piece.begin());
      }
    }
    paste_next = false;
    expanded_tokens_ += piece.size();
    for (Token& p : piece) out.push_back(std::move(p));
    if (out.size() > options_.max_tokens_per_expansion) {
      if (!expansion_limit_reported_)
        diagnostics_.error(name.location, "expansion of macro '" + name.text + "' is too long");
      expansion_limit_reported_ = true;
      out.clear();
      break;
    }
  }
  return out;
}

std::vector<Token> Preprocessor::expand_list(std::vector<Token> tokens, std::size_t depth) {
  if (depth > options_.max_macro_depth) {
    if (!expansion_limit_reported_)
      diagnostics_.error(tokens.empty() ? SourceLocation{} : tokens[0].location, "macro expansion limit exceeded");
    expansion_limit_reported_ = true;
    return tokens;
  }
  std::vector<Token> out;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    Token& t = tokens[i];
    auto found = t.is(TokenKind::identifier) && !t.no_expand ? macros_.find(t.text) : macros_.end();
    if (found == macros_.end()) {
      out.push_back(std::move(t));
      continue;
    }
    if (is_disabled(t.text) || expansion_count_ >= options_.max_macro_expansions ||
        expanded_tokens_ >= max_expanded_tokens) {
      if (!is_disabled(t.text) && !expansion_limit_reported_) {
        diagnostics_.error(t.location, "macro expansion limit exceeded while expanding '" + t.text + "'");
        expansion_limit_reported_ = true;
      }
      t.no_expand = true;
      out.push_back(std::move(t));
      continue;
    }
    const Macro macro = found->second;
    std::vector<std::vector<Token>> arguments;
    if (macro.function_like) {
      if (i + 1 >= tokens.size() || !tokens[i + 1].is_punct("(")) {
        out.push_back(std::move(t));
        continue;
      }
      arguments.assign(1, {});
      int nesting = 0;
      std::size_t j = i + 2;
      for (; j < tokens.size(); ++j) {
        if (tokens[j].is_punct("(")) ++nesting;
        if (tokens[j].is_punct(")")) {
          if (nesting == 0) break;
          --nesting;
        }
        if (tokens[j].is_punct(",") && nesting == 0 &&
            !(macro.variadic && arguments.size() == macro.parameters.size())) {
          arguments.emplace_back();
          continue;
        }
        arguments.back().push_back(tokens[j]);
      }
      if (j >= tokens.size()) {
        diagnostics_.error(t.location, "unterminated call of macro '" + t.text + "'");
        return out;
      }
      if (macro.parameters.empty() && arguments.size() == 1 && arguments[0].empty()) arguments.clear();
      if (macro.variadic && arguments.size() + 1 == macro.parameters.size()) arguments.emplace_back();
      if (arguments.size() != macro.parameters.size()) {
        diagnostics_.error(t.location, "macro '" + t.text + "' expects " + std::to_string(macro.parameters.size()) +
                                           (macro.parameters.size() == 1 ? " argument, got " : " arguments, got ") +
                                           std::to_string(arguments.size()));
        i = j;
        continue;
      }
      i = j;
    }
    ++expansion_count_;
    std::vector<Token> body = substitute(macro, arguments, t, depth);
    // Rescan with this macro disabled.
    expansions_.push_back(Expansion{{}, 0, t.text});
    std::vector<Token> rescanned = expand_list(std::move(body), depth + 1);
    expansions_.pop_back();
    for (Token& r : rescanned) {
      r.location = t.location;
      out.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace switchyard::idl
