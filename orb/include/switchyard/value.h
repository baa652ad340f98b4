// Valuetypes (CORBA 3.x part 1, "Value Type Semantics"; the encoding: part 2, "Value Types" in
// the CDR chapter): objects passed by value, held by a reference-counted pointer. For generated
// code and applications that use valuetypes (docs/idl.md, "Valuetypes").
//
//   value_ref<Node> n = new OBV_Node(1, nullptr);   // syidl's default implementation
//   n->next(n);                                     // a cycle: it round-trips, and it leaks
//   n->next(nullptr);                               // unless broken, as in every CORBA mapping
//
// Marshaling keeps, per stream, which values and repository ids were written or read already,
// so that a value met twice in one message is sent once and then as an indirection: sharing and
// cycles survive the trip. A `value_output_scope` / `value_input_scope` spans one message
// (stubs and skeletons open one around all arguments or results); write_value and read_value
// open one for themselves when none is open on their stream. Nothing here costs anything to
// code that marshals no value.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include <boost/intrusive_ptr.hpp>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/exception.h"

namespace switchyard {

// The reference-counted pointer every value is held by (CORBA's T_var; C++11 mapping's
// IDL::traits<T>::ref_type). Counting is atomic: a value may be shared between threads.
template <class T>
using value_ref = boost::intrusive_ptr<T>;

// The base of every valuetype, concrete, abstract or boxed (CORBA::ValueBase). Generated classes
// derive from it virtually (a value may inherit several abstract valuetypes) and implement the
// hooks below; applications implement the operations.
class value_base {
 public:
  virtual ~value_base() = default;

  // The count value_ref keeps (atomic). A value whose count drops to zero is deleted; the values
  // it held that drop to zero then are deleted after it, in a loop, not by recursion, so that
  // freeing a chain of a million values (a message can build one through indirections) does not
  // overflow the stack.
  friend void intrusive_ptr_add_ref(const value_base* v) noexcept {
    v->references_.fetch_add(1, std::memory_order_relaxed);
  }
  friend void intrusive_ptr_release(const value_base* v) noexcept {
    if (v->references_.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy(v);
  }
  std::uint32_t _reference_count() const noexcept { return references_.load(std::memory_order_relaxed); }

  // CORBA::ValueBase's id: what read_value expects where the IDL says ValueBase (any value).
  static std::string_view _static_repository_id() noexcept { return "IDL:omg.org/CORBA/ValueBase:1.0"; }

  // The most derived type's repository id.
  virtual std::string_view _repository_id() const noexcept = 0;
  // The ids a receiver may read this value as: its own first, then each base it may be
  // truncated to, in order (just its own when its type is not `truncatable`). More than one
  // makes the writer use the chunked encoding and send the whole list.
  virtual std::span<const std::string_view> _truncatable_ids() const noexcept = 0;
  // The state members, bases' first, in IDL order (generated).
  virtual void _write_state(cdr::output_stream& out) const = 0;
  virtual void _read_state(cdr::input_stream& in) = 0;
  // Drops every value this one refers to (generated): the way out of a cycle for users, and
  // what the reader does to the values of a message it could not finish, so that a half-read
  // cycle is not leaked.
  virtual void _release_values() noexcept {}

 protected:
  value_base() = default;
  value_base(const value_base&) noexcept {}  // a copy starts with a count of its own
  value_base& operator=(const value_base&) noexcept { return *this; }

 private:
  static void destroy(const value_base* v) noexcept;

  mutable std::atomic<std::uint32_t> references_{0};
  mutable const value_base* next_to_destroy_ = nullptr;  // destroy()'s list
};

// Makes a value ready to be read into, for one repository id (CORBA::ValueFactory's
// create_for_unmarshal). syidl registers one for every concrete valuetype and box it generates
// (concrete: its default implementation class); register your own for a valuetype with
// operations, whose implementation syidl cannot write.
class value_factory {
 public:
  virtual ~value_factory() = default;
  virtual value_ref<value_base> create_for_unmarshal() const = 0;
};
using value_factory_ref = std::shared_ptr<const value_factory>;

// A factory making `T` with its default constructor (what syidl registers).
template <class T>
class default_value_factory final : public value_factory {
 public:
  value_ref<value_base> create_for_unmarshal() const override { return value_ref<value_base>(new T()); }
};

// The factory registry (ORB::register_value_factory and friends). It is one per process, as
// omniORB's: generated code registers its factories before main, when no ORB exists yet;
// orb::register_value_factory forwards here. Thread-safe.
// Registers `factory` for `repository_id` and returns the one it replaces (or null).
value_factory_ref register_value_factory(std::string_view repository_id, value_factory_ref factory);
// Removes the factory; BAD_PARAM when there is none.
void unregister_value_factory(std::string_view repository_id);
// The factory for `repository_id`, or null.
value_factory_ref lookup_value_factory(std::string_view repository_id);

// The greatest number of values nested in one another that write_value and read_value accept
// (a longer chain raises MARSHAL minor::value_nesting: no stack overflow on hostile input).
inline constexpr int max_value_nesting = 256;

// The most values read_value makes (or skips) in one scope, a message's: beyond it, MARSHAL
// minor::too_many_values. Each value costs its reader some 200 bytes however few octets it
// took (a tag and an empty state are 4), so a 64 MiB message of tiny values would otherwise
// cost gigabytes; this bounds it near 60 MB.
inline constexpr std::size_t max_values_per_message = std::size_t{1} << 18;

namespace value_detail {
class writer;
class reader;
}  // namespace value_detail

// Sharing and repository-id indirection span a scope: values written through `out` while it
// lives are written once, later occurrences as indirections. Scopes on the same stream nest
// (the inner one uses the outer's tables).
class value_output_scope {
 public:
  explicit value_output_scope(cdr::output_stream& out);
  ~value_output_scope();
  value_output_scope(const value_output_scope&) = delete;
  value_output_scope& operator=(const value_output_scope&) = delete;

  value_detail::writer& writer();

 private:
  cdr::output_stream* stream_;
  value_output_scope* previous_;
  value_output_scope* owner_;  // the outermost scope on this stream: it holds the tables
  std::unique_ptr<value_detail::writer> writer_;
};

// The same for reading; it also owns the values it read until the scope ends. When the scope
// ends by an exception (a malformed message), it calls _release_values() on each value it
// made, so that a half-read cyclic graph is freed.
class value_input_scope {
 public:
  explicit value_input_scope(cdr::input_stream& in);
  ~value_input_scope();
  value_input_scope(const value_input_scope&) = delete;
  value_input_scope& operator=(const value_input_scope&) = delete;

  value_detail::reader& reader();
  // How many values were read in this scope so far (with the scopes it nests in, whose tables it
  // shares), and saying that those read after the first `count` were read only to be copied (an
  // Any keeps them as CDR): when the outermost scope ends, they drop the values they refer to,
  // so that a cyclic graph a peer sent is freed, unless a value read after them was an
  // indirection to one of them (a graph shared across an Any's boundary is kept whole).
  std::size_t values_read();
  void copied_only_since(std::size_t count);
  // Ends the scope before its destructor would (it must be the innermost one open on this
  // thread): the values read become the caller's, and a later exception no longer releases
  // them. Skeletons call it before the upcall.
  void end() noexcept;

 private:
  cdr::input_stream* stream_;
  value_input_scope* previous_;
  value_input_scope* owner_;
  int uncaught_;
  bool ended_ = false;
  std::unique_ptr<value_detail::reader> reader_;
};

// Writes a value, null, or an indirection to a value written before in the scope. Raises
// MARSHAL minor::value_nesting beyond max_value_nesting.
void write_value(cdr::output_stream& out, const value_base* value);
template <class T>
void write_value(cdr::output_stream& out, const value_ref<T>& value) {
  write_value(out, static_cast<const value_base*>(value.get()));
}

// Reads a value where the IDL says `expected_id` (its static type): null, an indirection, or a
// new value made by the factory of the first id of its truncatable list that has one (of
// `expected_id` when the sender gave none, as for boxes). Raises MARSHAL: minor::bad_value for
// malformed encodings (bad tag, bad indirection, chunk beyond the message, end tag out of
// order), minor::no_value_factory when no id has a factory, minor::value_nesting.
value_ref<value_base> read_value(cdr::input_stream& in, std::string_view expected_id);
// The same, with `fallback` making the value where no factory is registered for `expected_id`
// (nor for an id before it in the value's truncatable list): how an Any reads a value whose type
// it knows only by its TypeCode (orb/dynamic).
value_ref<value_base> read_value(cdr::input_stream& in, std::string_view expected_id, const value_factory& fallback);

// The same, typed: MARSHAL minor::value_type_mismatch when the value read (or indirected to) is
// not a T.
template <class T>
void read_value(cdr::input_stream& in, value_ref<T>& target) {
  value_ref<value_base> any = read_value(in, T::_static_repository_id());
  if (!any) {
    target.reset();
    return;
  }
  T* typed = dynamic_cast<T*>(any.get());
  if (typed == nullptr) [[unlikely]]
    in.throw_marshal(minor::value_type_mismatch, "value of type " + std::string(any->_repository_id()) + " where " +
                                                     std::string(T::_static_repository_id()) + " is expected");
  target = value_ref<T>(typed);
}

class servant;

// A value that is also a servant (of a valuetype that supports an interface, through its
// generated X_skeleton) as the adapter activates it: the servant pointer keeps the value alive
// while it is active, beside every value_ref to it.
template <class T>
std::shared_ptr<servant> value_servant(value_ref<T> value) {
  servant* as_servant = value.get();
  return std::shared_ptr<servant>(as_servant, [held = std::move(value)](servant*) mutable { held.reset(); });
}

}  // namespace switchyard
