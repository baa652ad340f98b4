// omniORB's asynchronous client (its own omniidl -Wbami stubs) against a server's Integrity::Echo,
// for tests/interop:
//   omni_ami_client IOR [-ORB<option> <value> ...]
// Sends 32 sendc_echo_long(7), sendc_twist(21, "abc"), sendc_split, sendc_refuse(9) and
// sendc_set_label("labelled") at once, then sendc_get_label, to one reply handler; then polls a
// sendp_split. Exits 0 only if every reply came (within 10 s) with the right values or exception.
#include <omniORB4/CORBA.h>

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <iostream>
#include <mutex>
#include <string>

#include "integrity.hh"

namespace {

constexpr int echo_calls = 32;

// Counts the replies and the wrong ones; any operation the client did not call is wrong.
class checking_handler final : public POA_Integrity::AMI_EchoHandler {
 public:
  bool wait_for(int replies) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return replies_ >= replies; });
  }
  int wrong() {
    std::lock_guard lock(mutex_);
    return wrong_;
  }

  void echo_long(::CORBA::Long ami_return_val) override { check("echo_long", ami_return_val == 7); }
  void twist(::CORBA::Long a, const char* s) override { check("twist", a == 42 && std::strcmp(s, "cba") == 0); }
  void split(::CORBA::Long ami_return_val, const char* name, const ::Integrity::Longs& values) override {
    check("split", ami_return_val == 3 && std::strcmp(name, "parts") == 0 && values.length() == 3 && values[2] == 3);
  }
  void refuse_excep(::Messaging::ExceptionHolder* excep_holder) override {
    try {
      excep_holder->raise_exception();
    } catch (const Integrity::Refused& e) {
      check("refuse_excep", e.code == 9 && std::strcmp(e.reason, "refused") == 0);
      return;
    } catch (...) {
    }
    check("refuse_excep", false);
  }
  void set_label() override { check("set_label", true); }
  void get_label(const char* ami_return_val) override {
    check("get_label", std::strcmp(ami_return_val, "labelled") == 0);
  }

  void echo_boolean(::CORBA::Boolean) override { unexpected("echo_boolean"); }
  void echo_octet(::CORBA::Octet) override { unexpected("echo_octet"); }
  void echo_char(::CORBA::Char) override { unexpected("echo_char"); }
  void echo_short(::CORBA::Short) override { unexpected("echo_short"); }
  void echo_ushort(::CORBA::UShort) override { unexpected("echo_ushort"); }
  void echo_ulong(::CORBA::ULong) override { unexpected("echo_ulong"); }
  void echo_longlong(::CORBA::LongLong) override { unexpected("echo_longlong"); }
  void echo_ulonglong(::CORBA::ULongLong) override { unexpected("echo_ulonglong"); }
  void echo_float(::CORBA::Float) override { unexpected("echo_float"); }
  void echo_double(::CORBA::Double) override { unexpected("echo_double"); }
  void echo_string(const char*) override { unexpected("echo_string"); }
  void echo_wstring(const ::CORBA::WChar*) override { unexpected("echo_wstring"); }
  void echo_color(::Integrity::Color) override { unexpected("echo_color"); }
  void echo_record(const ::Integrity::Record&) override { unexpected("echo_record"); }
  void echo_narecord(const ::Integrity::NARecord&) override { unexpected("echo_narecord"); }
  void echo_variant(const ::Integrity::Variant&) override { unexpected("echo_variant"); }
  void echo_matrix(const ::Integrity::Matrix) override { unexpected("echo_matrix"); }
  void echo_nested(const ::Integrity::Nested&) override { unexpected("echo_nested"); }
  void echo_octets(const ::Integrity::Octets&) override { unexpected("echo_octets"); }
  void echo_longs(const ::Integrity::Longs&) override { unexpected("echo_longs"); }
  void echo_doubles(const ::Integrity::Doubles&) override { unexpected("echo_doubles"); }
  void echo_records(const ::Integrity::Records&) override { unexpected("echo_records"); }
  void echo_narecords(const ::Integrity::NARecords&) override { unexpected("echo_narecords"); }
  void echo_strings(const ::Integrity::Strings&) override { unexpected("echo_strings"); }
  void echo_any(const ::CORBA::Any&) override { unexpected("echo_any"); }
  void refuse(::CORBA::Long) override { unexpected("refuse"); }
  void get_calls(::CORBA::ULong) override { unexpected("get_calls"); }
  void echo_boolean_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_boolean_excep"); }
  void echo_octet_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_octet_excep"); }
  void echo_char_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_char_excep"); }
  void echo_short_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_short_excep"); }
  void echo_ushort_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_ushort_excep"); }
  void echo_long_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_long_excep"); }
  void echo_ulong_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_ulong_excep"); }
  void echo_longlong_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_longlong_excep"); }
  void echo_ulonglong_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_ulonglong_excep"); }
  void echo_float_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_float_excep"); }
  void echo_double_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_double_excep"); }
  void echo_string_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_string_excep"); }
  void echo_wstring_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_wstring_excep"); }
  void echo_color_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_color_excep"); }
  void echo_record_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_record_excep"); }
  void echo_narecord_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_narecord_excep"); }
  void echo_variant_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_variant_excep"); }
  void echo_matrix_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_matrix_excep"); }
  void echo_nested_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_nested_excep"); }
  void echo_octets_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_octets_excep"); }
  void echo_longs_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_longs_excep"); }
  void echo_doubles_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_doubles_excep"); }
  void echo_records_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_records_excep"); }
  void echo_narecords_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_narecords_excep"); }
  void echo_strings_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_strings_excep"); }
  void echo_any_excep(::Messaging::ExceptionHolder*) override { unexpected("echo_any_excep"); }
  void twist_excep(::Messaging::ExceptionHolder*) override { unexpected("twist_excep"); }
  void split_excep(::Messaging::ExceptionHolder*) override { unexpected("split_excep"); }
  void get_label_excep(::Messaging::ExceptionHolder*) override { unexpected("get_label_excep"); }
  void set_label_excep(::Messaging::ExceptionHolder*) override { unexpected("set_label_excep"); }
  void get_calls_excep(::Messaging::ExceptionHolder*) override { unexpected("get_calls_excep"); }

 private:
  void unexpected(const char* operation) { check(operation, false); }
  void check(const char* operation, bool right) {
    std::lock_guard lock(mutex_);
    ++replies_;
    if (!right) {
      ++wrong_;
      std::cerr << "omni_ami_client: wrong reply to " << operation << "\n";
    }
    changed_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  int replies_ = 0;
  int wrong_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: omni_ami_client IOR [-ORB<option> <value> ...]\n";
    return 2;
  }
  const std::string ior = argv[1];
  argv[1] = argv[0];
  int orb_argc = argc - 1;
  CORBA::ORB_var orb = CORBA::ORB_init(orb_argc, argv + 1);
  int status = 1;
  try {
    CORBA::Object_var poa_object = orb->resolve_initial_references("RootPOA");
    PortableServer::POA_var poa = PortableServer::POA::_narrow(poa_object);
    PortableServer::POAManager_var manager = poa->the_POAManager();
    manager->activate();
    auto* handler = new checking_handler();
    PortableServer::ObjectId_var id = poa->activate_object(handler);
    CORBA::Object_var handler_object = poa->id_to_reference(id);
    Integrity::AMI_EchoHandler_var handler_ref = Integrity::AMI_EchoHandler::_narrow(handler_object);

    CORBA::Object_var object = orb->string_to_object(ior.c_str());
    Integrity::Echo_var echo = Integrity::Echo::_narrow(object);
    for (int i = 0; i < echo_calls; ++i) echo->sendc_echo_long(handler_ref, 7);
    echo->sendc_twist(handler_ref, 21, "abc");
    Integrity::Nested parts;
    parts.name = "parts";
    parts.values.length(3);
    for (CORBA::ULong k = 0; k < 3; ++k) parts.values[k] = static_cast<CORBA::Long>(k + 1);
    echo->sendc_split(handler_ref, parts);
    echo->sendc_refuse(handler_ref, 9);
    echo->sendc_set_label(handler_ref, "labelled");
    bool complete = handler->wait_for(echo_calls + 4);
    if (complete) {
      echo->sendc_get_label(handler_ref);
      complete = handler->wait_for(echo_calls + 5);
    }

    Integrity::AMI_EchoPoller_var poller = echo->sendp_split(parts);
    CORBA::Long count = 0;
    CORBA::String_var name;
    Integrity::Longs_var values;
    poller->split(10000, count, name.out(), values.out());
    const bool polled = count == 3 && std::strcmp(name.in(), "parts") == 0 && values->length() == 3;

    if (!complete) std::cerr << "omni_ami_client: not every reply came within 10 s\n";
    if (!polled) std::cerr << "omni_ami_client: the poller's split came back wrong\n";
    status = complete && polled && handler->wrong() == 0 ? 0 : 1;
    handler->_remove_ref();
  } catch (const CORBA::Exception& e) {
    std::cerr << "omni_ami_client: " << e._name() << "\n";
  }
  orb->destroy();
  if (status == 0) std::cout << "omni_ami_client: every reply right\n";
  return status;
}
