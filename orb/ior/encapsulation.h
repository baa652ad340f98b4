// Helpers shared by the decoders of orb/ior: open an encapsulation held in an octet string, and
// turn a CDR error into MARSHAL minor::bad_ior that says where in the IOR it happened.
// Internal to orb/ior (its .cpp files and tests only).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "orb/ior/iop_types.h"
#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/exception.h"

namespace switchyard::iop::detail {

// MARSHAL minor::bad_ior with `detail`.
[[noreturn]] void throw_bad_ior(std::string detail);
// BAD_PARAM minor::bad_ior: a value we were asked to encode cannot be encoded.
[[noreturn]] void throw_bad_ior_value(std::string detail);

// A stream over the encapsulation in `bytes` (a profile body, component data): its first octet is
// the byte order, and alignment counts from it. `what` names it in errors ("IIOP profile body").
cdr::input_stream open_encapsulation(std::span<const std::byte> bytes, std::string_view what);

// A stream ready for the contents of an encapsulation (its byte-order octet written), and the
// octets it holds when done.
cdr::output_stream begin_encapsulation_body();
octets finish_encapsulation_body(const cdr::output_stream& out);

// Fields shared by the IIOP and UIOP profile bodies. The version's major must be 1.
giop_version read_profile_version(cdr::input_stream& in, std::string_view what);
octets read_octet_sequence(cdr::input_stream& in);
void write_octet_sequence(cdr::output_stream& out, const octets& data);
// Raises BAD_PARAM when a 1.0 profile is asked to carry components.
void check_components_allowed(giop_version version, const component_list& components, std::string_view what);

// Runs `decode`, prefixing `context` to the detail of any MARSHAL it raises, which becomes
// minor::bad_ior: "IIOP profile body: read of 2 octets at offset 9 with 1 left".
template <typename Decode>
auto with_context(std::string_view context, Decode&& decode) -> decltype(decode()) {
  try {
    return std::forward<Decode>(decode)();
  } catch (const SystemException& e) {
    if (e.kind() != SystemExceptionKind::MARSHAL) throw;
    throw_bad_ior(std::string(context) + ": " + e.detail());
  }
}

}  // namespace switchyard::iop::detail
