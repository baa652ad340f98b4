// Graphs of values.idl's Node for the tests of generated values and their servers: a 3-cycle made
// and recognised, and the links of a graph broken so that it is freed (LeakSanitizer checks).
#pragma once

#include <algorithm>
#include <vector>

#include "values.h"

namespace test {

// Breaks every `next` link reachable from `start` (a cyclic graph is freed once its holders go).
inline void unlink_nodes(const switchyard::value_ref<Values::Node>& start) {
  std::vector<switchyard::value_ref<Values::Node>> seen;
  for (auto n = start; n && seen.size() < 10000; n = n->next()) {
    if (std::find(seen.begin(), seen.end(), n) != seen.end()) break;
    seen.push_back(n);
  }
  for (auto& n : seen) n->next(nullptr);
}

// Nodes 1 -> 2 -> 3 -> 1.
inline switchyard::value_ref<Values::Node> three_cycle() {
  switchyard::value_ref<Values::Node> a = new Values::OBV_Node(1, nullptr), b = new Values::OBV_Node(2, nullptr),
                                      c = new Values::OBV_Node(3, nullptr);
  a->next(b);
  b->next(c);
  c->next(a);
  return a;
}

// Whether `a` is what three_cycle() makes (after a trip: the same ids and shape).
inline bool is_three_cycle(const switchyard::value_ref<Values::Node>& a) {
  return a && a->id() == 1 && a->next() && a->next()->id() == 2 && a->next()->next() && a->next()->next()->id() == 3 &&
         a->next()->next()->next() == a;
}

}  // namespace test
