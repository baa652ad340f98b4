// syidl C++ back end: the tables the object adapter dispatches an interface's requests with, in
// X.cpp (docs/idl.md, "The operation table, and -H"). Every interface has the operation list
// (names and dispatch functions, in table order: the index active demultiplexing sends), its
// repository ids (for _is_a) and the interface_info that joins them; -H all and perfect add a
// perfect hash over the operation names, made by gperf at generation time (gperf_driver.h).
// Another form of lookup is one more function here (or in a file of its own, like
// gperf_driver), called from operation_tables(), and one more field of interface_info. May
// include ast.h, gperf_driver.h and the cxx_* headers below it (emitter, types, interfaces).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "idl_compiler/ast.h"
#include "idl_compiler/cxx_interfaces.h"

namespace switchyard::idl::cxx {

struct OperationTableOptions {
  bool perfect_hash = true;        // -H all, perfect or perfect-fast
  bool fast_perfect_hash = false;  // -H perfect-fast: the perfect-fast hash instead of gperf's
  std::string gperf;               // the gperf to run, when perfect_hash and not fast_perfect_hash
};

// The interface's tables. `lookups` is code for namespace scope outside every namespace (the
// gperf class), `tables` the definitions for the interface's namespace.
struct OperationTables {
  std::string lookups;
  std::string tables;
};

// nullopt with `error` set when gperf fails.
std::optional<OperationTables> operation_tables(const Interface& interface, const std::vector<OperationEntry>& entries,
                                                const OperationTableOptions& options, std::string& error);

}  // namespace switchyard::idl::cxx
