// Fuzzes TypeCode and Any demarshaling: the first octet picks the byte order and GIOP minor, the
// rest is read as an Any (a TypeCode, then a value walked through it). Whatever the bytes, the
// read either succeeds inside the buffer or raises MARSHAL; what was read is written and read
// again, and must come back equal. No value factory is linked: values inside are read from the
// TypeCode alone (orb/dynamic/dynamic_value.h); the value_* seeds hold a cycle, a truncatable
// value with a nested one, a chunked value with runs and strings, and a box (values.idl); the
// abstract_* seeds an abstract interface holding a reference, and nil.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "switchyard/any.h"
#include "switchyard/exception.h"

using namespace switchyard;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  auto order = (data[0] & 1) ? cdr::byte_order::little_endian : cdr::byte_order::big_endian;
  const std::uint8_t giop_minor = (data[0] >> 1) & 3;
  cdr::input_stream in({reinterpret_cast<const std::byte*>(data + 1), size - 1}, order, 0, giop_minor);
  in.set_max_length(1 << 16);
  any value;
  try {
    read_any(in, value);
  } catch (const SystemException& e) {
    if (e.kind() != SystemExceptionKind::MARSHAL) std::abort();
    return 0;
  }
  cdr::output_stream out(0, giop_minor);
  write_any(out, value);
  cdr::input_stream again(out.bytes(), cdr::native_byte_order, 0, giop_minor);
  any back;
  read_any(again, back);
  if (!(back == value) || !again.at_end()) std::abort();
  return 0;
}
