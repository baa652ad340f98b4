#include "idl_compiler/parser.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <unordered_map>

namespace switchyard::idl {

namespace {

constexpr std::string_view keywords[] = {
    "abstract",  "any",       "attribute", "boolean",   "case",        "char",       "component", "const",
    "consumes",  "context",   "custom",    "default",   "double",      "emits",      "enum",      "eventtype",
    "exception", "factory",   "FALSE",     "finder",    "fixed",       "float",      "getraises", "home",
    "import",    "in",        "inout",     "interface", "local",       "long",       "module",    "multiple",
    "native",    "Object",    "octet",     "oneway",    "out",         "primarykey", "private",   "provides",
    "public",    "publishes", "raises",    "readonly",  "setraises",   "sequence",   "short",     "string",
    "struct",    "supports",  "switch",    "TRUE",      "truncatable", "typedef",    "typeid",    "typeprefix",
    "unsigned",  "union",     "uses",      "ValueBase", "valuetype",   "void",       "wchar",     "wstring"};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

const std::unordered_map<std::string, std::string_view>& keywords_by_lower_case() {
  static const auto* map = [] {
    auto* m = new std::unordered_map<std::string, std::string_view>;
    for (std::string_view k : keywords) (*m)[lower(k)] = k;
    return m;
  }();
  return *map;
}

bool valid_version(const std::string& v) {
  const std::size_t dot = v.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == v.size()) return false;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (i != dot && !std::isdigit(static_cast<unsigned char>(v[i]))) return false;
  return true;
}

}  // namespace

bool is_idl_keyword(std::string_view word) {
  return std::find(std::begin(keywords), std::end(keywords), word) != std::end(keywords);
}

Parser::DepthGuard::DepthGuard(Parser& p) : parser(p) {
  if (++parser.depth_ > max_nesting) {
    --parser.depth_;
    parser.fail("declarations or expressions nested too deeply (more than " + std::to_string(max_nesting) + " levels)");
  }
}

Parser::Parser(Preprocessor& tokens, const SourceManager& sources, Diagnostics& diagnostics)
    : tokens_(tokens), sources_(sources), diagnostics_(diagnostics) {}

void Parser::advance() {
  if (current_.is_punct("{")) ++brace_depth_;
  if (current_.is_punct("}") && brace_depth_ > 0) --brace_depth_;
  while (true) {
    current_ = tokens_.next();
    if (current_.is(TokenKind::pragma) || current_.is(TokenKind::file_begin) || current_.is(TokenKind::file_end)) {
      pending_directives_.push_back(std::move(current_));
      continue;
    }
    if (current_.is(TokenKind::invalid)) continue;  // the lexer reported it
    break;
  }
}

bool Parser::accept_punct(std::string_view p) {
  if (!at_punct(p)) return false;
  advance();
  return true;
}

bool Parser::accept_keyword(std::string_view k) {
  if (!at_keyword(k)) return false;
  advance();
  return true;
}

std::string Parser::describe(const Token& token) const {
  switch (token.kind) {
    case TokenKind::end_of_file:
      return "end of file";
    case TokenKind::string_literal:
    case TokenKind::wide_string_literal:
      return "a string literal";
    case TokenKind::char_literal:
    case TokenKind::wide_char_literal:
      return "a character literal";
    default:
      return "'" + token.text + "'";
  }
}

bool Parser::already_reported(SourceLocation at) const {
  // A syntax error on a line that already has an error (from the lexer, the preprocessor or the
  // parser) is almost always a consequence of that one: say nothing more.
  const SourceLocation last = diagnostics_.last_error_location();
  return diagnostics_.error_count() != 0 && last.valid() && last.file == at.file && last.line == at.line;
}

void Parser::fail_at(SourceLocation at, const std::string& message) {
  if (!already_reported(at)) diagnostics_.error(at, message);
  throw Failed{};
}

void Parser::fail(const std::string& message) { fail_at(current_.location, message); }

void Parser::expect_punct(std::string_view p, std::string_view context) {
  if (accept_punct(p)) return;
  fail("expected '" + std::string(p) + "' " + std::string(context) + ", found " + describe(current_));
}

void Parser::expect_closing_angle() {
  if (accept_punct(">")) return;
  if (at_punct(">>")) {  // `sequence<sequence<long>>`: take one '>' of the pair
    current_.text = ">";
    ++current_.location.column;
    return;
  }
  fail("expected '>', found " + describe(current_));
}

void Parser::expect_semicolon(std::string_view after) {
  if (accept_punct(";")) return;
  if (!already_reported(current_.location))
    diagnostics_.error(current_.location, "expected ';' after " + std::string(after) + ", found " + describe(current_));
  // Carry on when what follows starts something sensible; otherwise skip (no second error).
  static constexpr std::string_view starters[] = {
      "module", "interface", "abstract",  "local",     "valuetype", "custom", "typedef", "struct",     "union", "enum",
      "native", "const",     "exception", "attribute", "readonly",  "oneway", "typeid",  "typeprefix", "void"};
  if (at_punct("}") || current_.is(TokenKind::end_of_file)) return;
  for (std::string_view s : starters)
    if (at_keyword(s)) return;
  throw Failed{};
}

void Parser::synchronize(std::size_t depth) {
  while (!current_.is(TokenKind::end_of_file)) {
    if (brace_depth_ <= depth && at_punct(";")) {
      advance();
      return;
    }
    if (brace_depth_ <= depth && at_punct("}")) return;
    advance();
  }
}

std::string Parser::identifier(std::string_view what, bool declaring) {
  if (!current_.is(TokenKind::identifier)) fail("expected " + std::string(what) + ", found " + describe(current_));
  const std::string& text = current_.text;
  last_name_location_ = current_.location;
  std::string name;
  if (text[0] == '_') {
    name = text.substr(1);  // an escaped identifier: never a keyword
    if (name.empty()) fail("'_' alone is not an identifier");
  } else if (is_idl_keyword(text)) {
    fail("expected " + std::string(what) + ", found keyword '" + text + "'");
  } else if (declaring) {
    const auto& by_lower = keywords_by_lower_case();
    auto found = by_lower.find(lower(text));
    if (found != by_lower.end())
      diagnostics_.error(current_.location,
                         "identifier '" + text + "' collides with keyword '" + std::string(found->second) +
                             "' (IDL keywords match regardless of case; escape it as '_" + text + "')");
    name = text;
  } else {
    name = text;
  }
  advance();
  return name;
}

bool Parser::at_scoped_name() const {
  if (at_punct("::")) return true;
  return current_.is(TokenKind::identifier) && (current_.text[0] == '_' || !is_idl_keyword(current_.text));
}

ScopedName Parser::scoped_name() {
  ScopedName name;
  name.location = current_.location;
  if (accept_punct("::")) name.absolute = true;
  name.parts.push_back(identifier("a name", false));
  while (accept_punct("::")) name.parts.push_back(identifier("a name after '::'", false));
  return name;
}

void Parser::set_common(Declaration& d, Declaration* parent, SourceLocation at, std::string name) {
  // Declarations are located at their names (set_common runs after identifier() has).
  d.location = d.kind == DeclKind::directive || name.empty() ? at : last_name_location_;
  d.name = std::move(name);
  d.parent = parent;
  d.in_main_file = main_file_ != 0 && sources_.physical_file(at.file) == main_file_;
}

template <typename T>
T* Parser::add(DeclarationList& out, Declaration*, std::unique_ptr<T> declaration) {
  T* raw = declaration.get();
  out.push_back(std::move(declaration));
  return raw;
}

// ---------------------------------------------------------------- definition lists

void Parser::parse(Specification& specification) {
  main_file_ = tokens_.main_file();
  Module& root = specification.root;
  root.location = SourceLocation{main_file_, 1, 1};
  root.in_main_file = true;
  advance();
  definitions(root.definitions, &root, true);
  flush_directives(root.definitions, &root);
}

void Parser::flush_directives(DeclarationList& out, Declaration* parent) {
  std::vector<Token> pending;
  pending.swap(pending_directives_);
  for (const Token& t : pending) {
    auto d = std::make_unique<Directive>();
    set_common(*d, parent, t.location, "");
    if (t.is(TokenKind::file_begin)) {
      d->directive = DirectiveKind::file_begin;
      d->value = t.text;
      out.push_back(std::move(d));
      continue;
    }
    if (t.is(TokenKind::file_end)) {
      d->directive = DirectiveKind::file_end;
      out.push_back(std::move(d));
      continue;
    }
    const std::vector<Token>& args = t.arguments;
    if (t.text == "prefix") {
      if (args.size() != 1 || !args[0].is(TokenKind::string_literal)) {
        diagnostics_.error(t.location, "#pragma prefix expects one string literal");
        continue;
      }
      d->directive = DirectiveKind::pragma_prefix;
      d->value = args[0].text;
      out.push_back(std::move(d));
      continue;
    }
    // version and ID: a scoped name, then the version or the id.
    std::size_t i = 0;
    ScopedName& target = d->target;
    target.location = args.empty() ? t.location : args[0].location;
    if (i < args.size() && args[i].is_punct("::")) {
      target.absolute = true;
      ++i;
    }
    bool ok = i < args.size() && args[i].is(TokenKind::identifier);
    while (ok && i < args.size() && args[i].is(TokenKind::identifier)) {
      const std::string& part = args[i].text;
      target.parts.push_back(part[0] == '_' ? part.substr(1) : part);
      ++i;
      if (i < args.size() && args[i].is_punct("::")) {
        ++i;
        ok = i < args.size() && args[i].is(TokenKind::identifier);
      } else {
        break;
      }
    }
    if (t.text == "version") {
      ok = ok && i + 1 == args.size() && (args[i].is(TokenKind::floating_literal)) && valid_version(args[i].text);
      if (!ok) {
        diagnostics_.error(t.location, "#pragma version expects a name and a version like 1.2");
        continue;
      }
      d->directive = DirectiveKind::pragma_version;
      d->value = args[i].text;
    } else {
      ok = ok && i + 1 == args.size() && args[i].is(TokenKind::string_literal);
      if (!ok) {
        diagnostics_.error(t.location, "#pragma ID expects a name and a string literal");
        continue;
      }
      d->directive = DirectiveKind::pragma_id;
      d->value = args[i].text;
    }
    out.push_back(std::move(d));
  }
}

void Parser::definitions(DeclarationList& out, Declaration* parent, bool top_level) {
  const std::size_t level = brace_depth_;
  while (true) {
    flush_directives(out, parent);
    if (current_.is(TokenKind::end_of_file)) return;
    if (at_punct("}")) {
      if (!top_level) return;
      diagnostics_.error(current_.location, "unexpected '}'");
      advance();
      continue;
    }
    try {
      if (parent->kind == DeclKind::module) definition(out, parent);
      else export_(out, parent, parent->kind == DeclKind::value_type);
    } catch (const Failed&) {
      synchronize(level);
    }
  }
}

void Parser::definition(DeclarationList& out, Declaration* parent) {
  const SourceLocation start = current_.location;
  if (at_keyword("module")) {
    module(out, parent);
    expect_semicolon("module");
  } else if (at_keyword("interface") || at_keyword("abstract") || at_keyword("local")) {
    const bool is_abstract = at_keyword("abstract");
    const bool is_local = at_keyword("local");
    if (is_abstract || is_local) advance();
    if (is_abstract && at_keyword("valuetype")) {
      value_type(out, parent, start);
      if (out.back()->kind != DeclKind::value_type) fail_at(out.back()->location, "a value box cannot be abstract");
      static_cast<ValueType&>(*out.back()).is_abstract = true;
      expect_semicolon("valuetype");
      return;
    }
    if (!at_keyword("interface"))
      fail("expected 'interface'" + std::string(is_abstract ? " or 'valuetype'" : "") + ", found " +
           describe(current_));
    interface(out, parent, start);
    auto& i = static_cast<Interface&>(*out.back());
    i.is_abstract = is_abstract;
    i.is_local = is_local;
    expect_semicolon("interface");
  } else if (at_keyword("valuetype") || at_keyword("custom")) {
    const bool custom = accept_keyword("custom");
    if (custom && !at_keyword("valuetype")) fail("expected 'valuetype' after 'custom', found " + describe(current_));
    value_type(out, parent, start);
    if (out.back()->kind == DeclKind::value_type) static_cast<ValueType&>(*out.back()).is_custom = custom;
    expect_semicolon("valuetype");
  } else if (at_keyword("component") || at_keyword("home") || at_keyword("eventtype") || at_keyword("import") ||
             at_keyword("porttype") || at_keyword("connector")) {
    fail("'" + current_.text + "' (CORBA Component Model) is not supported");
  } else {
    export_(out, parent, false);
  }
}

void Parser::export_(DeclarationList& out, Declaration* parent, bool in_value) {
  if (at_keyword("typedef") || at_keyword("struct") || at_keyword("union") || at_keyword("enum") ||
      at_keyword("native")) {
    const std::string what = current_.text;
    type_declaration(out, parent);
    expect_semicolon(what);
  } else if (at_keyword("const")) {
    constant(out, parent);
    expect_semicolon("constant");
  } else if (at_keyword("exception")) {
    exception(out, parent);
    expect_semicolon("exception");
  } else if (at_keyword("typeid") || at_keyword("typeprefix")) {
    const std::string what = current_.text;
    type_id_or_prefix(out, parent);
    expect_semicolon(what);
  } else if (parent->kind == DeclKind::module) {
    fail("expected a definition, found " + describe(current_));
  } else if (at_keyword("readonly") || at_keyword("attribute")) {
    attribute(out, parent);
    expect_semicolon("attribute");
  } else if (in_value && (at_keyword("public") || at_keyword("private"))) {
    state_member(out, parent);
    expect_semicolon("state member");
  } else if (in_value && at_keyword("factory")) {
    factory(out, parent);
    expect_semicolon("factory");
  } else if (at_keyword("oneway") || at_keyword("void") || at_scoped_name() ||
             (current_.is(TokenKind::identifier) && is_idl_keyword(current_.text))) {
    operation(out, parent);
    expect_semicolon("operation");
  } else {
    fail("expected an operation, attribute or type, found " + describe(current_));
  }
}

void Parser::module(DeclarationList& out, Declaration* parent) {
  const SourceLocation start = current_.location;
  advance();  // module
  auto m = std::make_unique<Module>();
  set_common(*m, parent, start, identifier("a module name"));
  Module* raw = add(out, parent, std::move(m));
  DepthGuard guard(*this);
  expect_punct("{", "after the module name");
  definitions(raw->definitions, raw, false);
  flush_directives(raw->definitions, raw);
  expect_punct("}", "at the end of module '" + raw->name + "'");
}

void Parser::interface(DeclarationList& out, Declaration* parent, SourceLocation start) {
  advance();  // interface
  auto i = std::make_unique<Interface>();
  set_common(*i, parent, start, identifier("an interface name"));
  Interface* raw = add(out, parent, std::move(i));
  if (at_punct(";")) {
    raw->forward = true;
    return;
  }
  if (accept_punct(":")) {
    raw->base_names.push_back(scoped_name());
    while (accept_punct(",")) raw->base_names.push_back(scoped_name());
  }
  DepthGuard guard(*this);
  expect_punct("{", "to open the body of interface '" + raw->name + "'");
  definitions(raw->definitions, raw, false);
  flush_directives(raw->definitions, raw);
  expect_punct("}", "at the end of interface '" + raw->name + "'");
}

void Parser::value_type(DeclarationList& out, Declaration* parent, SourceLocation start) {
  advance();  // valuetype
  const SourceLocation name_at = current_.location;
  std::string name = identifier("a valuetype name");
  const bool header = at_punct(":") || at_keyword("supports") || at_punct("{");
  if (!header && !at_punct(";")) {
    auto box = std::make_unique<ValueBox>();
    set_common(*box, parent, start, std::move(name));
    // A box of an inline struct/union/enum: that type goes before the box.
    box->type = type_spec(out, parent);
    out.push_back(std::move(box));
    return;
  }
  (void)name_at;
  auto v = std::make_unique<ValueType>();
  set_common(*v, parent, start, std::move(name));
  ValueType* raw = add(out, parent, std::move(v));
  if (at_punct(";")) {
    raw->forward = true;
    return;
  }
  if (accept_punct(":")) {
    raw->is_truncatable = accept_keyword("truncatable");
    raw->base_names.push_back(scoped_name());
    while (accept_punct(",")) raw->base_names.push_back(scoped_name());
  }
  if (accept_keyword("supports")) {
    raw->supports_names.push_back(scoped_name());
    while (accept_punct(",")) raw->supports_names.push_back(scoped_name());
  }
  DepthGuard guard(*this);
  expect_punct("{", "to open the body of valuetype '" + raw->name + "'");
  definitions(raw->definitions, raw, false);
  flush_directives(raw->definitions, raw);
  expect_punct("}", "at the end of valuetype '" + raw->name + "'");
}

void Parser::type_declaration(DeclarationList& out, Declaration* parent) {
  if (at_keyword("typedef")) typedef_(out, parent);
  else if (at_keyword("struct")) struct_(out, parent);
  else if (at_keyword("union")) union_(out, parent);
  else if (at_keyword("enum")) enum_(out, parent);
  else native(out, parent);
}

void Parser::typedef_(DeclarationList& out, Declaration* parent) {
  advance();  // typedef
  std::unique_ptr<TypeSpec> type = type_spec(out, parent);
  do {
    std::string name;
    SourceLocation at;
    auto t = std::make_unique<Typedef>();
    t->type = declarator(*type, name, at);
    set_common(*t, parent, at, std::move(name));
    add(out, parent, std::move(t));
  } while (accept_punct(","));
}

void Parser::struct_(DeclarationList& out, Declaration* parent) {
  const SourceLocation start = current_.location;
  advance();  // struct
  auto s = std::make_unique<Struct>();
  set_common(*s, parent, start, identifier("a struct name"));
  Struct* raw = add(out, parent, std::move(s));
  if (at_punct(";")) {
    raw->forward = true;
    return;
  }
  DepthGuard guard(*this);
  expect_punct("{", "to open the body of struct '" + raw->name + "'");
  members(raw->members, raw->definitions, raw, true);
  expect_punct("}", "at the end of struct '" + raw->name + "'");
}

void Parser::exception(DeclarationList& out, Declaration* parent) {
  const SourceLocation start = current_.location;
  advance();  // exception
  auto e = std::make_unique<Exception>();
  set_common(*e, parent, start, identifier("an exception name"));
  Exception* raw = add(out, parent, std::move(e));
  DepthGuard guard(*this);
  expect_punct("{", "to open the body of exception '" + raw->name + "'");
  members(raw->members, raw->definitions, raw, true);
  expect_punct("}", "at the end of exception '" + raw->name + "'");
}

void Parser::members(std::vector<std::unique_ptr<Member>>& out, DeclarationList& nested, Declaration* parent, bool) {
  while (!at_punct("}") && !current_.is(TokenKind::end_of_file)) {
    std::unique_ptr<TypeSpec> type;
    // Declarations in the body (IDL 4's struct and exception scopes): a nested exception, and
    // typedefs and constants, which members after them may use.
    if (at_keyword("exception") || at_keyword("typedef") || at_keyword("const")) {
      nested_type_declaration(nested, parent);
      continue;
    }
    if (at_keyword("struct") || at_keyword("union") || at_keyword("enum")) {
      // `struct Inner {...};` declares a nested type; `struct Inner {...} m;` a member too.
      DepthGuard guard(*this);
      if (at_keyword("struct")) struct_(nested, parent);
      else if (at_keyword("union")) union_(nested, parent);
      else enum_(nested, parent);
      if (accept_punct(";")) continue;
      type = type_of(nested.back().get());
    } else {
      type = simple_type_spec(false);
    }
    do {
      std::string name;
      SourceLocation at;
      auto m = std::make_unique<Member>();
      m->type = declarator(*type, name, at);
      set_common(*m, parent, at, std::move(name));
      out.push_back(std::move(m));
    } while (accept_punct(","));
    expect_punct(";", "after a member");
  }
}

void Parser::union_(DeclarationList& out, Declaration* parent) {
  const SourceLocation start = current_.location;
  advance();  // union
  auto u = std::make_unique<Union>();
  set_common(*u, parent, start, identifier("a union name"));
  Union* raw = add(out, parent, std::move(u));
  if (at_punct(";")) {
    raw->forward = true;
    return;
  }
  DepthGuard guard(*this);
  if (!accept_keyword("switch")) fail("expected 'switch' after the union name, found " + describe(current_));
  expect_punct("(", "after 'switch'");
  if (at_keyword("enum")) {
    enum_(raw->definitions, raw);
    auto type = std::make_unique<TypeSpec>();
    type->kind = TypeKind::named;
    type->location = raw->definitions.back()->location;
    type->name.parts.push_back(raw->definitions.back()->name);
    type->name.location = type->location;
    type->resolved = raw->definitions.back().get();
    raw->discriminator = std::move(type);
  } else {
    raw->discriminator = simple_type_spec(false);
  }
  expect_punct(")", "after the discriminator type");
  expect_punct("{", "to open the body of union '" + raw->name + "'");
  while (!at_punct("}") && !current_.is(TokenKind::end_of_file)) {
    UnionCase c;
    while (at_keyword("case") || at_keyword("default")) {
      CaseLabel label;
      label.location = current_.location;
      if (accept_keyword("default")) {
        label.is_default = true;
      } else {
        advance();  // case
        label.expr = const_expr();
      }
      expect_punct(":", "after a case label");
      c.labels.push_back(std::move(label));
    }
    if (c.labels.empty() && nested_type_declaration(raw->definitions, raw)) continue;
    if (c.labels.empty()) fail("expected 'case' or 'default', found " + describe(current_));
    std::unique_ptr<TypeSpec> type = type_spec(raw->definitions, raw);
    std::string name;
    SourceLocation at;
    c.member = std::make_unique<Member>();
    c.member->type = declarator(*type, name, at);
    set_common(*c.member, raw, at, std::move(name));
    expect_punct(";", "after a union member");
    raw->cases.push_back(std::move(c));
  }
  expect_punct("}", "at the end of union '" + raw->name + "'");
}

void Parser::enum_(DeclarationList& out, Declaration* parent) {
  const SourceLocation start = current_.location;
  advance();  // enum
  auto e = std::make_unique<Enum>();
  set_common(*e, parent, start, identifier("an enum name"));
  Enum* raw = add(out, parent, std::move(e));
  expect_punct("{", "to open enum '" + raw->name + "'");
  do {
    if (at_punct("}") && !raw->enumerators.empty()) break;  // a trailing comma is forgiven
    auto en = std::make_unique<Enumerator>();
    const SourceLocation at = current_.location;
    set_common(*en, parent, at, identifier("an enumerator"));
    en->owner = raw;
    en->value = static_cast<std::uint32_t>(raw->enumerators.size());
    raw->enumerators.push_back(std::move(en));
  } while (accept_punct(","));
  expect_punct("}", "at the end of enum '" + raw->name + "'");
}

void Parser::native(DeclarationList& out, Declaration* parent) {
  const SourceLocation start = current_.location;
  advance();  // native
  auto n = std::make_unique<Native>();
  set_common(*n, parent, start, identifier("a native type name"));
  add(out, parent, std::move(n));
}

void Parser::constant(DeclarationList& out, Declaration* parent) {
  const SourceLocation start = current_.location;
  advance();  // const
  auto c = std::make_unique<Constant>();
  c->type = const_type();
  set_common(*c, parent, start, identifier("a constant name"));
  expect_punct("=", "after the constant's name");
  c->expr = const_expr();
  add(out, parent, std::move(c));
}

void Parser::type_id_or_prefix(DeclarationList& out, Declaration* parent) {
  const bool is_prefix = at_keyword("typeprefix");
  const SourceLocation start = current_.location;
  advance();
  auto d = std::make_unique<Directive>();
  set_common(*d, parent, start, "");
  d->directive = is_prefix ? DirectiveKind::type_prefix : DirectiveKind::type_id;
  d->target = scoped_name();
  if (!current_.is(TokenKind::string_literal)) fail("expected a string literal, found " + describe(current_));
  d->value = current_.text;
  advance();
  out.push_back(std::move(d));
}

std::vector<ScopedName> Parser::name_list(std::string_view keyword) {
  std::vector<ScopedName> names;
  expect_punct("(", "after '" + std::string(keyword) + "'");
  names.push_back(scoped_name());
  while (accept_punct(",")) names.push_back(scoped_name());
  expect_punct(")", "after the list of '" + std::string(keyword) + "'");
  return names;
}

void Parser::attribute(DeclarationList& out, Declaration* parent) {
  const bool readonly = accept_keyword("readonly");
  if (!accept_keyword("attribute")) fail("expected 'attribute' after 'readonly', found " + describe(current_));
  DeclarationList nested;
  std::unique_ptr<TypeSpec> type = simple_type_spec(false);
  std::vector<Attribute*> made;
  do {
    auto a = std::make_unique<Attribute>();
    const SourceLocation at = current_.location;
    set_common(*a, parent, at, identifier("an attribute name"));
    a->readonly = readonly;
    a->type = type->clone();
    made.push_back(add(out, parent, std::move(a)));
  } while (accept_punct(","));
  const bool raises = at_keyword("raises") || at_keyword("getraises") || at_keyword("setraises");
  if (raises && made.size() > 1) fail("an exception list is allowed only on an attribute declared alone");
  Attribute& a = *made.back();
  if (readonly) {
    if (at_keyword("getraises") || at_keyword("setraises"))
      fail("a readonly attribute takes 'raises', not '" + current_.text + "'");
    if (accept_keyword("raises")) a.get_raises_names = name_list("raises");
  } else {
    if (at_keyword("raises")) fail("an attribute takes 'getraises' and 'setraises', not 'raises'");
    if (accept_keyword("getraises")) a.get_raises_names = name_list("getraises");
    if (accept_keyword("setraises")) a.set_raises_names = name_list("setraises");
  }
}

std::vector<std::unique_ptr<Parameter>> Parser::parameters(Declaration* parent, bool in_only) {
  std::vector<std::unique_ptr<Parameter>> out;
  expect_punct("(", "before the parameters");
  if (accept_punct(")")) return out;
  do {
    auto p = std::make_unique<Parameter>();
    const SourceLocation start = current_.location;
    if (accept_keyword("in")) p->direction = ParameterDirection::in;
    else if (!in_only && accept_keyword("out")) p->direction = ParameterDirection::out;
    else if (!in_only && accept_keyword("inout")) p->direction = ParameterDirection::inout;
    else
      fail(std::string(in_only ? "expected 'in'" : "expected 'in', 'out' or 'inout'") + ", found " +
           describe(current_));
    p->type = simple_type_spec(false);
    set_common(*p, parent, start, identifier("a parameter name"));
    out.push_back(std::move(p));
  } while (accept_punct(","));
  expect_punct(")", "after the parameters");
  return out;
}

void Parser::operation(DeclarationList& out, Declaration* parent) {
  const SourceLocation start = current_.location;
  auto op = std::make_unique<Operation>();
  op->oneway = accept_keyword("oneway");
  op->return_type = simple_type_spec(true);
  const SourceLocation name_at = current_.location;
  set_common(*op, parent, name_at, identifier("an operation name"));
  (void)start;
  Operation* raw = add(out, parent, std::move(op));
  raw->parameters = parameters(raw, false);
  if (accept_keyword("raises")) raw->raises_names = name_list("raises");
  if (accept_keyword("context")) {
    expect_punct("(", "after 'context'");
    do {
      if (!current_.is(TokenKind::string_literal))
        fail("expected a string literal in 'context', found " + describe(current_));
      raw->contexts.push_back(current_.text);
      advance();
    } while (accept_punct(","));
    expect_punct(")", "after the context list");
  }
}

void Parser::state_member(DeclarationList& out, Declaration* parent) {
  const bool is_public = at_keyword("public");
  advance();
  std::unique_ptr<TypeSpec> type = type_spec(out, parent);
  do {
    std::string name;
    SourceLocation at;
    auto m = std::make_unique<StateMember>();
    m->is_public = is_public;
    m->type = declarator(*type, name, at);
    set_common(*m, parent, at, std::move(name));
    add(out, parent, std::move(m));
  } while (accept_punct(","));
}

void Parser::factory(DeclarationList& out, Declaration* parent) {
  advance();  // factory
  auto f = std::make_unique<Factory>();
  const SourceLocation at = current_.location;
  set_common(*f, parent, at, identifier("a factory name"));
  Factory* raw = add(out, parent, std::move(f));
  raw->parameters = parameters(raw, true);
  if (accept_keyword("raises")) raw->raises_names = name_list("raises");
}

// ---------------------------------------------------------------- types

std::unique_ptr<TypeSpec> Parser::type_spec(DeclarationList& nested, Declaration* parent) {
  if (at_keyword("struct") || at_keyword("union") || at_keyword("enum")) {
    DepthGuard guard(*this);
    if (at_keyword("struct")) struct_(nested, parent);
    else if (at_keyword("union")) union_(nested, parent);
    else enum_(nested, parent);
    return type_of(nested.back().get());
  }
  return simple_type_spec(false);
}

std::unique_ptr<TypeSpec> Parser::type_of(Declaration* made) {
  if ((made->kind == DeclKind::struct_ && static_cast<Struct*>(made)->forward) ||
      (made->kind == DeclKind::union_ && static_cast<Union*>(made)->forward))
    fail("expected '{' after the name of '" + made->name + "' (a type here needs a body)");
  auto type = std::make_unique<TypeSpec>();
  type->kind = TypeKind::named;
  type->location = made->location;
  type->name.parts.push_back(made->name);
  type->name.location = made->location;
  type->resolved = made;
  return type;
}

bool Parser::nested_type_declaration(DeclarationList& nested, Declaration* parent) {
  if (!at_keyword("struct") && !at_keyword("union") && !at_keyword("enum") && !at_keyword("exception") &&
      !at_keyword("typedef") && !at_keyword("const"))
    return false;
  const std::string what = at_keyword("const") ? "constant" : current_.text;
  DepthGuard guard(*this);
  if (at_keyword("exception")) exception(nested, parent);
  else if (at_keyword("const")) constant(nested, parent);
  else type_declaration(nested, parent);
  expect_semicolon(what);
  return true;
}

bool Parser::base_type(TypeSpec& type) {
  type.kind = TypeKind::basic;
  if (accept_keyword("float")) type.basic = BasicType::float_;
  else if (accept_keyword("double")) type.basic = BasicType::double_;
  else if (accept_keyword("short")) type.basic = BasicType::short_;
  else if (accept_keyword("long")) {
    if (accept_keyword("long")) type.basic = BasicType::long_long;
    else if (accept_keyword("double")) type.basic = BasicType::long_double;
    else type.basic = BasicType::long_;
  } else if (accept_keyword("unsigned")) {
    if (accept_keyword("short")) type.basic = BasicType::unsigned_short;
    else if (accept_keyword("long"))
      type.basic = accept_keyword("long") ? BasicType::unsigned_long_long : BasicType::unsigned_long;
    else fail("expected 'short' or 'long' after 'unsigned', found " + describe(current_));
  } else if (accept_keyword("char")) type.basic = BasicType::char_;
  else if (accept_keyword("wchar")) type.basic = BasicType::wchar;
  else if (accept_keyword("boolean")) type.basic = BasicType::boolean;
  else if (accept_keyword("octet")) type.basic = BasicType::octet;
  else if (accept_keyword("any")) type.basic = BasicType::any;
  else if (accept_keyword("Object")) type.basic = BasicType::object;
  else if (accept_keyword("ValueBase")) type.basic = BasicType::value_base;
  else return false;
  return true;
}

std::unique_ptr<TypeSpec> Parser::simple_type_spec(bool allow_void) {
  auto type = std::make_unique<TypeSpec>();
  type->location = current_.location;
  if (at_keyword("void")) {
    if (!allow_void) fail("'void' is allowed only as the result type of an operation");
    advance();
    type->kind = TypeKind::basic;
    type->basic = BasicType::void_;
    return type;
  }
  if (base_type(*type)) return type;
  if (accept_keyword("sequence")) {
    DepthGuard guard(*this);
    type->kind = TypeKind::sequence;
    expect_punct("<", "after 'sequence'");
    type->element = simple_type_spec(false);
    if (accept_punct(",")) type->bound_expr = bound_expr();
    expect_closing_angle();
    return type;
  }
  if (at_keyword("string") || at_keyword("wstring")) {
    type->kind = at_keyword("string") ? TypeKind::string : TypeKind::wstring;
    advance();
    if (accept_punct("<")) {
      type->bound_expr = bound_expr();
      expect_closing_angle();
    }
    return type;
  }
  if (accept_keyword("fixed")) {
    type->kind = TypeKind::fixed;
    expect_punct("<", "after 'fixed'");
    type->digits_expr = bound_expr();
    expect_punct(",", "between the digits and the scale of 'fixed'");
    type->scale_expr = bound_expr();
    expect_closing_angle();
    return type;
  }
  if (at_scoped_name()) {
    type->kind = TypeKind::named;
    type->name = scoped_name();
    return type;
  }
  fail("expected a type, found " + describe(current_));
}

std::unique_ptr<TypeSpec> Parser::const_type() {
  auto type = std::make_unique<TypeSpec>();
  type->location = current_.location;
  if (base_type(*type)) return type;
  if (at_keyword("string") || at_keyword("wstring")) return simple_type_spec(false);
  if (accept_keyword("fixed")) {
    type->kind = TypeKind::fixed;  // digits and scale come from the value
    return type;
  }
  if (at_scoped_name()) {
    type->kind = TypeKind::named;
    type->name = scoped_name();
    return type;
  }
  fail("expected the type of the constant, found " + describe(current_));
}

std::unique_ptr<TypeSpec> Parser::declarator(const TypeSpec& base, std::string& name, SourceLocation& at) {
  at = current_.location;
  name = identifier("a name");
  if (!at_punct("[")) return base.clone();
  auto array = std::make_unique<TypeSpec>();
  array->kind = TypeKind::array;
  array->location = at;
  array->element = base.clone();
  while (accept_punct("[")) {
    array->dimension_exprs.push_back(const_expr());
    expect_punct("]", "after an array dimension");
  }
  return array;
}

// ---------------------------------------------------------------- constant expressions

std::unique_ptr<Expr> Parser::const_expr() {
  DepthGuard guard(*this);
  return binary_expr(0);
}

std::unique_ptr<Expr> Parser::bound_expr() {
  // Inside <...>, a '>>' closes templates, as in `sequence<sequence<long, 4>>`; a shift needs
  // parentheses there.
  const bool saved = in_angle_brackets_;
  in_angle_brackets_ = true;
  std::unique_ptr<Expr> e = const_expr();
  in_angle_brackets_ = saved;
  return e;
}

std::unique_ptr<Expr> Parser::binary_expr(int level) {
  static const std::vector<std::vector<std::string_view>> levels = {{"|"},        {"^"},      {"&"},
                                                                    {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
  if (level == static_cast<int>(levels.size())) return unary_expr();
  std::unique_ptr<Expr> left = binary_expr(level + 1);
  while (true) {
    std::string_view op;
    for (std::string_view candidate : levels[static_cast<std::size_t>(level)])
      if (at_punct(candidate) && !(candidate == ">>" && in_angle_brackets_)) op = candidate;
    if (op.empty()) return left;
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::binary;
    e->location = current_.location;
    e->op = std::string(op);
    advance();
    e->left = std::move(left);
    e->right = binary_expr(level + 1);
    left = std::move(e);
  }
}

std::unique_ptr<Expr> Parser::unary_expr() {
  if (at_punct("-") || at_punct("+") || at_punct("~")) {
    DepthGuard guard(*this);
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::unary;
    e->location = current_.location;
    e->op = current_.text;
    advance();
    e->left = unary_expr();
    return e;
  }
  return primary_expr();
}

std::unique_ptr<Expr> Parser::primary_expr() {
  auto e = std::make_unique<Expr>();
  e->location = current_.location;
  const Token& t = current_;
  switch (t.kind) {
    case TokenKind::integer_literal:
      e->kind = ExprKind::integer_literal;
      if (!parse_integer_literal(t.text, e->integer))
        diagnostics_.error(t.location, "integer literal '" + t.text + "' is too large");
      advance();
      return e;
    case TokenKind::floating_literal:
      e->kind = ExprKind::floating_literal;
      e->floating = std::strtold(t.text.c_str(), nullptr);
      advance();
      return e;
    case TokenKind::fixed_literal:
      e->kind = ExprKind::fixed_literal;
      e->text = t.text.substr(0, t.text.size() - 1);
      e->floating = std::strtold(e->text.c_str(), nullptr);
      advance();
      return e;
    case TokenKind::char_literal:
    case TokenKind::wide_char_literal: {
      e->kind = t.kind == TokenKind::char_literal ? ExprKind::char_literal : ExprKind::wide_char_literal;
      // Decode the first UTF-8 sequence of the value.
      const std::string& v = t.text;
      std::uint32_t cp = v.empty() ? 0 : static_cast<unsigned char>(v[0]);
      std::size_t extra = cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : cp >= 0xC0 ? 1 : 0;
      if (extra > 0 && v.size() > extra) {
        cp &= (0x3F >> extra);
        for (std::size_t i = 1; i <= extra; ++i) cp = (cp << 6) | (static_cast<unsigned char>(v[i]) & 0x3F);
      }
      e->character = cp;
      advance();
      return e;
    }
    case TokenKind::string_literal:
    case TokenKind::wide_string_literal: {
      const TokenKind kind = t.kind;
      e->kind = kind == TokenKind::string_literal ? ExprKind::string_literal : ExprKind::wide_string_literal;
      while (current_.kind == kind) {  // adjacent literals join
        e->text += current_.text;
        advance();
      }
      return e;
    }
    default:
      break;
  }
  if (at_keyword("TRUE") || at_keyword("FALSE")) {
    e->kind = ExprKind::boolean_literal;
    e->boolean = at_keyword("TRUE");
    advance();
    return e;
  }
  if (accept_punct("(")) {
    const bool saved = in_angle_brackets_;
    in_angle_brackets_ = false;
    e = const_expr();
    in_angle_brackets_ = saved;
    expect_punct(")", "to close the parenthesis");
    return e;
  }
  if (at_scoped_name()) {
    e->kind = ExprKind::name;
    e->name = scoped_name();
    return e;
  }
  fail("expected a constant expression, found " + describe(current_));
}

}  // namespace switchyard::idl
