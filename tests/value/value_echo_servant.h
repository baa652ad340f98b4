// Values::ValueEcho as tests/value/values.idl says, on generated code: the in-process end-to-end
// tests (tests/value) and the server omniORB's client calls (tests/interop/sy_value_server).
#pragma once

#include <algorithm>
#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "tests/value/node_graphs.h"
#include "values.h"

namespace test {

// Label has an operation (name(), from the abstract Named): implemented here, and registered
// as the factory for Label's id by whoever uses it (register_label_factory).
class label_impl : public Values::Label {
 public:
  label_impl() = default;
  explicit label_impl(std::string text) { this->text(std::move(text)); }
  std::string name() override { return text(); }
};

inline void register_label_factory() {
  switchyard::register_value_factory(Values::Label::_static_repository_id(),
                                     std::make_shared<switchyard::default_value_factory<label_impl>>());
}

// Caption supports the abstract interface Describable: describe() is implemented here, and
// registered the same way (register_caption_factory).
class caption_impl : public Values::Caption {
 public:
  caption_impl() = default;
  explicit caption_impl(std::string text) { this->text(std::move(text)); }
  std::string describe() override { return "caption: " + text(); }
};

inline void register_caption_factory() {
  switchyard::register_value_factory(Values::Caption::_static_repository_id(),
                                     std::make_shared<switchyard::default_value_factory<caption_impl>>());
}

struct value_echo_servant final : Values::ValueEcho_skeleton {
  std::function<void()> on_shutdown;
  std::atomic<int> served{0};

  // The graphs echoed: they may be cyclic, so the servant unlinks them when it goes (the reply
  // is written after an operation returns, so it cannot do so sooner).
  ~value_echo_servant() override {
    for (auto& n : held_) unlink_nodes(n);
  }

  switchyard::value_ref<Values::Node> echo_node(const switchyard::value_ref<Values::Node>& n) override {
    ++served;
    hold(n);
    return n;
  }
  Values::Pair echo_pair(const Values::Pair& p) override {
    ++served;
    hold(p.first);
    hold(p.second);
    return p;
  }
  Values::NodeSeq echo_nodes(const Values::NodeSeq& nodes) override {
    ++served;
    for (const auto& n : nodes) hold(n);
    return nodes;
  }
  switchyard::value_ref<Values::Text> echo_text(const switchyard::value_ref<Values::Text>& t) override {
    ++served;
    return t;
  }
  switchyard::value_ref<Values::BoxedPoint> echo_point(const switchyard::value_ref<Values::BoxedPoint>& p) override {
    ++served;
    return p;
  }
  switchyard::value_ref<Values::Base> echo_base(const switchyard::value_ref<Values::Base>& b) override {
    ++served;
    return b;
  }
  switchyard::any echo_any(const switchyard::any& a) override {
    ++served;
    return a;
  }
  std::string type_of(const switchyard::value_ref<Values::Base>& b) override {
    ++served;
    return b ? std::string(b->_repository_id()) : std::string();
  }
  switchyard::value_ref<Values::Base> make_derived() override {
    ++served;
    return new Values::OBV_Derived(7, "made", new Values::OBV_Node(8, nullptr));
  }
  std::string describe() override { return "ValueEcho"; }
  Values::Describable echo_describable(const Values::Describable& d) override {
    ++served;
    return d;
  }
  std::string describe_here(const Values::Describable& d) override {
    ++served;
    // A reference is not called back: the reactive server would wait on itself.
    if (d._is_object()) return "a reference";
    return d ? Values::Describable(d).describe() : std::string();
  }
  void shutdown() override {
    if (on_shutdown) on_shutdown();
  }

 private:
  void hold(const switchyard::value_ref<Values::Node>& n) {
    if (!n) return;
    std::lock_guard lock(mutex_);
    held_.push_back(n);
  }
  std::mutex mutex_;
  std::vector<switchyard::value_ref<Values::Node>> held_;
};

}  // namespace test
