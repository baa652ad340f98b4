#include "orb/giop/service_context.h"

#include "switchyard/exception.h"

namespace switchyard::giop {

service_context_list read_service_context_list(cdr::input_stream& in) {
  // Each entry is at least 8 octets (id, length), so the count is bounded by what is left.
  std::uint32_t count = in.read_length(8);
  in.align(4);
  std::size_t origin_offset = in.aligned_position();
  const std::byte* start = in.current();
  const std::size_t end = in.end_position();
  for (std::uint32_t i = 0; i < count; ++i) {
    in.read_ulong();
    std::uint32_t length = in.read_length(1);
    in.skip(length);
  }
  // The list is kept as a view of its octets: one a GIOP 1.1 Fragment boundary cuts (the end
  // moved on) would read other values from it.
  if (in.end_position() != end) [[unlikely]]
    in.throw_marshal(minor::split_between_chunks, "a service context list split between GIOP 1.1 fragments");
  return service_context_list({start, static_cast<std::size_t>(in.current() - start)}, count, in.order(),
                              origin_offset);
}

void write_service_context_list(cdr::output_stream& out, std::span<const service_context> contexts) {
  out.write_ulong(static_cast<std::uint32_t>(contexts.size()));
  for (const service_context& context : contexts) {
    std::byte* p = out.reserve_aligned(4, 8);
    cdr::store(p, context.id);
    cdr::store(p + 4, static_cast<std::uint32_t>(context.data.size()));
    out.write_octets(context.data.data(), context.data.size());
  }
}

}  // namespace switchyard::giop
