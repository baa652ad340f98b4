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
// Departure from the classic mapping: a context is a plain value with no parent chain or scopes
// (`create_child`); properties set on it are all there is.
#pragma once

#include <cstddef>
#include <map>
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
  context() = default;

  // Sets (or replaces) one property. BAD_PARAM for an empty name or one holding '*'.
  void set_one_value(std::string_view name, std::string_view value);
  // The properties whose names `pattern` matches, in name order; empty when none does.
  std::vector<std::pair<std::string, std::string>> get_values(std::string_view pattern) const;
  // Removes the properties `pattern` matches; BAD_CONTEXT when it matches none (as the
  // specification's delete_values).
  void delete_values(std::string_view pattern);
  // One property's value, or null.
  const std::string* value(std::string_view name) const;

  std::size_t size() const noexcept { return properties_.size(); }
  bool empty() const noexcept { return properties_.empty(); }
  const std::map<std::string, std::string, std::less<>>& properties() const noexcept { return properties_; }

  // The properties any of `patterns` matches, as a context of their own: what a call sends.
  context matching(std::span<const std::string_view> patterns) const;

  friend bool operator==(const context&, const context&) = default;

  static bool matches(std::string_view pattern, std::string_view name) noexcept;

 private:
  std::map<std::string, std::string, std::less<>> properties_;
};

// The request body's context: the properties of `ctx` that any of `patterns` matches, as a
// sequence<string> of name, value, name, value...
void write_context(cdr::output_stream& out, const context& ctx, std::span<const std::string_view> patterns);
// Reads that sequence. MARSHAL for an odd count of strings; a name sent twice keeps its last value.
context read_context(cdr::input_stream& in);

}  // namespace switchyard
