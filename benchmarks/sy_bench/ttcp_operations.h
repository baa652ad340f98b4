// The ttcp operations of a servant of a syidl-generated skeleton (ttcp_bench.idl and the demux
// experiment's ttcp_demux_<K>, which repeat them): each counts the request and its elements,
// nothing else, as bench_servant (bench_interface.h) does for the interface described at run
// time. A template over the skeleton because syidl flattens inherited operations into each
// interface's skeleton; write_demux_idl.py's servants add op_0..op_{K-1}.
#pragma once

#include <cstdint>
#include <span>

#include "ttcp_bench.h"  // syidl, from ttcp_bench.idl (ShortSeq, ...; ttcp_sequence's StructSeq)

namespace switchyard::bench {

template <class Skeleton>
class ttcp_operations : public Skeleton {
 public:
  void sendStructSeq_2way(const ::ttcp_sequence::StructSeq& s) override { count(s.size()); }
  void sendOctetSeq_2way(std::span<const std::uint8_t> s) override { count(s.size()); }
  void sendNoParams_2way() override { count(0); }
  void sendNoParams_1way() override { count(0); }
  void sendShortSeq_2way(const ::ttcp_bench::ShortSeq& s) override { count(s.size()); }
  void sendLongSeq_2way(const ::ttcp_bench::LongSeq& s) override { count(s.size()); }
  void sendDoubleSeq_2way(const ::ttcp_bench::DoubleSeq& s) override { count(s.size()); }
  void sendCharSeq_2way(const ::ttcp_bench::CharSeq& s) override { count(s.size()); }
  void sendShortSeq(const ::ttcp_bench::ShortSeq& s) override { count(s.size()); }
  void sendLongSeq(const ::ttcp_bench::LongSeq& s) override { count(s.size()); }
  void sendDoubleSeq(const ::ttcp_bench::DoubleSeq& s) override { count(s.size()); }
  void sendCharSeq(const ::ttcp_bench::CharSeq& s) override { count(s.size()); }
  void sendOctetSeq(std::span<const std::uint8_t> s) override { count(s.size()); }
  void sendStructSeq(const ::ttcp_sequence::StructSeq& s) override { count(s.size()); }
  void start_timer() override { count(0); }
  void stop_timer() override { count(0); }

  std::uint64_t requests = 0;
  std::uint64_t elements = 0;

 protected:
  void count(std::size_t n) noexcept {
    ++requests;
    elements += n;
  }
};

}  // namespace switchyard::bench
