#include "orb/core/orb_options.h"

#include <strings.h>
#include <algorithm>
#include <charconv>

#include "switchyard/exception.h"

namespace switchyard::core {

namespace {

[[noreturn]] void bad_option(std::string_view option, const std::string& why) {
  throw SystemException(SystemExceptionKind::BAD_PARAM, minor::bad_option, CompletionStatus::no,
                        std::string(option) + ": " + why);
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && ::strncasecmp(a.data(), b.data(), a.size()) == 0;
}

template <typename Number>
Number parse_number(std::string_view option, std::string_view text, Number low, Number high) {
  Number value{};
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value < low || value > high)
    bad_option(option, "expected a whole number from " + std::to_string(low) + " to " + std::to_string(high) +
                           ", got '" + std::string(text) + "'");
  return value;
}

void split_endpoints(std::string_view value, std::vector<std::string>& out) {
  while (!value.empty()) {
    auto semicolon = value.find(';');
    auto one = value.substr(0, semicolon);
    if (!one.empty()) out.emplace_back(one);
    if (semicolon == std::string_view::npos) break;
    value.remove_prefix(semicolon + 1);
  }
}

bool parse_flag(std::string_view option, std::string_view text) {
  if (text == "1") return true;
  if (text == "0") return false;
  bad_option(option, "expected 0 or 1, got '" + std::string(text) + "'");
}

void apply_tls(orb_options& options, std::string_view name, std::string_view value) {
  auto is = [&](std::string_view option) { return equals_ignoring_case(name, option); };
  transports::tls_settings& tls = options.tls;
  if (is("-ORBTLSCertificate")) {
    tls.certificate_file = value;
  } else if (is("-ORBTLSPrivateKey")) {
    tls.private_key_file = value;
  } else if (is("-ORBTLSCAFile")) {
    tls.ca_file = value;
  } else if (is("-ORBTLSCAPath")) {
    tls.ca_path = value;
  } else if (is("-ORBTLSClientCertificates")) {
    if (value == "none") tls.clients = transports::client_certificates::none;
    else if (value == "request") tls.clients = transports::client_certificates::request;
    else if (value == "require") tls.clients = transports::client_certificates::require;
    else bad_option(name, "expected none, request or require, got '" + std::string(value) + "'");
  } else if (is("-ORBTLSMinProtocol")) {
    if (value != "1.2" && value != "1.3") bad_option(name, "expected 1.2 or 1.3, got '" + std::string(value) + "'");
    tls.min_protocol = value;
  } else if (is("-ORBTLSCiphers")) {
    tls.ciphers = value;
  } else if (is("-ORBTLSCipherSuites")) {
    tls.cipher_suites = value;
  } else if (is("-ORBTLSVerifyServer")) {
    tls.verify_server = parse_flag(name, value);
  } else if (is("-ORBTLSHandshakeTimeout")) {
    tls.handshake_timeout = std::chrono::milliseconds(parse_number<int>(name, value, 1, 86'400'000));
    options.limits.handshake_timeout = tls.handshake_timeout;
  } else {
    bad_option(name, "unknown -ORB option");
  }
  options.tls_given = true;
}

// Applies one option; returns how many arguments it used (1 or 2).
std::size_t apply(orb_options& options, std::string_view name, const std::string* next) {
  auto value = [&]() -> std::string_view {
    if (next == nullptr || next->starts_with("-ORB")) bad_option(name, "needs a value");
    return *next;
  };
  auto is = [&](std::string_view option) { return equals_ignoring_case(name, option); };

  if (is("-ORBListenEndpoints") || is("-ORBEndpoint")) {
    split_endpoints(value(), options.listen_endpoints);
  } else if (is("-ORBServantDemux")) {
    auto strategy = demux::try_parse_demux_strategy(value());
    if (!strategy)
      bad_option(name,
                 "expected " + std::string(demux::demux_strategy_names()) + ", got '" + std::string(value()) + "'");
    options.servant_demux = *strategy;
  } else if (is("-ORBOperationDemux")) {
    auto strategy = demux::try_parse_demux_strategy(value());
    if (!strategy)
      bad_option(name,
                 "expected " + std::string(demux::demux_strategy_names()) + ", got '" + std::string(value()) + "'");
    options.operation_demux = *strategy;
  } else if (is("-ORBInitRef")) {
    auto text = value();
    auto equals = text.find('=');
    if (equals == 0 || equals == std::string_view::npos || equals + 1 == text.size())
      bad_option(name, "expected Name=URL, got '" + std::string(text) + "'");
    options.initial_references.emplace_back(text.substr(0, equals), text.substr(equals + 1));
  } else if (is("-ORBDefaultInitRef")) {
    options.default_initial_reference = value();
  } else if (is("-ORBSendBufferSize")) {
    options.transport.send_buffer_size = parse_number<int>(name, value(), 0, 1 << 30);
  } else if (is("-ORBRecvBufferSize")) {
    options.transport.recv_buffer_size = parse_number<int>(name, value(), 0, 1 << 30);
  } else if (is("-ORBConnectTimeout")) {
    options.transport.connect_timeout = std::chrono::milliseconds(parse_number<int>(name, value(), 0, 86'400'000));
  } else if (name.size() > 7 && equals_ignoring_case(name.substr(0, 7), "-ORBTLS")) {
    apply_tls(options, name, value());
  } else if (is("-ORBCallTimeout")) {
    options.call_timeout = std::chrono::milliseconds(parse_number<int>(name, value(), 0, 86'400'000));
  } else if (is("-ORBThreads")) {
    options.server_threads = parse_number<unsigned>(name, value(), 0, 1024);
  } else if (is("-ORBConcurrency")) {
    if (value() == "adaptive") {
      options.concurrency = concurrency_model::adaptive;
    } else if (value() == "reactive") {
      options.concurrency = concurrency_model::reactive;
    } else if (value() == "thread-per-connection") {
      options.concurrency = concurrency_model::thread_per_connection;
    } else {
      bad_option(name, "expected adaptive, reactive or thread-per-connection, got '" + std::string(value()) + "'");
    }
  } else if (is("-ORBSyncScope")) {
    if (value() == "none") {
      options.oneway_sync_scope = sync_scope::none;
    } else if (value() == "transport") {
      options.oneway_sync_scope = sync_scope::with_transport;
    } else if (value() == "server") {
      options.oneway_sync_scope = sync_scope::with_server;
    } else if (value() == "target") {
      options.oneway_sync_scope = sync_scope::with_target;
    } else {
      bad_option(name, "expected none, transport, server or target, got '" + std::string(value()) + "'");
    }
  } else if (is("-ORBCollocation")) {
    if (value() == "thru-adapter") {
      options.collocation = collocation_mode::thru_adapter;
    } else if (value() == "direct") {
      options.collocation = collocation_mode::direct;
    } else if (value() == "none") {
      options.collocation = collocation_mode::none;
    } else {
      bad_option(name, "expected thru-adapter, direct or none, got '" + std::string(value()) + "'");
    }
  } else if (is("-ORBDedicatedThreads")) {
    options.dedicated_threads = parse_number<unsigned>(name, value(), 0, 100'000);
  } else if (is("-ORBHandoverAfter")) {
    options.handover_after = std::chrono::milliseconds(parse_number<int>(name, value(), 0, 86'400'000));
  } else if (is("-ORBShutdownTimeout")) {
    options.shutdown_timeout = std::chrono::milliseconds(parse_number<int>(name, value(), 1, 86'400'000));
  } else if (is("-ORBEventLoops")) {
    options.event_loops = parse_number<unsigned>(name, value(), 0, 256);
  } else if (is("-ORBMaxConnections")) {
    options.limits.max_connections = parse_number<std::size_t>(name, value(), 1, 1'000'000);
  } else if (is("-ORBMaxBufferedBytes")) {
    options.limits.max_buffered_bytes = parse_number<std::size_t>(name, value(), 65'536, std::size_t{1} << 46);
  } else if (is("-ORBMaxQueuedRequests")) {
    options.limits.max_queued_requests = parse_number<std::size_t>(name, value(), 1, 1'000'000);
  } else if (is("-ORBSendTimeout")) {
    options.limits.send_timeout = std::chrono::milliseconds(parse_number<int>(name, value(), 1, 86'400'000));
  } else if (is("-ORBIdleTimeout")) {
    options.limits.idle_timeout = std::chrono::milliseconds(parse_number<int>(name, value(), 0, 86'400'000));
  } else if (is("-ORBMessageTimeout")) {
    options.limits.message_timeout = std::chrono::milliseconds(parse_number<int>(name, value(), 0, 86'400'000));
  } else if (is("-ORBGIOPVersion")) {
    auto text = value();
    if (text == "1.0") options.giop_minor = 0;
    else if (text == "1.1") options.giop_minor = 1;
    else if (text == "1.2") options.giop_minor = 2;
    else bad_option(name, "expected 1.0, 1.1 or 1.2, got '" + std::string(text) + "'");
  } else if (is("-ORBMaxMessageSize")) {
    options.max_message_size = parse_number<std::uint32_t>(name, value(), 1024, 0xffffffffu);
  } else if (is("-ORBInstrument")) {
    // The value is optional: "-ORBInstrument" alone switches the probes on.
    if (next != nullptr && (*next == "0" || *next == "1")) {
      options.instrument = *next == "1";
      return 2;
    }
    options.instrument = true;
    return 1;
  } else if (is("-ORBInstrumentFile")) {
    options.instrument_file = value();
  } else if (is("-ORBTrace")) {
    options.trace_level = parse_number<int>(name, value(), 0, 3);
  } else if (is("-ORBTraceFile")) {
    options.trace_file = value();
  } else {
    bad_option(name, "unknown -ORB option");
  }
  return 2;
}

// Parses args[first..] and returns the indices of the arguments that are not -ORB options.
std::vector<std::size_t> parse_into(orb_options& options, const std::vector<std::string>& args, std::size_t first) {
  std::vector<std::size_t> kept;
  for (std::size_t i = first; i < args.size();) {
    if (!args[i].starts_with("-ORB")) {
      kept.push_back(i++);
      continue;
    }
    const std::string* next = i + 1 < args.size() ? &args[i + 1] : nullptr;
    i += apply(options, args[i], next);
  }
  return kept;
}

}  // namespace

orb_options parse_orb_options(std::vector<std::string>& args) {
  orb_options options;
  std::vector<std::string> rest;
  for (std::size_t i : parse_into(options, args, 0)) rest.push_back(std::move(args[i]));
  args = std::move(rest);
  return options;
}

orb_options parse_orb_options(int& argc, char** argv) {
  orb_options options;
  if (argc <= 0 || argv == nullptr) return options;
  std::vector<std::string> args(argv, argv + argc);
  // argv[0] is the program name, never an option. Parsing throws before argv is touched.
  auto kept = parse_into(options, args, 1);
  int out = 1;
  for (std::size_t i : kept) argv[out++] = argv[i];
  argc = out;
  argv[argc] = nullptr;
  return options;
}

}  // namespace switchyard::core
