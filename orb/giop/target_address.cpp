#include "orb/giop/target_address.h"

#include <string>

#include "switchyard/exception.h"

namespace switchyard::giop {

namespace {

// The view of what `in` moved over since `start`.
cdr_view view_since(const cdr::input_stream& in, const std::byte* start, std::size_t origin_offset) {
  return cdr_view{{start, static_cast<std::size_t>(in.current() - start)}, in.order(), origin_offset};
}

void copy_tagged_profile(cdr::input_stream& in, cdr::output_stream& out) {
  out.write_ulong(in.read_ulong());
  std::uint32_t length = in.read_length(1);
  out.write_ulong(length);
  out.write_octets(in.take(length), length);
}

}  // namespace

void skip_tagged_profile(cdr::input_stream& in) {
  in.read_ulong();
  in.skip(in.read_length(1));
}

void skip_ior(cdr::input_stream& in) {
  in.read_string_view();
  // Each profile is at least 8 octets: the count is bounded by what is left.
  std::uint32_t profiles = in.read_length(8);
  for (std::uint32_t i = 0; i < profiles; ++i) skip_tagged_profile(in);
}

target_address read_target_address(cdr::input_stream& in) {
  target_address address;
  std::int16_t disposition = in.read_short();
  switch (disposition) {
    case 0: {
      std::uint32_t length = in.read_length(1);
      address.object_key = {in.take(length), length};
      break;
    }
    case 1: {
      in.align(4);
      std::size_t origin = in.aligned_position();
      const std::byte* start = in.current();
      skip_tagged_profile(in);
      address.disposition = addressing_disposition::profile_addr;
      address.profile = view_since(in, start, origin);
      break;
    }
    case 2: {
      address.disposition = addressing_disposition::reference_addr;
      address.selected_profile_index = in.read_ulong();
      std::size_t origin = in.aligned_position();
      const std::byte* start = in.current();
      skip_ior(in);
      address.ior = view_since(in, start, origin);
      break;
    }
    default:
      in.throw_marshal(minor::bad_enum,
                       "TargetAddress discriminator " + std::to_string(disposition) + " is not 0, 1 or 2");
  }
  return address;
}

void write_target_address(cdr::output_stream& out, const target_address& address) {
  out.write_short(static_cast<std::int16_t>(address.disposition));
  switch (address.disposition) {
    case addressing_disposition::key_addr:
      out.write_ulong(static_cast<std::uint32_t>(address.object_key.size()));
      out.write_octets(address.object_key.data(), address.object_key.size());
      break;
    case addressing_disposition::profile_addr: {
      cdr::input_stream in = address.profile.stream();
      copy_tagged_profile(in, out);
      break;
    }
    case addressing_disposition::reference_addr: {
      out.write_ulong(address.selected_profile_index);
      cdr::input_stream in = address.ior.stream();
      out.write_string(in.read_string_view());
      std::uint32_t profiles = in.read_length(8);
      out.write_ulong(profiles);
      for (std::uint32_t i = 0; i < profiles; ++i) copy_tagged_profile(in, out);
      break;
    }
    default:
      throw SystemException(SystemExceptionKind::BAD_PARAM, minor::bad_enum, CompletionStatus::no,
                            "TargetAddress discriminator " + std::to_string(static_cast<int>(address.disposition)));
  }
}

}  // namespace switchyard::giop
