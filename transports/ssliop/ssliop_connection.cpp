#include "transports/ssliop/ssliop_connection.h"

#include <arpa/inet.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "switchyard/exception.h"
#include "transports/ssliop/tls_context.h"

namespace switchyard::transports::ssliop {

namespace {

using clock = std::chrono::steady_clock;

// OpenSSL's socket BIO writes with write(2), which raises SIGPIPE on a reset connection; this one
// sends with MSG_NOSIGNAL, as the plain transports do, and with MSG_MORE while the record it sends
// is not a message's last (connection::bio_state): the kernel sends a message's records as one,
// and the peer wakes once for them.
connection::bio_state& state_of(BIO* bio) { return *static_cast<connection::bio_state*>(BIO_get_data(bio)); }

int bio_write(BIO* bio, const char* data, int size) {
  const connection::bio_state& state = state_of(bio);
  BIO_clear_retry_flags(bio);
  const int flags = MSG_NOSIGNAL | MSG_DONTWAIT | (state.more ? MSG_MORE : 0);
  for (;;) {
    const ssize_t sent = ::send(state.handle, data, static_cast<std::size_t>(size), flags);
    if (sent >= 0) return static_cast<int>(sent);
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) BIO_set_retry_write(bio);
    return -1;
  }
}

int bio_read(BIO* bio, char* data, int capacity) {
  const int handle = state_of(bio).handle;
  BIO_clear_retry_flags(bio);
  for (;;) {
    const ssize_t got = ::recv(handle, data, static_cast<std::size_t>(capacity), MSG_DONTWAIT);
    if (got >= 0) return static_cast<int>(got);
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) BIO_set_retry_read(bio);
    return -1;
  }
}

long bio_ctrl(BIO* bio, int command, long, void*) {
  switch (command) {
    case BIO_C_GET_FD:
      return state_of(bio).handle;
    case BIO_CTRL_FLUSH:
      return 1;
    default:
      return 0;
  }
}

const BIO_METHOD* socket_method() {
  static BIO_METHOD* method = [] {
    BIO_METHOD* made =
        BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK | BIO_TYPE_DESCRIPTOR, "switchyard socket");
    BIO_meth_set_write(made, bio_write);
    BIO_meth_set_read(made, bio_read);
    BIO_meth_set_ctrl(made, bio_ctrl);
    return made;
  }();
  return method;
}

std::string name_text(X509_NAME* name) {
  if (name == nullptr) return {};
  BIO* out = BIO_new(BIO_s_mem());
  if (out == nullptr) return {};
  X509_NAME_print_ex(out, name, 0, XN_FLAG_RFC2253);
  char* data = nullptr;
  const long size = BIO_get_mem_data(out, &data);
  std::string text(data, static_cast<std::size_t>(std::max(size, 0L)));
  BIO_free(out);
  return text;
}

std::string common_name(X509_NAME* name) {
  const int at = X509_NAME_get_index_by_NID(name, NID_commonName, -1);
  if (at < 0) return {};
  int last = at;
  for (int next = at; next >= 0; next = X509_NAME_get_index_by_NID(name, NID_commonName, next)) last = next;
  const ASN1_STRING* value = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, last));
  return std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(value)),
                     static_cast<std::size_t>(ASN1_STRING_length(value)));
}

std::vector<std::string> alt_names(X509* certificate) {
  std::vector<std::string> names;
  auto* list = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(certificate, NID_subject_alt_name, nullptr, nullptr));
  if (list == nullptr) return names;
  for (int i = 0; i < sk_GENERAL_NAME_num(list); ++i) {
    const GENERAL_NAME* entry = sk_GENERAL_NAME_value(list, i);
    if (entry->type == GEN_DNS) {
      const ASN1_STRING* value = entry->d.dNSName;
      names.push_back("DNS:" + std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(value)),
                                           static_cast<std::size_t>(ASN1_STRING_length(value))));
    } else if (entry->type == GEN_IPADD) {
      const ASN1_STRING* value = entry->d.iPAddress;
      char text[INET6_ADDRSTRLEN] = {};
      const int length = ASN1_STRING_length(value);
      if (length == 4 || length == 16)
        ::inet_ntop(length == 4 ? AF_INET : AF_INET6, ASN1_STRING_get0_data(value), text, sizeof text);
      names.push_back(std::string("IP:") + text);
    }
  }
  GENERAL_NAMES_free(list);
  return names;
}

// A peer may make us work for each handshake message it sends after the handshake (a key update
// costs a key derivation and an answer; a TLS 1.2 renegotiation request an alert): more than
// this many in one second ends its connection.
constexpr int post_handshake_messages_per_second = 16;

bool is_ip_literal(const std::string& host) {
  unsigned char address[16];
  return ::inet_pton(AF_INET, host.c_str(), address) == 1 || ::inet_pton(AF_INET6, host.c_str(), address) == 1;
}

}  // namespace

connection::connection(std::unique_ptr<iiop::connection> tcp, ssl_ctx_st* context, side which)
    : tcp_(std::move(tcp)), local_address_(tcp_->local_address()), peer_address_(tcp_->peer_address()) {
  // "iiop://h:p" -> "ssliop://h:p" for logs and errors.
  for (std::string* address : {&local_address_, &peer_address_})
    if (address->starts_with("iiop://")) address->replace(0, 4, "ssliop");
  tcp_->set_non_blocking(true);
  ssl_ = SSL_new(context);
  BIO* bio = ssl_ == nullptr ? nullptr : BIO_new(socket_method());
  if (bio == nullptr) {
    SSL_free(ssl_);
    throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::tls_handshake_failed, CompletionStatus::no,
                          "TLS state for " + peer_address_ + ": " + take_tls_errors("out of memory"));
  }
  bio_state_.handle = tcp_->handle();
  BIO_set_data(bio, &bio_state_);
  BIO_set_init(bio, 1);
  SSL_set_bio(ssl_, bio, bio);
  // A peer that closes without close_notify ends the stream cleanly: GIOP frames its messages, so
  // a cut is seen as a short message anyway.
  SSL_set_options(ssl_, SSL_OP_IGNORE_UNEXPECTED_EOF);
  SSL_set_msg_callback(ssl_, &connection::on_tls_message);
  SSL_set_msg_callback_arg(ssl_, this);
  if (which == side::server) SSL_set_accept_state(ssl_);
  else SSL_set_connect_state(ssl_);
}

connection::~connection() {
  close();
  SSL_free(ssl_);
}

void connection::close() noexcept {
  if (!tcp_->is_open()) return;
  {
    std::lock_guard lock(mutex_);
    // close_notify, if the socket takes it now; nothing is waited for.
    if (handshake_done_.load(std::memory_order_relaxed)) {
      ERR_clear_error();
      SSL_shutdown(ssl_);
      ERR_clear_error();
    }
  }
  tcp_->close();
}

void connection::note_handshake_done() noexcept {
  if (X509* certificate = SSL_get1_peer_certificate(ssl_)) {
    if (SSL_get_verify_result(ssl_) == X509_V_OK) {
      try {
        peer_.subject = name_text(X509_get_subject_name(certificate));
        peer_.issuer = name_text(X509_get_issuer_name(certificate));
        peer_.common_name = common_name(X509_get_subject_name(certificate));
        peer_.alt_names = alt_names(certificate);
        unsigned char* der = nullptr;
        const int size = i2d_X509(certificate, &der);
        if (size > 0) peer_.der.assign(der, der + size);
        OPENSSL_free(der);
        has_peer_ = true;
      } catch (...) {
        has_peer_ = false;  // out of memory: the peer is anonymous (refused where identity matters)
      }
    }
    X509_free(certificate);
  }
  handshake_done_.store(true, std::memory_order_release);
}

void connection::on_tls_message(int write_p, int, int content_type, const void*, std::size_t size, ssl_st*,
                                void* self) {
  auto* me = static_cast<connection*>(self);
  if (write_p != 0 || content_type != SSL3_RT_HANDSHAKE || size == 0 ||
      !me->handshake_done_.load(std::memory_order_relaxed))
    return;
  const auto now = clock::now();
  if (now - me->storm_window_ > std::chrono::seconds(1)) {
    me->storm_window_ = now;
    me->post_handshake_messages_ = 0;
  }
  // OpenSSL reads on while the socket has records: past the limit its socket BIO is cut off (what
  // was read ahead is the most it still processes), and read_step reports why.
  if (++me->post_handshake_messages_ == post_handshake_messages_per_second + 1) me->bio_state_.handle = -1;
}

void connection::notice_handshake() noexcept {
  if (!handshake_done_.load(std::memory_order_relaxed) && SSL_is_init_finished(ssl_)) note_handshake_done();
}

connection::step connection::classify(int result, const char* doing) {
  notice_handshake();
  if (result > 0) return {outcome::done, static_cast<std::size_t>(result), {}};
  const int error = SSL_get_error(ssl_, result);
  switch (error) {
    case SSL_ERROR_WANT_READ:
      return {outcome::want_read, 0, {}};
    case SSL_ERROR_WANT_WRITE:
      return {outcome::want_write, 0, {}};
    case SSL_ERROR_ZERO_RETURN:
      return {outcome::closed, 0, {}};
    case SSL_ERROR_SYSCALL: {
      const int saved = errno;
      std::string why = take_tls_errors(saved != 0 ? std::strerror(saved) : "connection ended");
      return {outcome::failed, 0, std::string(doing) + " " + peer_address_ + ": " + why};
    }
    default: {
      std::string why = take_tls_errors("TLS error");
      const long verified = SSL_get_verify_result(ssl_);
      if (verified != X509_V_OK) why += " (certificate: " + std::string(X509_verify_cert_error_string(verified)) + ")";
      return {outcome::failed, 0, std::string(doing) + " " + peer_address_ + ": " + why};
    }
  }
}

// SSL_get_error needs this thread's error queue empty before the call; failures drain it
// (classify), so it is nearly always empty: looked at, cleared only when it is not.
static void clear_tls_errors() noexcept {
  if (ERR_peek_error() != 0) ERR_clear_error();
}

connection::step connection::read_step(void* data, std::size_t capacity) {
  std::lock_guard lock(mutex_);
  clear_tls_errors();
  read_wants_write_.store(false, std::memory_order_relaxed);
  if (end_read_ahead_) {
    step end = std::move(*end_read_ahead_);
    end_read_ahead_.reset();
    return end;
  }
  std::size_t total = 0;
  auto* at = static_cast<char*>(data);
  for (;;) {
    std::size_t got = 0;
    if (SSL_read_ex(ssl_, at + total, capacity - total, &got) == 1) {
      notice_handshake();
      total += got;
      // Records already read ahead are returned now; the socket is read once per call.
      if (total < capacity && SSL_has_pending(ssl_)) continue;
      return {outcome::done, total, {}};
    }
    if (total != 0) {
      // What came before the wait or the end. An end read in the same socket read (a request and
      // the close_notify behind it) is kept for the next call: nothing on the socket would wake
      // its reader.
      step stopped = classify(0, "TLS receive from");
      if (stopped.what == outcome::closed || stopped.what == outcome::failed) end_read_ahead_ = std::move(stopped);
      return {outcome::done, total, {}};
    }
    if (post_handshake_messages_ > post_handshake_messages_per_second)
      return {outcome::failed, 0,
              "TLS receive from " + peer_address_ + ": more than " +
                  std::to_string(post_handshake_messages_per_second) +
                  " key updates or renegotiation requests in one second"};
    step stopped = classify(0, "TLS receive from");
    read_wants_write_.store(stopped.what == outcome::want_write, std::memory_order_relaxed);
    return stopped;
  }
}

connection::step connection::write_step(const void* data, std::size_t size, std::size_t after) {
  std::lock_guard lock(mutex_);
  clear_tls_errors();
  // One call writes one record (partial writes): more follows when this is not the last.
  bio_state_.more = size > max_record || after != 0;
  std::size_t written = 0;
  const int result = SSL_write_ex(ssl_, data, size, &written);
  bio_state_.more = false;  // what a read or a close writes (a key update's answer, an alert) goes now
  if (result == 1) {
    notice_handshake();
    return {outcome::done, written, {}};
  }
  return classify(0, "TLS send to");
}

bool connection::wait_for(outcome what, clock::time_point deadline) const noexcept {
  for (;;) {
    int ms = -1;
    if (deadline != clock::time_point::max()) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - clock::now()).count();
      if (left <= 0) return false;
      ms = static_cast<int>(std::min<long long>(left, 1 << 30));
    }
    pollfd ready{tcp_->handle(), static_cast<short>(what == outcome::want_write ? POLLOUT : POLLIN), 0};
    const int n = ::poll(&ready, 1, ms);
    if (n > 0 || (n < 0 && errno != EINTR)) return true;  // an error shows at the next call
    if (n == 0 && ms >= 0 && clock::now() >= deadline) return false;
  }
}

bool connection::has_buffered_input() const noexcept {
  std::lock_guard lock(mutex_);
  return end_read_ahead_.has_value() || SSL_has_pending(ssl_) != 0;
}

void connection::set_io_timeouts(std::chrono::milliseconds send, std::chrono::milliseconds receive) {
  send_timeout_ = send;
  receive_timeout_ = receive;
}

void connection::throw_receive_failure(const std::string& error) const {
  throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::recv_failed, CompletionStatus::maybe, error);
}

std::ptrdiff_t connection::receive(void* data, std::size_t capacity, bool waits, clock::time_point deadline) {
  if (capacity == 0) return 0;
  // A caller that waits usually waits for a reply not yet sent: poll first, so that the read
  // is one recv that finds octets rather than one that finds none, a poll and another recv.
  if (waits && handshake_done() && !has_buffered_input() && !wait_for(outcome::want_read, deadline))
    return connection::would_block;
  for (;;) {
    const step got = read_step(data, capacity);
    switch (got.what) {
      case outcome::done:
        return static_cast<std::ptrdiff_t>(got.octets);
      case outcome::closed:
        return 0;
      case outcome::failed:
        throw_receive_failure(got.error);
      case outcome::want_read:
      case outcome::want_write:
        if (!waits || !wait_for(got.what, deadline)) return connection::would_block;
        break;
    }
  }
}

std::ptrdiff_t connection::recv_now(void* data, std::size_t capacity) {
  const clock::time_point deadline =
      receive_timeout_.count() > 0 ? clock::now() + receive_timeout_ : clock::time_point::max();
  return receive(data, capacity, blocking_.load(std::memory_order_relaxed), deadline);
}

std::size_t connection::try_recv_some(void* data, std::size_t capacity) {
  // Without a deadline the wait ends only with octets, the end or a failure.
  return static_cast<std::size_t>(receive(data, capacity, true, clock::time_point::max()));
}

bool connection::try_recv_exact(void* data, std::size_t size) {
  return receive_exact(data, size, [this](void* at, std::size_t left) { return try_recv_some(at, left); });
}

send_result connection::send_all(std::span<const const_buffer> buffers, clock::time_point deadline,
                                 std::string& error) noexcept {
  send_result result;
  // Small pieces go out as one record: a message's header and body in one encryption and one
  // system call. Larger pieces are written from where they are.
  std::size_t total = 0;
  for (const auto& buffer : buffers) total += buffer.size;
  char joined[max_record];
  const_buffer whole{nullptr, 0};
  std::span<const const_buffer> pieces = buffers;
  if (buffers.size() > 1 && total <= max_record) {
    std::size_t at = 0;
    for (const auto& buffer : buffers) {
      if (buffer.size != 0) std::memcpy(joined + at, buffer.data, buffer.size);
      at += buffer.size;
    }
    whole = {joined, total};
    pieces = {&whole, 1};
  }
  std::size_t after = total;  // octets in the pieces after this one
  for (const auto& piece : pieces) {
    after -= piece.size;
    std::size_t offset = 0;
    while (offset < piece.size) {
      const step sent = write_step(static_cast<const char*>(piece.data) + offset, piece.size - offset, after);
      if (sent.what == outcome::done) {
        offset += sent.octets;
        result.sent += sent.octets;
        continue;
      }
      if (sent.what == outcome::want_read || sent.what == outcome::want_write) {
        if (wait_for(sent.what, deadline)) continue;
        result.error = ETIMEDOUT;
        return result;
      }
      error = sent.what == outcome::closed ? "TLS send to " + peer_address_ + ": the peer closed the connection"
                                           : sent.error;
      result.error = EPIPE;
      return result;
    }
  }
  return result;
}

void connection::send_gather(std::span<const const_buffer> buffers) {
  const bool bounded = blocking_.load(std::memory_order_relaxed) && send_timeout_.count() > 0;
  std::string error;
  // A blocking send that makes no progress for the send timeout fails, as SO_SNDTIMEO would make it.
  const send_result result =
      send_all(buffers, bounded ? clock::now() + send_timeout_ : clock::time_point::max(), error);
  if (result.error == 0) return;
  if (result.error == ETIMEDOUT)
    throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::send_timed_out, CompletionStatus::maybe,
                          "send to " + peer_address_ + " made no progress within the send timeout");
  throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::send_failed, CompletionStatus::maybe, error);
}

send_result connection::send_gather_until(std::span<const const_buffer> buffers, clock::time_point deadline) noexcept {
  std::string error;
  return send_all(buffers, deadline, error);
}

std::size_t connection::send_now(std::span<const const_buffer> buffers) {
  std::size_t taken = 0;
  std::size_t after = 0;  // octets in the buffers after this one
  for (const auto& buffer : buffers) after += buffer.size;
  for (const auto& buffer : buffers) {
    after -= buffer.size;
    std::size_t offset = 0;
    while (offset < buffer.size) {
      const step sent = write_step(static_cast<const char*>(buffer.data) + offset, buffer.size - offset, after);
      if (sent.what == outcome::done) {
        offset += sent.octets;
        taken += sent.octets;
        continue;
      }
      if (sent.what == outcome::want_read || sent.what == outcome::want_write) return taken;
      throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::send_failed, CompletionStatus::maybe,
                            sent.what == outcome::closed ? "TLS send to " + peer_address_ + ": closed" : sent.error);
    }
  }
  return taken;
}

void connection::handshake_as_client(const std::string& host, bool verify, clock::time_point deadline) {
  {
    std::lock_guard lock(mutex_);
    if (verify) {
      X509_VERIFY_PARAM* parameters = SSL_get0_param(ssl_);
      const bool checked = is_ip_literal(host) ? X509_VERIFY_PARAM_set1_ip_asc(parameters, host.c_str()) == 1
                                               : X509_VERIFY_PARAM_set1_host(parameters, host.c_str(), 0) == 1;
      if (!checked)
        throw SystemException(SystemExceptionKind::TRANSIENT, minor::tls_handshake_failed, CompletionStatus::no,
                              "TLS to " + peer_address_ + ": cannot check the host '" + host + "'");
    }
    if (!is_ip_literal(host) && !host.empty()) SSL_set_tlsext_host_name(ssl_, host.c_str());
  }
  for (;;) {
    step state;
    {
      std::lock_guard lock(mutex_);
      ERR_clear_error();
      state = classify(SSL_do_handshake(ssl_), "TLS handshake with");
      if (state.what == outcome::failed || state.what == outcome::closed) {
        const long verified = SSL_get_verify_result(ssl_);
        if (verify && verified != X509_V_OK)
          throw SystemException(SystemExceptionKind::NO_PERMISSION, minor::peer_not_verified, CompletionStatus::no,
                                "TLS: the certificate of server " + peer_address_ +
                                    " is not trusted: " + X509_verify_cert_error_string(verified));
        throw SystemException(SystemExceptionKind::TRANSIENT, minor::tls_handshake_failed, CompletionStatus::no,
                              state.what == outcome::closed
                                  ? "TLS handshake with " + peer_address_ + ": the server closed the connection"
                                  : state.error);
      }
    }
    if (state.what == outcome::done) return;
    if (!wait_for(state.what, deadline))
      throw SystemException(SystemExceptionKind::TRANSIENT, minor::tls_handshake_failed, CompletionStatus::no,
                            "TLS handshake with " + peer_address_ + " did not finish in time");
  }
}

}  // namespace switchyard::transports::ssliop
