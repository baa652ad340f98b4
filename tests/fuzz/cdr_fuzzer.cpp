// Fuzzes the CDR input stream: the first octet picks the byte order, GIOP minor and a program of
// reads; whatever the bytes, a read either succeeds inside the buffer or raises MARSHAL.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/exception.h"

using namespace switchyard;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  auto order = (data[0] & 1) ? cdr::byte_order::little_endian : cdr::byte_order::big_endian;
  std::uint8_t giop_minor = (data[0] >> 1) & 3;
  std::uint8_t program = data[1];
  cdr::input_stream in({reinterpret_cast<const std::byte*>(data + 2), size - 2}, order, data[0] >> 3, giop_minor);
  in.set_max_length(1 << 16);
  try {
    for (int step = 0; step < 64 && !in.at_end(); ++step) {
      switch ((program + step * 7) % 12) {
        case 0:
          in.read_octet();
          break;
        case 1:
          in.read_boolean();
          break;
        case 2:
          in.read_short();
          break;
        case 3:
          in.read_long();
          break;
        case 4:
          in.read_longlong();
          break;
        case 5:
          in.read_double();
          break;
        case 6:
          in.read_longdouble();
          break;
        case 7:
          in.read_string();
          break;
        case 8:
          in.read_wstring();
          break;
        case 9:
          in.read_wchar();
          break;
        case 10: {
          std::vector<std::int32_t> longs;
          in.read_sequence(longs);
          break;
        }
        case 11: {
          auto inner = in.read_encapsulation();
          inner.read_string();
          inner.read_ulong();
          break;
        }
      }
    }
  } catch (const SystemException& e) {
    if (e.kind() != SystemExceptionKind::MARSHAL) __builtin_trap();
  }
  return 0;
}
