// The -ORB options: parsed out of argc/argv by orb_init, which leaves every other argument in
// place. Internal header of orb/core (the public face is switchyard/orb.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "demux/demux_strategy.h"
#include "transports/reactor.h"
#include "transports/transport_options.h"

namespace switchyard::core {

struct orb_options {
  // -ORBListenEndpoints iiop://host:port (several; also several in one value, separated by ';').
  std::vector<std::string> listen_endpoints;
  // -ORBServantDemux / -ORBOperationDemux linear|dynamic|perfect|active. Ignored by a library
  // built with a fixed strategy (meson options servant_demux / operation_demux).
  demux::demux_strategy servant_demux = demux::demux_strategy::active;
  // Active by default: our clients send the operation's index; other ORBs' requests fall back to
  // the name (a perfect hash). The papers' fastest, de-layered demultiplexing.
  demux::demux_strategy operation_demux = demux::demux_strategy::active;
  // -ORBInitRef Name=URL (several), -ORBDefaultInitRef URL-prefix.
  std::vector<std::pair<std::string, std::string>> initial_references;
  std::string default_initial_reference;
  // -ORBSendBufferSize / -ORBRecvBufferSize bytes, -ORBConnectTimeout ms.
  transports::transport_options transport;
  // -ORBCallTimeout ms: a two-way call without a reply by then raises TIMEOUT (0: no limit).
  std::chrono::milliseconds call_timeout{0};
  // -ORBThreads N: 0 serves requests in the reactor's thread; N > 0 hands them to N workers.
  unsigned server_threads = 0;
  // -ORBConcurrency reactive|thread-per-connection: with thread-per-connection each accepted
  // connection gets a thread that blocks in recv, as the socket baseline does (no reactor round
  // trip per request); the reactor then only accepts. -ORBThreads takes precedence.
  bool thread_per_connection = false;
  // -ORBReactor dev_poll|select.
  transports::reactor_kind reactor = transports::default_reactor_kind();
  // -ORBGIOPVersion 1.0|1.1|1.2: the version this ORB's client requests use and its IORs offer.
  std::uint8_t giop_minor = 2;
  // -ORBMaxMessageSize bytes: larger incoming messages (reassembled) are refused.
  std::uint32_t max_message_size = 64u << 20;
  // -ORBInstrument [0|1]: switch the request-path probes on (when compiled in).
  bool instrument = false;
  // -ORBInstrumentFile PATH: where the probe table goes at shutdown (default: stderr).
  std::string instrument_file;
};

// Parses and removes the -ORB options from argv (argc shrinks; argv[argc] stays null). An unknown
// -ORB option, a missing or malformed value raises BAD_PARAM minor::bad_option naming it; argv is
// then left unchanged.
orb_options parse_orb_options(int& argc, char** argv);

// The same over a list of strings, for programs that build their options (tests, benchmarks).
orb_options parse_orb_options(std::vector<std::string>& args);

}  // namespace switchyard::core
