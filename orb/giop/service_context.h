// IOP service context lists (CORBA 3.0, 13.7): `sequence<ServiceContext>` where each entry is a
// context id and its data (an encapsulation, kept as octets). Decoding gives a view over the
// receive buffer that is walked, or searched by id, without allocating; encoding writes a list
// from an array of (id, octets). Internal: the core, the adapter (through the core) and tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"

namespace switchyard::giop {

struct service_context {
  std::uint32_t id = 0;
  std::span<const std::byte> data;  // the context_data octets (an encapsulation, byte-order octet first)
};

// A view of a decoded list: the octets after its count, already checked once by
// read_service_context_list, so walking it again cannot fail.
class service_context_list {
 public:
  service_context_list() noexcept = default;
  service_context_list(std::span<const std::byte> entries, std::uint32_t count, cdr::byte_order order,
                       std::size_t origin_offset) noexcept
      : entries_(entries), count_(count), order_(order), origin_offset_(origin_offset) {}

  std::uint32_t size() const noexcept { return count_; }
  bool empty() const noexcept { return count_ == 0; }
  std::span<const std::byte> encoded_entries() const noexcept { return entries_; }

  class iterator {
   public:
    using value_type = service_context;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;
    using pointer = const service_context*;
    using reference = const service_context&;

    iterator() noexcept = default;
    reference operator*() const noexcept { return current_; }
    pointer operator->() const noexcept { return &current_; }
    iterator& operator++() {
      --left_;
      if (left_ != 0) load();
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.left_ == b.left_; }

   private:
    friend class service_context_list;
    iterator(cdr::input_stream in, std::uint32_t left) : in_(in), left_(left) {
      if (left_ != 0) load();
    }
    void load() {
      current_.id = in_.read_ulong();
      std::uint32_t length = in_.read_ulong();
      current_.data = {in_.take(length), length};
    }
    cdr::input_stream in_;
    std::uint32_t left_ = 0;
    service_context current_;
  };

  iterator begin() const { return iterator(cdr::input_stream(entries_, order_, origin_offset_), count_); }
  iterator end() const noexcept { return iterator(); }

  // The data of the first context with `id`, if there is one (linear: lists hold a handful).
  std::optional<std::span<const std::byte>> find(std::uint32_t id) const {
    for (const service_context& context : *this)
      if (context.id == id) return context.data;
    return std::nullopt;
  }

 private:
  std::span<const std::byte> entries_;
  std::uint32_t count_ = 0;
  cdr::byte_order order_ = cdr::byte_order::big_endian;
  std::size_t origin_offset_ = 0;
};

// Reads a list in place, checking every length; raises MARSHAL when it does not fit.
service_context_list read_service_context_list(cdr::input_stream& in);

// Writes a list: count, then each id and its octets.
void write_service_context_list(cdr::output_stream& out, std::span<const service_context> contexts);

}  // namespace switchyard::giop
