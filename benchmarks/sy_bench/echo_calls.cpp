#include "benchmarks/sy_bench/echo_calls.h"

#include <algorithm>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include "integrity.h"

namespace switchyard::bench {

std::string_view to_string(echo_type type) noexcept {
  switch (type) {
    case echo_type::doubles:
      return "echo_doubles";
    case echo_type::longs:
      return "echo_longs";
    case echo_type::records:
      return "echo_records";
    case echo_type::narecords:
      return "echo_narecords";
    case echo_type::any:
      return "echo_any";
  }
  return "?";
}

std::optional<echo_type> parse_echo_type(std::string_view name) noexcept {
  for (auto t : {echo_type::doubles, echo_type::longs, echo_type::records, echo_type::narecords, echo_type::any})
    if (to_string(t) == name) return t;
  return std::nullopt;
}

std::size_t echo_element_bytes(echo_type type) noexcept {
  switch (type) {
    case echo_type::doubles:
      return 8;
    case echo_type::longs:
      return 4;
    case echo_type::records:
      return 24;
    case echo_type::narecords:
      return 32;
    case echo_type::any:
      return 24;
  }
  return 1;
}

// Values that differ element to element, so a reordering or a lost element shows.
struct echo_payload::values {
  Integrity::Doubles doubles;
  Integrity::Longs longs;
  Integrity::Records records;
  Integrity::NARecords narecords;
  switchyard::any records_any;             // echo_any: an Any holding `records`
  std::shared_ptr<reply_handler> handler;  // call_async's, made by its first call
};

echo_payload::echo_payload(echo_type type, std::size_t bytes)
    : type_(type),
      units_(std::max<std::size_t>(1, bytes / echo_element_bytes(type))),
      values_(std::make_unique<values>()) {
  for (std::size_t i = 0; i < units_; ++i) {
    auto n = static_cast<std::int32_t>(i);
    switch (type) {
      case echo_type::doubles:
        values_->doubles.push_back(0.5 + n);
        break;
      case echo_type::longs:
        values_->longs.push_back(n * 7 - 3);
        break;
      case echo_type::any:
      case echo_type::records:
        values_->records.push_back({n, 1.25 * n, static_cast<std::int16_t>(n), static_cast<std::uint8_t>(n),
                                    0.5f * static_cast<float>(n), static_cast<char>('a' + n % 26), n % 2 == 0});
        break;
      case echo_type::narecords:
        values_->narecords.push_back({static_cast<std::uint8_t>(n), 2.5 * n, static_cast<char>('A' + n % 26),
                                      std::int64_t{n} << 20, static_cast<std::int16_t>(-n)});
        break;
    }
  }
  if (type == echo_type::any) Integrity::insert_Records(values_->records_any, values_->records);
}

echo_payload::~echo_payload() = default;
echo_payload::echo_payload(echo_payload&&) noexcept = default;

namespace {
template <class T>
void expect_same(const T& sent, const T& got, echo_type type, bool check) {
  if (check && !(sent == got))
    throw std::runtime_error(std::string(to_string(type)) + ": the reply differs from what was sent");
}
}  // namespace

void echo_payload::call(const object_ref& echo, bool check) const {
  Integrity::Echo stub(echo);
  switch (type_) {
    case echo_type::doubles:
      expect_same(values_->doubles, stub.echo_doubles(values_->doubles), type_, check);
      break;
    case echo_type::longs:
      expect_same(values_->longs, stub.echo_longs(values_->longs), type_, check);
      break;
    case echo_type::records:
      expect_same(values_->records, stub.echo_records(values_->records), type_, check);
      break;
    case echo_type::narecords:
      expect_same(values_->narecords, stub.echo_narecords(values_->narecords), type_, check);
      break;
    case echo_type::any: {
      auto reply = stub.echo_any(values_->records_any);
      if (check) {
        Integrity::Records got;
        if (!Integrity::extract_Records(reply, got)) got.clear();
        expect_same(values_->records, got, type_, check);
      }
      break;
    }
  }
}

// call_async's handler: the reply of the payload's operation finishes the call in progress (and,
// when it checks, compares the result); any other reply is a failure.
class echo_payload::reply_handler final : public Integrity::AMI_EchoHandler {
 public:
  explicit reply_handler(const values& sent) : sent_(sent) {}
  void start(async_completion& done, bool check) {
    done_ = &done;
    check_ = check;
  }

  void echo_doubles(const Integrity::Doubles& got) override { compare(sent_.doubles, got); }
  void echo_longs(const Integrity::Longs& got) override { compare(sent_.longs, got); }
  void echo_records(const Integrity::Records& got) override { compare(sent_.records, got); }
  void echo_narecords(const Integrity::NARecords& got) override { compare(sent_.narecords, got); }
  void echo_any(const switchyard::any& got) override {
    Integrity::Records records;
    if (check_ && !Integrity::extract_Records(got, records)) records.clear();
    compare(sent_.records, records);
  }
#define SY_FAILED(op) \
  void op##_excep(const switchyard::exception_holder& holder) override { failed(#op, holder); }
  SY_FAILED(echo_doubles)
  SY_FAILED(echo_longs)
  SY_FAILED(echo_records)
  SY_FAILED(echo_narecords)
  SY_FAILED(echo_any)
#undef SY_FAILED
  // The operations the experiment never calls asynchronously.
#define SY_UNEXPECTED(op, ...)                       \
  void op(__VA_ARGS__) override { unexpected(#op); } \
  void op##_excep(const switchyard::exception_holder&) override { unexpected(#op); }
  SY_UNEXPECTED(echo_boolean, bool)
  SY_UNEXPECTED(echo_octet, std::uint8_t)
  SY_UNEXPECTED(echo_char, char)
  SY_UNEXPECTED(echo_short, std::int16_t)
  SY_UNEXPECTED(echo_ushort, std::uint16_t)
  SY_UNEXPECTED(echo_long, std::int32_t)
  SY_UNEXPECTED(echo_ulong, std::uint32_t)
  SY_UNEXPECTED(echo_longlong, std::int64_t)
  SY_UNEXPECTED(echo_ulonglong, std::uint64_t)
  SY_UNEXPECTED(echo_float, float)
  SY_UNEXPECTED(echo_double, double)
  SY_UNEXPECTED(echo_string, const std::string&)
  SY_UNEXPECTED(echo_wstring, const std::u16string&)
  SY_UNEXPECTED(echo_color, Integrity::Color)
  SY_UNEXPECTED(echo_record, const Integrity::Record&)
  SY_UNEXPECTED(echo_narecord, const Integrity::NARecord&)
  SY_UNEXPECTED(echo_variant, const Integrity::Variant&)
  SY_UNEXPECTED(echo_matrix, const Integrity::Matrix&)
  SY_UNEXPECTED(echo_nested, const Integrity::Nested&)
  SY_UNEXPECTED(echo_octets, std::span<const std::uint8_t>)
  SY_UNEXPECTED(echo_strings, const Integrity::Strings&)
  SY_UNEXPECTED(twist, std::int32_t, const std::string&)
  SY_UNEXPECTED(split, std::int32_t, const std::string&, const Integrity::Longs&)
  SY_UNEXPECTED(refuse, std::int32_t)
  SY_UNEXPECTED(get_label, const std::string&)
  SY_UNEXPECTED(set_label)
  SY_UNEXPECTED(get_calls, std::uint32_t)
#undef SY_UNEXPECTED

 private:
  template <class T>
  void compare(const T& sent, const T& got) {
    done_->finish(check_ && !(sent == got) ? "the reply differs from what was sent" : "");
  }
  void failed(const char* op, const switchyard::exception_holder& holder) {
    try {
      holder.raise_exception();
    } catch (const std::exception& e) {
      done_->finish(std::string(op) + " raised " + e.what());
    } catch (...) {
      done_->finish(std::string(op) + " raised an exception not derived from std::exception");
    }
  }
  void unexpected(const char* op) { done_->finish(std::string("a reply to ") + op + ", which was not called"); }

  const values& sent_;
  async_completion* done_ = nullptr;
  bool check_ = false;
};

void echo_payload::call_async(const object_ref& echo, async_completion& done, bool check) const {
  if (!values_->handler) values_->handler = std::make_shared<reply_handler>(*values_);
  values_->handler->start(done, check);
  done.expect();
  Integrity::Echo stub(echo);
  switch (type_) {
    case echo_type::doubles:
      stub.sendc_echo_doubles(values_->handler, values_->doubles);
      break;
    case echo_type::longs:
      stub.sendc_echo_longs(values_->handler, values_->longs);
      break;
    case echo_type::records:
      stub.sendc_echo_records(values_->handler, values_->records);
      break;
    case echo_type::narecords:
      stub.sendc_echo_narecords(values_->handler, values_->narecords);
      break;
    case echo_type::any:
      stub.sendc_echo_any(values_->handler, values_->records_any);
      break;
  }
}

switchyard::any echo_payload::argument_any() const {
  switchyard::any a;
  switch (type_) {
    case echo_type::doubles:
      Integrity::insert_Doubles(a, values_->doubles);
      break;
    case echo_type::longs:
      Integrity::insert_Longs(a, values_->longs);
      break;
    case echo_type::records:
      Integrity::insert_Records(a, values_->records);
      break;
    case echo_type::narecords:
      Integrity::insert_NARecords(a, values_->narecords);
      break;
    case echo_type::any:
      a <<= values_->records_any;
      break;
  }
  return a;
}

std::uint32_t echo_payload::operation_index() const noexcept {
  switch (type_) {
    case echo_type::longs:
      return 20;
    case echo_type::doubles:
      return 21;
    case echo_type::records:
      return 22;
    case echo_type::narecords:
      return 23;
    case echo_type::any:
      return 25;
  }
  return 0xffffffffu;
}

switchyard::type_code echo_payload::result_type() const {
  switch (type_) {
    case echo_type::doubles:
      return Integrity::_tc_Doubles();
    case echo_type::longs:
      return Integrity::_tc_Longs();
    case echo_type::records:
      return Integrity::_tc_Records();
    case echo_type::narecords:
      return Integrity::_tc_NARecords();
    case echo_type::any:
      break;
  }
  return switchyard::type_code::basic(switchyard::tc_kind::tk_any);
}

void echo_payload::check_result(const switchyard::any& result) const {
  bool same = false;
  switch (type_) {
    case echo_type::doubles: {
      Integrity::Doubles got;
      same = Integrity::extract_Doubles(result, got) && got == values_->doubles;
      break;
    }
    case echo_type::longs: {
      Integrity::Longs got;
      same = Integrity::extract_Longs(result, got) && got == values_->longs;
      break;
    }
    case echo_type::records: {
      Integrity::Records got;
      same = Integrity::extract_Records(result, got) && got == values_->records;
      break;
    }
    case echo_type::narecords: {
      Integrity::NARecords got;
      same = Integrity::extract_NARecords(result, got) && got == values_->narecords;
      break;
    }
    case echo_type::any: {
      switchyard::any inner;
      Integrity::Records got;
      same = (result >>= inner) && Integrity::extract_Records(inner, got) && got == values_->records;
      break;
    }
  }
  if (!same) throw std::runtime_error(std::string(to_string(type_)) + " (DII): the reply differs from what was sent");
}

}  // namespace switchyard::bench
