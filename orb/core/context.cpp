// IDL contexts: properties, patterns, and the request body's sequence<string>.
#include "switchyard/context.h"

#include <algorithm>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/exception.h"

namespace switchyard {

bool context::matches(std::string_view pattern, std::string_view name) noexcept {
  if (!pattern.empty() && pattern.back() == '*') return name.starts_with(pattern.substr(0, pattern.size() - 1));
  return pattern == name;
}

void context::set_one_value(std::string_view name, std::string_view value) {
  if (name.empty() || name.find('*') != std::string_view::npos)
    throw SystemException(SystemExceptionKind::BAD_PARAM, 0, CompletionStatus::no,
                          "context property name '" + std::string(name) + "' is empty or holds '*'");
  properties_.insert_or_assign(std::string(name), std::string(value));
}

std::vector<std::pair<std::string, std::string>> context::get_values(std::string_view pattern, scope where) const {
  std::vector<std::pair<std::string, std::string>> out;
  if (where == scope::this_context || parent_ == nullptr) {
    for (const auto& [name, value] : properties_)
      if (matches(pattern, name)) out.emplace_back(name, value);
    return out;
  }
  for (auto& [name, value] : all_properties())
    if (matches(pattern, name)) out.emplace_back(name, std::move(value));
  return out;
}

std::vector<std::pair<std::string, std::string>> context::get_values(std::string_view start_scope,
                                                                     std::string_view pattern, scope where) const {
  for (const context* c = this; c != nullptr; c = c->parent_.get())
    if (c->name_ == start_scope) return c->get_values(pattern, where);
  throw SystemException(SystemExceptionKind::BAD_CONTEXT, 0, CompletionStatus::no,
                        "no context named '" + std::string(start_scope) + "' in the chain");
}

void context::delete_values(std::string_view pattern) {
  if (std::erase_if(properties_, [&](const auto& p) { return matches(pattern, p.first); }) == 0)
    throw SystemException(SystemExceptionKind::BAD_CONTEXT, 0, CompletionStatus::no,
                          "no context property matches '" + std::string(pattern) + "'");
}

const std::string* context::value(std::string_view name) const {
  for (const context* c = this; c != nullptr; c = c->parent_.get())
    if (auto it = c->properties_.find(name); it != c->properties_.end()) return &it->second;
  return nullptr;
}

context::property_map context::all_properties() const {
  if (parent_ == nullptr) return properties_;
  property_map out = parent_->all_properties();
  for (const auto& [name, value] : properties_) out.insert_or_assign(name, value);
  return out;
}

context context::matching(std::span<const std::string_view> patterns) const {
  context out;
  auto matched = [&](const std::string& name) {
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](std::string_view pattern) { return matches(pattern, name); });
  };
  if (parent_ == nullptr) {
    for (const auto& p : properties_)
      if (matched(p.first)) out.properties_.insert(p);
    return out;
  }
  for (auto& p : all_properties())
    if (matched(p.first)) out.properties_.insert(std::move(p));
  return out;
}

bool operator==(const context& a, const context& b) {
  if (a.name_ != b.name_ || a.properties_ != b.properties_) return false;
  if (a.parent_ == nullptr || b.parent_ == nullptr) return a.parent_ == b.parent_;
  return *a.parent_ == *b.parent_;
}

void write_context(cdr::output_stream& out, const context& ctx, std::span<const std::string_view> patterns) {
  // Two passes over the properties (count, then write): no copy of the matched ones, unless the
  // context has a parent, whose properties it may hide.
  auto matched = [&](const std::string& name) {
    return std::any_of(patterns.begin(), patterns.end(), [&](std::string_view p) { return context::matches(p, name); });
  };
  context::property_map chain;
  if (ctx.parent() != nullptr) chain = ctx.all_properties();
  const context::property_map& properties = ctx.parent() != nullptr ? chain : ctx.properties();
  std::uint32_t strings = 0;
  for (const auto& property : properties) strings += matched(property.first) ? 2 : 0;
  out.write_ulong(strings);
  for (const auto& [name, value] : properties) {
    if (!matched(name)) continue;
    out.write_string(name);
    out.write_string(value);
  }
}

context read_context(cdr::input_stream& in) {
  const std::uint32_t count = in.read_length(5);  // each string at least its length and NUL
  if (count % 2 != 0)
    in.throw_marshal(minor::bad_message,
                     "a context of " + std::to_string(count) + " strings: names and values must pair");
  context ctx;
  for (std::uint32_t k = 0; k < count; k += 2) {
    const std::string name = in.read_string();
    const std::string_view value = in.read_string_view();
    if (name.empty() || name.find('*') != std::string::npos)
      in.throw_marshal(minor::bad_message, "context property name '" + name + "' is empty or holds '*'");
    ctx.set_one_value(name, value);
  }
  return ctx;
}

}  // namespace switchyard
