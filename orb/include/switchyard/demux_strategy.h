// The four demultiplexing strategies an object adapter chooses between, for servants (object key
// to servant) and for operations (name to skeleton). TAO paper, section 5.3 and figure 30.
#pragma once

namespace switchyard {

enum class demux_strategy {
  linear,   // scan the entries in order
  dynamic,  // hash table (boost::unordered_flat_map)
  perfect,  // perfect hash: gperf over keys known at build time, or built at run time
  active,   // the request carries the index; checked by a generation count or the name
};

}  // namespace switchyard
