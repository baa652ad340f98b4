// The scopes of switchyard/value.h and write_value/read_value: a thread's open scopes form a
// stack (a thread-local pointer to the innermost), searched by stream. Only code that marshals
// values ever looks at it.
#include <exception>

#include "orb/value/value_reader.h"
#include "orb/value/value_writer.h"
#include "switchyard/value.h"

namespace switchyard {

namespace {

thread_local value_output_scope* innermost_output = nullptr;
thread_local value_input_scope* innermost_input = nullptr;

}  // namespace

void value_base::destroy(const value_base* v) noexcept {
  // A value being deleted releases the values it holds; those whose count drops to zero join
  // this thread's list instead of being deleted inside the first one's destructor.
  thread_local const value_base* pending = nullptr;
  thread_local bool destroying = false;
  v->next_to_destroy_ = pending;
  pending = v;
  if (destroying) return;
  destroying = true;
  while (pending != nullptr) {
    const value_base* next = pending;
    pending = next->next_to_destroy_;
    delete next;
  }
  destroying = false;
}

value_output_scope::value_output_scope(cdr::output_stream& out)
    : stream_(&out), previous_(innermost_output), owner_(this) {
  for (value_output_scope* s = previous_; s != nullptr; s = s->previous_)
    if (s->stream_ == stream_) owner_ = s->owner_;
  innermost_output = this;
}

value_output_scope::~value_output_scope() { innermost_output = previous_; }

value_detail::writer& value_output_scope::writer() {
  if (owner_ != this) return owner_->writer();
  if (!writer_) writer_ = std::make_unique<value_detail::writer>(*stream_);
  return *writer_;
}

value_input_scope::value_input_scope(cdr::input_stream& in)
    : stream_(&in), previous_(innermost_input), owner_(this), uncaught_(std::uncaught_exceptions()) {
  for (value_input_scope* s = previous_; s != nullptr; s = s->previous_)
    if (s->stream_ == stream_) owner_ = s->owner_;
  innermost_input = this;
}

value_input_scope::~value_input_scope() {
  if (ended_) return;
  innermost_input = previous_;
  if (reader_) {
    reader_->detach();
    if (std::uncaught_exceptions() > uncaught_) reader_->release_all();
    else reader_->release_copied();
  }
}

void value_input_scope::end() noexcept {
  if (ended_) return;
  ended_ = true;
  innermost_input = previous_;
  if (reader_) reader_->release_copied();
  reader_.reset();  // which detaches it from the stream
}

value_detail::reader& value_input_scope::reader() {
  if (owner_ != this) return owner_->reader();
  if (!reader_) reader_ = std::make_unique<value_detail::reader>(*stream_);
  return *reader_;
}

// Neither makes a reader: a scope that has none has read no value (an Any of Anys without any).
std::size_t value_input_scope::values_read() { return owner_->reader_ ? owner_->reader_->made_count() : 0; }

void value_input_scope::copied_only_since(std::size_t count) {
  if (owner_->reader_) owner_->reader_->mark_copied_since(count);
}

void write_value(cdr::output_stream& out, const value_base* value) {
  value_output_scope own(out);  // nests into an open scope on `out`, if there is one
  own.writer().write(value);
}

value_ref<value_base> read_value(cdr::input_stream& in, std::string_view expected_id) {
  value_input_scope own(in);
  return own.reader().read(expected_id);
}

value_ref<value_base> read_value(cdr::input_stream& in, std::string_view expected_id, const value_factory& fallback) {
  value_input_scope own(in);
  return own.reader().read(expected_id, &fallback);
}

}  // namespace switchyard
