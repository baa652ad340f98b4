// Fuzzes the valuetype reader (orb/value): the first octet picks the byte order and what is
// expected; the rest is read as values (a Node graph, a truncatable Derived of Base, a box) in one
// scope. Whatever the bytes, each read gives a value or raises MARSHAL; what was read is released
// by the scope (an exception ends it), so cycles the input wires up are not leaked.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "switchyard/exception.h"
#include "switchyard/value.h"

using namespace switchyard;

namespace {

class Node : public virtual value_base {
 public:
  static std::string_view _static_repository_id() noexcept { return "IDL:Node:1.0"; }
  std::string_view _repository_id() const noexcept override { return _static_repository_id(); }
  std::span<const std::string_view> _truncatable_ids() const noexcept override {
    static constexpr std::array<std::string_view, 1> list{"IDL:Node:1.0"};
    return list;
  }
  void _write_state(cdr::output_stream& out) const override {
    out.write_long(id);
    write_value(out, next);
  }
  void _read_state(cdr::input_stream& in) override {
    id = in.read_long();
    read_value(in, next);
  }
  void _release_values() noexcept override { next.reset(); }
  std::int32_t id = 0;
  value_ref<Node> next;
};

class Base : public virtual value_base {
 public:
  static std::string_view _static_repository_id() noexcept { return "IDL:Base:1.0"; }
  std::string_view _repository_id() const noexcept override { return _static_repository_id(); }
  std::span<const std::string_view> _truncatable_ids() const noexcept override {
    static constexpr std::array<std::string_view, 1> list{"IDL:Base:1.0"};
    return list;
  }
  void _write_state(cdr::output_stream& out) const override { out.write_long(a); }
  void _read_state(cdr::input_stream& in) override { a = in.read_long(); }
  std::int32_t a = 0;
};

class Derived : public Base {
 public:
  static std::string_view _static_repository_id() noexcept { return "IDL:Derived:1.0"; }
  std::string_view _repository_id() const noexcept override { return _static_repository_id(); }
  std::span<const std::string_view> _truncatable_ids() const noexcept override {
    static constexpr std::array<std::string_view, 2> list{"IDL:Derived:1.0", "IDL:Base:1.0"};
    return list;
  }
  void _write_state(cdr::output_stream& out) const override {
    Base::_write_state(out);
    out.write_string(s);
    write_value(out, n);
  }
  void _read_state(cdr::input_stream& in) override {
    Base::_read_state(in);
    s = in.read_string();
    read_value(in, n);
  }
  void _release_values() noexcept override { n.reset(); }
  std::string s;
  value_ref<Node> n;
};

class Text : public virtual value_base {
 public:
  static std::string_view _static_repository_id() noexcept { return "IDL:Text:1.0"; }
  std::string_view _repository_id() const noexcept override { return _static_repository_id(); }
  std::span<const std::string_view> _truncatable_ids() const noexcept override {
    static constexpr std::array<std::string_view, 1> list{"IDL:Text:1.0"};
    return list;
  }
  void _write_state(cdr::output_stream& out) const override { out.write_string(value); }
  void _read_state(cdr::input_stream& in) override { value = in.read_string(); }
  std::string value;
};

const bool registered = [] {
  register_value_factory(Node::_static_repository_id(), std::make_shared<default_value_factory<Node>>());
  register_value_factory(Base::_static_repository_id(), std::make_shared<default_value_factory<Base>>());
  register_value_factory(Derived::_static_repository_id(), std::make_shared<default_value_factory<Derived>>());
  register_value_factory(Text::_static_repository_id(), std::make_shared<default_value_factory<Text>>());
  return true;
}();

struct finished {};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || !registered) return 0;
  auto order = (data[0] & 1) ? cdr::byte_order::little_endian : cdr::byte_order::big_endian;
  const int program = data[0] >> 1;
  cdr::input_stream in({reinterpret_cast<const std::byte*>(data + 1), size - 1}, order);
  in.set_max_length(1 << 16);
  try {
    value_input_scope scope(in);
    for (int step = 0; step < 8 && !in.at_end(); ++step) {
      switch ((program + step) % 3) {
        case 0: {
          value_ref<Node> n;
          read_value(in, n);
          break;
        }
        case 1: {
          value_ref<Base> b;
          read_value(in, b);
          break;
        }
        case 2: {
          value_ref<Text> t;
          read_value(in, t);
          break;
        }
      }
    }
    throw finished{};  // ends the scope by an exception: it releases every value it made
  } catch (const finished&) {
  } catch (const SystemException& e) {
    if (e.kind() != SystemExceptionKind::MARSHAL) __builtin_trap();
  }
  return 0;
}
