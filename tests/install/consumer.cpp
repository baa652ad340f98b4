// A program outside the project, built against the installed library through pkg-config: it
// proves the public headers stand alone and the library links, shared and static.
#include <switchyard/cdr/input_stream.h>
#include <switchyard/cdr/output_stream.h>
#include <switchyard/config.h>
#include <switchyard/exception.h>
#include <switchyard/version.h>

#include <cstdio>
#include <string_view>

int main() {
  switchyard::cdr::output_stream out;
  out.write_string("installed");
  out.write_ulong(42);
  switchyard::cdr::input_stream in(out.bytes(), switchyard::cdr::native_byte_order);
  bool ok = in.read_string() == "installed" && in.read_ulong() == 42;
  try {
    in.read_ulong();
    ok = false;
  } catch (const switchyard::SystemException& e) {
    ok = ok && e.kind() == switchyard::SystemExceptionKind::MARSHAL;
  }
  ok = ok && switchyard::library_version() == std::string_view(SWITCHYARD_VERSION);
  std::printf("consumer: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
