// IDL contexts (CORBA 3.x, "Context Object"): string properties a client sets, of which a call
// to an operation declared with a `context("name", "prefix*")` clause sends those the clause's
// patterns match. A pattern is a property name, or a prefix ending in '*' that matches every
// name it starts.
//
// On the wire the matched properties follow the request's in and inout arguments as one
// sequence<string> of names and values alternating (CORBA 3.x, GIOP "Request Body"). Generated
// stubs of such an operation take a trailing `const switchyard::context& _ctx`, and skeletons pass
// the servant what arrived; the DII (request::set_context) and the DSI
// (dynamic_request::context) carry them too.
//
// Contexts chain as the specification's do: a child context (create_child, or the constructor
// with a parent) has a name and a parent, and a lookup that finds nothing in a context goes on to
// its parent, unless restricted to the one context; the properties a call sends are the chain's,
// a child's value hiding its parent's. A context is a value: the parent is held through a shared
// pointer to a const context, so a child sees what its parent holds at the time of the lookup.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace switchyard {

namespace cdr {
class input_stream;
class output_stream;
}  // namespace cdr

class context {
 public:
  using property_map = std::map<std::string, std::string, std::less<>>;
  // Where a lookup searches (the specification's CTX_RESTRICT_SCOPE flag).
  enum class scope { chain, this_context };

  context() = default;
  // A named context under `parent` (null: none).
  context(std::string_view name, std::shared_ptr<const context> parent) : name_(name), parent_(std::move(parent)) {}
  // A child of a copy of this context, as the specification's create_child.
  context create_child(std::string_view name) const { return context(name, std::make_shared<const context>(*this)); }

  const std::string& name() const noexcept { return name_; }
  const std::shared_ptr<const context>& parent() const noexcept { return parent_; }

  // Sets (or replaces) one property in this context. BAD_PARAM for an empty name or one holding
  // '*'.
  void set_one_value(std::string_view name, std::string_view value);
  // The properties whose names `pattern` matches, in name order: this context's, and (scope
  // chain) its ancestors' that it does not hide. Empty when none does.
  std::vector<std::pair<std::string, std::string>> get_values(std::string_view pattern,
                                                              scope where = scope::chain) const;
  // The same from the nearest context of the chain named `start_scope` (this one included);
  // BAD_CONTEXT when there is none of that name.
  std::vector<std::pair<std::string, std::string>> get_values(std::string_view start_scope, std::string_view pattern,
                                                              scope where) const;
  // Removes the properties `pattern` matches from this context (never its parent's); BAD_CONTEXT
  // when it matches none (as the specification's delete_values).
  void delete_values(std::string_view pattern);
  // One property's value, looked up along the chain, or null.
  const std::string* value(std::string_view name) const;

  // This context's own properties.
  std::size_t size() const noexcept { return properties_.size(); }
  bool empty() const noexcept { return properties_.empty() && parent_ == nullptr; }
  const property_map& properties() const noexcept { return properties_; }
  // The chain's properties: this context's and its ancestors' that it does not hide.
  property_map all_properties() const;

  // The chain's properties any of `patterns` matches, as one context of no parent: what a call
  // sends.
  context matching(std::span<const std::string_view> patterns) const;

  // Equal names, properties and parents' contents.
  friend bool operator==(const context& a, const context& b);

  static bool matches(std::string_view pattern, std::string_view name) noexcept;

 private:
  std::string name_;
  std::shared_ptr<const context> parent_;
  property_map properties_;
};

// The request body's context: the properties of `ctx` that any of `patterns` matches, as a
// sequence<string> of name, value, name, value...
void write_context(cdr::output_stream& out, const context& ctx, std::span<const std::string_view> patterns);
// Reads that sequence. MARSHAL for an odd count of strings; a name sent twice keeps its last value.
context read_context(cdr::input_stream& in);

}  // namespace switchyard
