// Connections over loopback: echo on IPv4, IPv6 and UNIX sockets, gather-send, large transfers
// with short reads and writes, closes, errors, the uiop socket file's life, socket options.
#include "transports/connection.h"

#include <catch2/catch.hpp>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <fstream>
#include <thread>
#include <vector>

#include "test_support.h"
#include "transports/iiop/iiop_acceptor.h"
#include "transports/iiop/iiop_connector.h"
#include "transports/uiop/uiop_acceptor.h"

using namespace switchyard;
using namespace switchyard::transports;
using namespace switchyard::transports::testing;

namespace {

void check_echo(loopback_pair& pair) {
  const std::string hello = "hello, transport";
  pair.client->send(hello.data(), hello.size());
  std::string received(hello.size(), '\0');
  pair.server->recv_exact(received.data(), received.size());
  CHECK(received == hello);

  pair.server->send(received.data(), received.size());
  std::string echoed(hello.size(), '\0');
  pair.client->recv_exact(echoed.data(), echoed.size());
  CHECK(echoed == hello);
}

// Byte i of the stream is pattern(i), so any loss, reordering or duplication shows.
unsigned char pattern(std::size_t i) { return static_cast<unsigned char>((i * 131 + i / 4099) & 0xff); }

// Sends `total` bytes in gather-sends of three odd-sized pieces from a writer thread, reads them
// in odd-sized recv_some() and recv_exact() calls, and checks every byte.
void check_large_transfer(loopback_pair& pair, std::size_t total, bool non_blocking) {
  pair.client->set_non_blocking(non_blocking);
  pair.server->set_non_blocking(non_blocking);
  std::vector<unsigned char> source(total);
  for (std::size_t i = 0; i < total; ++i) source[i] = pattern(i);

  std::thread writer([&] {
    const std::size_t sizes[] = {1000, 77777, 13, 65536 * 3 + 1, 1};
    std::size_t at = 0;
    std::size_t turn = 0;
    while (at < total) {  // bounded: at grows by at least 1 every round
      const_buffer pieces[3];
      std::size_t used = 0;
      for (; used < 3 && at < total; ++used, ++turn) {
        const std::size_t n = std::min(sizes[turn % 5], total - at);
        pieces[used] = {source.data() + at, n};
        at += n;
      }
      pair.client->send_gather({pieces, used});
    }
  });

  std::vector<unsigned char> sink(total);
  const std::size_t chunks[] = {1, 997, 4093, 12, 65521, 3};
  std::size_t got = 0;
  std::size_t turn = 0;
  std::size_t calls = 0;
  while (got < total && calls < total) {  // each call returns at least one byte or throws
    const std::size_t want = std::min(chunks[turn++ % 6], total - got);
    if (turn % 2 == 0) {
      got += pair.server->recv_some(sink.data() + got, want);
    } else {
      pair.server->recv_exact(sink.data() + got, want);  // spans several short reads
      got += want;
    }
    ++calls;
  }
  writer.join();
  REQUIRE(got == total);
  CHECK(std::memcmp(sink.data(), source.data(), total) == 0);
}

}  // namespace

TEST_CASE("echo over TCP IPv4 loopback", "[iiop]") {
  auto pair = open_pair("iiop://127.0.0.1:0");
  CHECK(pair.client->kind() == protocol::iiop);
  check_echo(pair);
}

TEST_CASE("echo over TCP IPv6 loopback", "[iiop][ipv6]") {
  if (!have_ipv6_loopback()) {
    WARN("no IPv6 loopback here: skipped");
    return;
  }
  auto pair = open_pair("iiop://[::1]:0");
  check_echo(pair);
  CHECK(pair.client->peer_address() == pair.listener->endpoint_string());
  CHECK(pair.server->peer_address().rfind("iiop://[::1]:", 0) == 0);
}

TEST_CASE("echo over UIOP in a temporary directory", "[uiop]") {
  temp_dir dir;
  REQUIRE(!dir.path().empty());
  const std::string where = "uiop://" + dir.path() + "/orb.sock";
  {
    auto pair = open_pair(where);
    CHECK(pair.client->kind() == protocol::uiop);
    CHECK(pair.listener->endpoint_string() == where);
    CHECK(pair.client->peer_address() == where);
    check_echo(pair);
    struct stat info {};
    CHECK(::stat((dir.path() + "/orb.sock").c_str(), &info) == 0);
  }
  struct stat info {};
  CHECK(::stat((dir.path() + "/orb.sock").c_str(), &info) != 0);  // closing removed the file
}

TEST_CASE("port 0 gives a real port and addresses name both ends", "[iiop]") {
  auto listener = open_acceptor("iiop://127.0.0.1:0");
  const auto port = listener->local_endpoint().port;
  CHECK(port != 0);
  CHECK(listener->endpoint_string() == "iiop://127.0.0.1:" + std::to_string(port));
  auto client = connect("iiop://127.0.0.1:" + std::to_string(port));
  auto server = listener->accept();
  CHECK(client->peer_address() == listener->endpoint_string());
  CHECK(server->local_address() == listener->endpoint_string());
  CHECK(server->peer_address() == client->local_address());
}

TEST_CASE("the concrete iiop types work without the virtual interface", "[iiop]") {
  iiop::acceptor listener(parse_endpoint("iiop://127.0.0.1:0"), {});
  std::unique_ptr<iiop::connection> client = iiop::connect(listener.local_endpoint(), {});
  std::unique_ptr<iiop::connection> server = listener.accept_connection();
  const char message[] = "direct";
  client->send(message, sizeof message);
  char received[sizeof message] = {};
  server->recv_exact(received, sizeof received);
  CHECK(std::string(received) == "direct");
}

TEST_CASE("try_accept returns null when no connection waits", "[iiop][uiop]") {
  auto listener = open_acceptor("iiop://127.0.0.1:0");
  CHECK(listener->try_accept() == nullptr);
  auto client = connect(listener->local_endpoint());
  std::unique_ptr<connection> server;
  for (int attempt = 0; attempt < 1000 && !server; ++attempt) {
    server = listener->try_accept();
    if (!server) ::usleep(1000);
  }
  CHECK(server != nullptr);
}

TEST_CASE("gather-send delivers several buffers in order", "[iiop][uiop]") {
  temp_dir dir;
  for (const std::string& where : {std::string("iiop://127.0.0.1:0"), "uiop://" + dir.path() + "/g"}) {
    INFO(where);
    auto pair = open_pair(where);
    const std::string header = "GIOP\x01\x02\x01\x00";
    const std::string body(10000, 'b');
    const std::string tail = "end";
    const const_buffer pieces[] = {{header.data(), header.size()},
                                   {nullptr, 0},
                                   {body.data(), body.size()},
                                   {tail.data(), 0},
                                   {tail.data(), tail.size()}};
    pair.client->send_gather(pieces);
    std::string received(header.size() + body.size() + tail.size(), '\0');
    pair.server->recv_exact(received.data(), received.size());
    CHECK(received == header + body + tail);

    // Many more buffers than one sendmsg() takes.
    std::vector<std::string> parts;
    std::vector<const_buffer> many;
    std::string expected;
    for (int i = 0; i < 300; ++i) parts.push_back(std::to_string(i) + ",");
    for (const auto& part : parts) {
      many.push_back({part.data(), part.size()});
      expected += part;
    }
    pair.client->send_gather(many);
    std::string all(expected.size(), '\0');
    pair.server->recv_exact(all.data(), all.size());
    CHECK(all == expected);
  }
}

TEST_CASE("large transfers with small socket buffers and odd read sizes", "[iiop][uiop]") {
  transport_options small;
  small.send_buffer_size = 4096;
  small.recv_buffer_size = 4096;
  constexpr std::size_t total = 6 * 1024 * 1024 + 17;
  temp_dir dir;
  for (const std::string& where : {std::string("iiop://127.0.0.1:0"), "uiop://" + dir.path() + "/big"}) {
    for (const bool non_blocking : {false, true}) {
      INFO(where << ", non-blocking " << non_blocking);
      auto pair = open_pair(where, small);
      check_large_transfer(pair, total, non_blocking);
    }
  }
}

TEST_CASE("socket options: TCP_NODELAY by default, buffer sizes as asked", "[iiop]") {
  transport_options options;
  options.recv_buffer_size = 8192;
  options.send_buffer_size = 16384;
  auto pair = open_pair("iiop://127.0.0.1:0", options);
  for (const auto* end : {pair.client.get(), pair.server.get()}) {
    int value = 0;
    socklen_t size = sizeof value;
    REQUIRE(::getsockopt(end->handle(), IPPROTO_TCP, TCP_NODELAY, &value, &size) == 0);
    CHECK(value != 0);
    REQUIRE(::getsockopt(end->handle(), SOL_SOCKET, SO_RCVBUF, &value, &size) == 0);
    CHECK(value >= 8192);
    CHECK(value < 8192 * 4);  // Linux doubles what it is given; the OS default is far larger
  }
  transport_options nagle;
  nagle.tcp_nodelay = false;
  auto plain = open_pair("iiop://127.0.0.1:0", nagle);
  int value = 1;
  socklen_t size = sizeof value;
  REQUIRE(::getsockopt(plain.client->handle(), IPPROTO_TCP, TCP_NODELAY, &value, &size) == 0);
  CHECK(value == 0);
}

TEST_CASE("connecting to a closed port gives TRANSIENT", "[iiop]") {
  std::uint16_t port = 0;
  {
    auto listener = open_acceptor("iiop://127.0.0.1:0");
    port = listener->local_endpoint().port;
  }
  transport_options options;
  options.connect_timeout = std::chrono::milliseconds(2000);
  for (const auto& opts : {transport_options{}, options}) {
    try {
      connect("iiop://127.0.0.1:" + std::to_string(port), opts);
      FAIL("connected to a closed port");
    } catch (const SystemException& e) {
      CHECK(e.kind() == SystemExceptionKind::TRANSIENT);
      CHECK(e.minor() == minor::connect_failed);
      CHECK(std::string(e.what()).find("127.0.0.1:" + std::to_string(port)) != std::string::npos);
    }
  }
}

TEST_CASE("connecting to a missing UNIX socket gives TRANSIENT", "[uiop]") {
  temp_dir dir;
  try {
    connect("uiop://" + dir.path() + "/nobody");
    FAIL("connected to nothing");
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::TRANSIENT);
    CHECK(e.minor() == minor::connect_failed);
  }
}

TEST_CASE("a connection the peer closed reports closed", "[iiop][uiop]") {
  temp_dir dir;
  for (const std::string& where : {std::string("iiop://127.0.0.1:0"), "uiop://" + dir.path() + "/c"}) {
    INFO(where);
    {  // a clean close between messages
      auto pair = open_pair(where);
      pair.server->close();
      CHECK_FALSE(pair.server->is_open());
      CHECK(pair.server->handle() == invalid_handle);
      char buffer[16];
      CHECK_FALSE(pair.client->try_recv_exact(buffer, sizeof buffer));
      CHECK(pair.client->try_recv_some(buffer, sizeof buffer) == 0);
      try {
        pair.client->recv_exact(buffer, sizeof buffer);
        FAIL("read from a closed connection");
      } catch (const SystemException& e) {
        CHECK(e.kind() == SystemExceptionKind::COMM_FAILURE);
        CHECK(e.minor() == minor::connection_closed);
      }
      try {
        pair.client->recv_some(buffer, sizeof buffer);
        FAIL("read from a closed connection");
      } catch (const SystemException& e) {
        CHECK(e.minor() == minor::connection_closed);
      }
    }
    {  // a close in the middle of a message
      auto pair = open_pair(where);
      pair.server->send("abc", 3);
      pair.server->close();
      char buffer[12];
      try {
        pair.client->try_recv_exact(buffer, sizeof buffer);
        FAIL("read a truncated message");
      } catch (const SystemException& e) {
        CHECK(e.kind() == SystemExceptionKind::COMM_FAILURE);
        CHECK(e.minor() == minor::connection_closed);
        CHECK(std::string(e.what()).find("after 3 of 12 bytes") != std::string::npos);
      }
    }
    {  // sending to a closed peer fails with COMM_FAILURE, not SIGPIPE
      auto pair = open_pair(where);
      pair.server->close();
      std::vector<char> block(64 * 1024, 'x');
      bool failed = false;
      for (int round = 0; round < 1000 && !failed; ++round) {
        try {
          pair.client->send(block.data(), block.size());
        } catch (const SystemException& e) {
          CHECK(e.kind() == SystemExceptionKind::COMM_FAILURE);
          CHECK(e.minor() == minor::send_failed);
          failed = true;
        }
      }
      CHECK(failed);
    }
  }
}

TEST_CASE("using a closed connection throws COMM_FAILURE", "[iiop]") {
  auto pair = open_pair("iiop://127.0.0.1:0");
  pair.client->close();
  pair.client->close();  // idempotent
  char byte = 0;
  CHECK_THROWS_AS(pair.client->send(&byte, 1), SystemException);
  CHECK_THROWS_AS(pair.client->try_recv_some(&byte, 1), SystemException);
  CHECK(pair.client->try_recv_some(&byte, 0) == 0);
  CHECK(pair.client->try_recv_exact(&byte, 0));
}

TEST_CASE("uiop socket file: stale removed, live kept, others refused", "[uiop]") {
  temp_dir dir;
  const std::string path = dir.path() + "/s";
  const std::string where = "uiop://" + path;

  // A socket file left by a dead server: bound, never listening, closed.
  {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strcpy(address.sun_path, path.c_str());
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    ::close(fd);
  }
  auto listener = open_acceptor(where);  // the stale file does not stop it
  auto client = connect(where);
  auto server = listener->accept();
  {
    // A second server on a live path is refused, and the first one keeps its file.
    try {
      open_acceptor(where);
      FAIL("opened a path another server listens on");
    } catch (const SystemException& e) {
      CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
      CHECK(e.minor() == minor::bad_endpoint);
      CHECK(std::string(e.what()).find(where) != std::string::npos);
    }
    struct stat info {};
    CHECK(::stat(path.c_str(), &info) == 0);
  }
  listener->close();
  struct stat info {};
  CHECK(::stat(path.c_str(), &info) != 0);

  // A regular file is never removed.
  const std::string file = dir.path() + "/plain";
  std::ofstream(file) << "data";
  try {
    open_acceptor("uiop://" + file);
    FAIL("opened over a regular file");
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
  }
  CHECK(::stat(file.c_str(), &info) == 0);

  // A directory that does not exist.
  CHECK_THROWS_AS(open_acceptor("uiop://" + dir.path() + "/no/such/dir/s"), SystemException);
}

TEST_CASE("a port in use cannot be opened twice", "[iiop]") {
  auto first = open_acceptor("iiop://127.0.0.1:0");
  try {
    open_acceptor(first->local_endpoint());
    FAIL("opened a port twice");
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
    CHECK(e.minor() == minor::bad_endpoint);
  }
}

TEST_CASE("several endpoints open at once", "[iiop][uiop]") {
  temp_dir dir;
  std::vector<std::unique_ptr<acceptor>> listeners;
  listeners.push_back(open_acceptor("iiop://127.0.0.1:0"));
  listeners.push_back(open_acceptor("iiop://127.0.0.1:0"));
  listeners.push_back(open_acceptor("iiop://:0"));
  listeners.push_back(open_acceptor("uiop://" + dir.path() + "/one"));
  listeners.push_back(open_acceptor("uiop://" + dir.path() + "/two"));
  CHECK(listeners[0]->local_endpoint().port != listeners[1]->local_endpoint().port);
  int index = 0;
  for (auto& listener : listeners) {
    auto target = listener->local_endpoint();
    if (target.host.empty()) target.host = "127.0.0.1";
    auto client = connect(target);
    auto server = listener->accept();
    const char byte = static_cast<char>('a' + index++);
    client->send(&byte, 1);
    char received = 0;
    server->recv_exact(&received, 1);
    CHECK(received == byte);
  }
}

TEST_CASE("a host name is resolved (localhost)", "[iiop]") {
  auto listener = open_acceptor("iiop://127.0.0.1:0");
  auto client = connect("iiop://localhost:" + std::to_string(listener->local_endpoint().port));
  auto server = listener->accept();
  CHECK(client->peer_address() == listener->endpoint_string());
}
