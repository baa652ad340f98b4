// The marshaling of one echo round trip without a network: the four steps a two-way echo takes
// (client marshals the argument, server demarshals it, the servant returns a copy, server
// marshals the result, client demarshals it), each into or out of a message body that starts
// 8-aligned as a GIOP 1.2 body does. For the evaluation report's Any series (echo_any of Records)
// against the same data through generated code (echo_records), and the same for BinStructs.
// Made to be counted by callgrind (count_any_echo.sh: instructions per round trip); it also
// prints wall-clock nanoseconds per round trip, which mean nothing on a loaded machine.
//
//   any_echo --payload records|binstructs --method any|generated --units N --calls N
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>

#include "marshal_bench.h"
#include "switchyard/any.h"

namespace {

struct options {
  std::string payload = "records";
  std::string method = "any";
  std::size_t units = 1000;
  std::size_t calls = 1000;
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "any_echo: " << why
            << "\nusage: any_echo --payload records|binstructs --method any|generated --units N --calls N\n";
  std::exit(2);
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) usage(arg + " needs a value");
    const std::string value = argv[++i];
    if (arg == "--payload") o.payload = value;
    else if (arg == "--method") o.method = value;
    else if (arg == "--units") o.units = std::strtoul(value.c_str(), nullptr, 10);
    else if (arg == "--calls") o.calls = std::strtoul(value.c_str(), nullptr, 10);
    else usage("unknown option " + arg);
  }
  if (o.payload != "records" && o.payload != "binstructs") usage("--payload records|binstructs");
  if (o.method != "any" && o.method != "generated") usage("--method any|generated");
  if (o.units == 0 || o.calls == 0) usage("--units and --calls want a positive number");
  return o;
}

using switchyard::cdr::input_stream;
using switchyard::cdr::native_byte_order;
using switchyard::cdr::output_stream;

// One round trip of `argument` through an Any: insertion happens once, outside (as the benchmark
// client builds its Any once); the servant returns the Any it received.
switchyard::any echo_any(const switchyard::any& argument, output_stream& request, output_stream& reply) {
  request.reset();
  switchyard::write_any(request, argument);
  input_stream server_in(request.bytes(), native_byte_order);
  switchyard::any received;
  switchyard::read_any(server_in, received);
  const switchyard::any result = received;  // the servant's `return v;`
  reply.reset();
  switchyard::write_any(reply, result);
  input_stream client_in(reply.bytes(), native_byte_order);
  switchyard::any back;
  switchyard::read_any(client_in, back);
  return back;
}

// The same through generated code: the holder's single member is the argument at the start of
// the body, so its cdr_write / cdr_read is what the stub and skeleton run.
template <class Holder>
Holder echo_generated(const Holder& argument, output_stream& request, output_stream& reply) {
  request.reset();
  cdr_write(request, argument);
  input_stream server_in(request.bytes(), native_byte_order);
  Holder received;
  cdr_read(server_in, received);
  const Holder result = received;  // the servant's `return v;`
  reply.reset();
  cdr_write(reply, result);
  input_stream client_in(reply.bytes(), native_byte_order);
  Holder back;
  cdr_read(client_in, back);
  return back;
}

template <class Call>
void run(const options& o, Call&& call) {
  call();  // warm: buffers grown, TypeCodes and plans built
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t k = 0; k < o.calls; ++k) call();
  const auto ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s %s units=%zu calls=%zu ns_per_call=%.0f\n", o.payload.c_str(), o.method.c_str(), o.units, o.calls,
              ns / static_cast<double>(o.calls));
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  output_stream request(1 << 16);
  output_stream reply(1 << 16);
  if (o.payload == "records") {
    MarshalBench::Records holder;
    for (std::size_t i = 0; i < o.units; ++i) {
      const auto n = static_cast<std::int32_t>(i);
      holder.v.push_back({n, 1.25 * n, static_cast<std::int16_t>(n), static_cast<std::uint8_t>(n),
                          0.5f * static_cast<float>(n), static_cast<char>('a' + n % 26), n % 2 == 0});
    }
    if (o.method == "any") {
      switchyard::any argument;
      Integrity::insert_Records(argument, holder.v);
      Integrity::Records check;
      if (!Integrity::extract_Records(echo_any(argument, request, reply), check) || check != holder.v)
        throw std::runtime_error("the echoed Any differs");
      run(o, [&] { (void)echo_any(argument, request, reply); });
    } else {
      if (echo_generated(holder, request, reply).v != holder.v) throw std::runtime_error("the echo differs");
      run(o, [&] { (void)echo_generated(holder, request, reply); });
    }
  } else {
    MarshalBench::BinStructs holder;
    for (std::size_t i = 0; i < o.units; ++i) {
      const auto n = static_cast<std::int32_t>(i);
      holder.v.push_back({static_cast<std::int16_t>(n), static_cast<char>('a' + n % 26), n * 3,
                          static_cast<std::uint8_t>(n), 0.5 * n});
    }
    if (o.method == "any") {
      switchyard::any argument;
      ttcp_sequence::insert_StructSeq(argument, holder.v);
      ttcp_sequence::StructSeq check;
      if (!ttcp_sequence::extract_StructSeq(echo_any(argument, request, reply), check) || check != holder.v)
        throw std::runtime_error("the echoed Any differs");
      run(o, [&] { (void)echo_any(argument, request, reply); });
    } else {
      if (echo_generated(holder, request, reply).v != holder.v) throw std::runtime_error("the echo differs");
      run(o, [&] { (void)echo_generated(holder, request, reply); });
    }
  }
  return 0;
}
