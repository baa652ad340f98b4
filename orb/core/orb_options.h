// The -ORB options: parsed out of argc/argv by orb_init, which leaves every other argument in
// place. Internal header of orb/core (the public face is switchyard/orb.h).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "demux/demux_strategy.h"
#include "switchyard/object.h"
#include "transports/ssliop/tls_context.h"
#include "transports/transport_options.h"

namespace switchyard::core {

// How the server's connections are served (-ORBConcurrency).
enum class concurrency_model : std::uint8_t {
  adaptive,               // a thread per connection for the first N, event loops for the rest
  reactive,               // one event loop, run by the thread in ORB::run(), serves everything
  thread_per_connection,  // every connection its own thread, blocking in recv
};

// What one server may spend on its peers; every model enforces them (docs/orb.md, "Limits").
struct server_limits {
  // -ORBMaxConnections: beyond it, accepting pauses until a connection closes.
  std::size_t max_connections = 4096;
  // -ORBMaxBufferedBytes: all receive buffers, reassembly and queued requests together.
  std::size_t max_buffered_bytes = std::size_t{256} << 20;
  // -ORBMaxQueuedRequests (thread pool): beyond it, the event loops stop reading.
  std::size_t max_queued_requests = 1024;
  // -ORBSendTimeout ms: a peer that takes nothing of a reply for this long is disconnected.
  std::chrono::milliseconds send_timeout{30'000};
  // -ORBIdleTimeout ms: a connection with nothing in progress for this long is closed with
  // CloseConnection (0: never).
  std::chrono::milliseconds idle_timeout{180'000};
  // -ORBMessageTimeout ms: a message begun must be complete within this long, else the
  // connection is closed (0: never).
  std::chrono::milliseconds message_timeout{30'000};
  // -ORBTLSHandshakeTimeout ms: a TLS peer must finish its handshake within this long of being
  // accepted, else the connection is closed.
  std::chrono::milliseconds handshake_timeout{10'000};
};

// How a call to an object of this same ORB is made (-ORBCollocation; docs/orb.md, "Collocated
// calls").
enum class collocation_mode : std::uint8_t {
  thru_adapter,  // in the caller's thread, through the server's dispatch (adapter, skeleton), no socket
  direct,        // generated stubs call the servant's method; everything else as thru_adapter
  none,          // through the transport, as to any other server
};

struct orb_options {
  // -ORBListenEndpoints iiop://host:port (several; also several in one value, separated by ';').
  std::vector<std::string> listen_endpoints;
  // -ORBServantDemux / -ORBOperationDemux linear|binary|dynamic|perfect|perfect-fast|active.
  // Ignored by a library built with a fixed strategy (meson options servant_demux /
  // operation_demux: switchyard::compiled_servant_demux).
  demux::demux_strategy servant_demux = demux::demux_strategy::active;
  // Active by default: our clients send the operation's index; other ORBs' requests fall back to
  // the name (a perfect hash). The papers' fastest, de-layered demultiplexing.
  demux::demux_strategy operation_demux = demux::demux_strategy::active;
  // -ORBInitRef Name=URL (several), -ORBDefaultInitRef URL-prefix.
  std::vector<std::pair<std::string, std::string>> initial_references;
  std::string default_initial_reference;
  // -ORBSendBufferSize / -ORBRecvBufferSize bytes, -ORBConnectTimeout ms.
  transports::transport_options transport;
  // -ORBTLSCertificate, -ORBTLSPrivateKey, -ORBTLSCAFile, -ORBTLSCAPath, -ORBTLSClientCertificates
  // none|request|require, -ORBTLSMinProtocol 1.2|1.3, -ORBTLSCiphers, -ORBTLSCipherSuites,
  // -ORBTLSVerifyServer 0|1, -ORBTLSHandshakeTimeout ms (docs/orb.md, "TLS"). `tls_given`: any of
  // them was, so this ORB calls TLS profiles over TLS (and only over TLS).
  transports::tls_settings tls;
  bool tls_given = false;
  // -ORBCallTimeout ms: a call (connect, send, reply) not done by then raises TIMEOUT (0: no limit);
  // the default a reference's or a thread's round-trip timeout overrides.
  std::chrono::milliseconds call_timeout{0};
  // -ORBSyncScope none|transport|server|target: when a one-way call returns, unless its reference
  // says (object_ref::with_sync_scope; docs/orb.md, "One-way calls").
  sync_scope oneway_sync_scope = sync_scope::with_transport;
  // -ORBConcurrency: who serves the server's connections (docs/orb.md, "Which concurrency model").
  concurrency_model concurrency = concurrency_model::adaptive;
  // -ORBThreads N: with N > 0, a pool of N workers serves requests that the event loops read
  // (the thread-pool model, whatever -ORBConcurrency says).
  unsigned server_threads = 0;
  // -ORBDedicatedThreads N (adaptive): the first N connections get a thread each; past 2N open
  // connections those move to the event loops (server::crowded).
  unsigned dedicated_threads = 8;
  // -ORBHandoverAfter ms (adaptive): an event loop whose thread has run one servant this long
  // (seen in it at two looks this far apart: between once and five times as long) is handed to
  // a spare thread; 0: never (server_loop, "Leadership"; loop_handover).
  std::chrono::milliseconds handover_after{1};
  // -ORBShutdownTimeout ms: how long shutdown and destroy wait for servants still running;
  // those left running are named on stderr (server::stop).
  std::chrono::milliseconds shutdown_timeout{5000};
  // -ORBEventLoops N: event loops (threads) for the connections no thread is dedicated to;
  // 0: one per CPU. The reactive model has exactly one.
  unsigned event_loops = 0;
  server_limits limits;
  // -ORBGIOPVersion 1.0|1.1|1.2: the version this ORB's client requests use and its IORs offer.
  std::uint8_t giop_minor = 2;
  // -ORBMaxMessageSize bytes: larger incoming messages (reassembled) are refused, by the
  // server and by the client.
  std::uint32_t max_message_size = 64u << 20;
  // -ORBCollocation thru-adapter|direct|none.
  collocation_mode collocation = collocation_mode::thru_adapter;
  // -ORBInstrument [0|1]: switch the request-path probes on (when compiled in).
  bool instrument = false;
  // -ORBInstrumentFile PATH: where the probe table goes at shutdown (default: stderr).
  std::string instrument_file;
  // -ORBTrace 0..3, -ORBTraceFile PATH: what crosses the connections (orb/core/message_trace.h).
  int trace_level = 0;
  std::string trace_file;
};

// Parses and removes the -ORB options from argv (argc shrinks; argv[argc] stays null). An unknown
// -ORB option, a missing or malformed value raises BAD_PARAM minor::bad_option naming it; argv is
// then left unchanged.
orb_options parse_orb_options(int& argc, char** argv);

// The same over a list of strings, for programs that build their options (tests, benchmarks).
orb_options parse_orb_options(std::vector<std::string>& args);

}  // namespace switchyard::core
