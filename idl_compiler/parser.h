// syidl stage 3: the parser. Recursive descent over the preprocessor's token stream, building
// the AST (ast.h). Syntax errors are reported once each; the parser then skips to the next `;`
// or `}` of the definition list it was in, so one mistake gives one error. Nesting is bounded.
// May include preprocessor.h, lexer.h, ast.h, diagnostics.h.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "idl_compiler/ast.h"
#include "idl_compiler/diagnostics.h"
#include "idl_compiler/lexer.h"
#include "idl_compiler/preprocessor.h"

namespace switchyard::idl {

class Parser {
 public:
  Parser(Preprocessor& tokens, const SourceManager& sources, Diagnostics& diagnostics);

  // Parses everything into `specification.root`.
  void parse(Specification& specification);

  static constexpr std::size_t max_nesting = 100;

 private:
  struct Failed {};  // thrown after a syntax error has been reported

  // Tokens
  const Token& current() const { return current_; }
  void advance();
  bool at_punct(std::string_view p) const { return current_.is_punct(p); }
  bool at_keyword(std::string_view k) const { return current_.is_identifier(k); }
  bool accept_punct(std::string_view p);
  bool accept_keyword(std::string_view k);
  void expect_punct(std::string_view p, std::string_view context);
  void expect_closing_angle();
  void expect_semicolon(std::string_view after);
  [[noreturn]] void fail(const std::string& message);
  bool already_reported(SourceLocation at) const;
  [[noreturn]] void fail_at(SourceLocation at, const std::string& message);
  std::string describe(const Token& token) const;
  void synchronize(std::size_t depth);
  // `declaring`: the name is being declared (then a case-insensitive clash with a keyword is
  // an error; uses of such names, as in Debian's COS files, are not).
  std::string identifier(std::string_view what, bool declaring = true);
  ScopedName scoped_name();
  bool at_scoped_name() const;

  // Definitions
  void definitions(DeclarationList& out, Declaration* parent, bool top_level);
  void flush_directives(DeclarationList& out, Declaration* parent);
  void directive_from_pragma(const Token& pragma);
  void definition(DeclarationList& out, Declaration* parent);
  void export_(DeclarationList& out, Declaration* parent, bool in_value);
  void module(DeclarationList& out, Declaration* parent);
  void interface(DeclarationList& out, Declaration* parent, SourceLocation start);
  void value_type(DeclarationList& out, Declaration* parent, SourceLocation start);
  void type_declaration(DeclarationList& out, Declaration* parent);
  void typedef_(DeclarationList& out, Declaration* parent);
  void struct_(DeclarationList& out, Declaration* parent);
  void union_(DeclarationList& out, Declaration* parent);
  void enum_(DeclarationList& out, Declaration* parent);
  void native(DeclarationList& out, Declaration* parent);
  void constant(DeclarationList& out, Declaration* parent);
  void exception(DeclarationList& out, Declaration* parent);
  void attribute(DeclarationList& out, Declaration* parent);
  void operation(DeclarationList& out, Declaration* parent);
  void state_member(DeclarationList& out, Declaration* parent);
  void factory(DeclarationList& out, Declaration* parent);
  void type_id_or_prefix(DeclarationList& out, Declaration* parent);
  void members(std::vector<std::unique_ptr<Member>>& out, DeclarationList& nested, Declaration* parent,
               bool allow_empty);
  std::vector<std::unique_ptr<Parameter>> parameters(Declaration* parent, bool in_only);
  std::vector<ScopedName> name_list(std::string_view keyword);
  template <typename T>
  T* add(DeclarationList& out, Declaration* parent, std::unique_ptr<T> declaration);
  void set_common(Declaration& declaration, Declaration* parent, SourceLocation at, std::string name);

  // Types: inline struct/union/enum definitions are appended to `nested`.
  std::unique_ptr<TypeSpec> type_spec(DeclarationList& nested, Declaration* parent);
  // In the body of a struct, union or exception: `struct|union|enum|exception X ...;` declares a
  // type nested there and no member. True when it read one.
  bool nested_type_declaration(DeclarationList& nested, Declaration* parent);
  // A named type standing for the struct, union or enum just declared in place (`made`).
  std::unique_ptr<TypeSpec> type_of(Declaration* made);
  std::unique_ptr<TypeSpec> simple_type_spec(bool allow_void);
  std::unique_ptr<TypeSpec> const_type();
  bool base_type(TypeSpec& type);
  // A declarator: its name, and the type with any array dimensions applied.
  std::unique_ptr<TypeSpec> declarator(const TypeSpec& base, std::string& name, SourceLocation& at);

  // Constant expressions
  std::unique_ptr<Expr> const_expr();
  std::unique_ptr<Expr> bound_expr();  // in <...>
  std::unique_ptr<Expr> binary_expr(int level);
  std::unique_ptr<Expr> unary_expr();
  std::unique_ptr<Expr> primary_expr();

  struct DepthGuard {
    explicit DepthGuard(Parser& parser);
    ~DepthGuard() { --parser.depth_; }
    Parser& parser;
  };

  Preprocessor& tokens_;
  const SourceManager& sources_;
  Diagnostics& diagnostics_;
  Token current_;
  std::vector<Token> pending_directives_;
  SourceLocation last_name_location_;
  bool in_angle_brackets_ = false;
  std::size_t brace_depth_ = 0;
  std::size_t depth_ = 0;
  std::uint32_t main_file_ = 0;
};

// IDL keywords (CORBA 3.0), spelled as the language spells them.
bool is_idl_keyword(std::string_view word);

}  // namespace switchyard::idl
