#include "idl_compiler/cxx_operation_tables.h"

#include "idl_compiler/cxx_emitter.h"
#include "idl_compiler/cxx_types.h"
#include "idl_compiler/fast_lookup_driver.h"
#include "idl_compiler/gperf_driver.h"

namespace switchyard::idl::cxx {

namespace {

constexpr std::string_view perfect_hash_template = R"(
// ${hash} over the operation names of ${interface}.
namespace {
${lookup_class}}  // namespace

)";

constexpr std::string_view tables_template = R"(
const ::switchyard::operation_info ${skeleton}::_operations[] = {
    ${operations}
};

const std::string_view ${skeleton}::_repository_ids[] = {
    ${repository_ids}};

${perfect_lookup}
const ::switchyard::interface_info ${skeleton}::_info{
    ${repository_id}, _repository_ids,
    std::span<const ::switchyard::operation_info>(_operations, ${operation_count}),
    ${perfect_lookup_pointer}};
)";

constexpr std::string_view perfect_lookup_template = R"(
int ${skeleton}::_perfect_lookup(const char* name, std::size_t length) noexcept {
  return ::${lookup_class}::index_of(name, length);
}

)";

// "Hello_Greeter_operation_lookup" for ::Hello::Greeter.
std::string lookup_class_name(const Interface& interface) {
  std::string flat = qualified(interface).substr(2);
  for (std::size_t p; (p = flat.find("::")) != std::string::npos;) flat.replace(p, 2, "_");
  return flat + "_operation_lookup";
}

}  // namespace

std::optional<OperationTables> operation_tables(const Interface& interface, const std::vector<OperationEntry>& entries,
                                                const OperationTableOptions& options, std::string& error) {
  const std::string skeleton = relative_name(interface) + "_skeleton";
  OperationTables out;
  std::string perfect_lookup;
  if (options.perfect_hash) {
    std::vector<std::string> names;
    for (const OperationEntry& e : entries) names.push_back(e.wire_name);
    const std::string lookup_class = lookup_class_name(interface);
    const auto code = options.fast_perfect_hash ? make_fast_lookup(lookup_class, names, error)
                                                : make_gperf_lookup(options.gperf, lookup_class, names, error);
    if (!code) return std::nullopt;
    out.lookups = fill(perfect_hash_template,
                       {{"hash", options.fast_perfect_hash ? "The perfect-fast hash" : "gperf's perfect hash"},
                        {"interface", interface.scoped_name()},
                        {"lookup_class", *code}});
    perfect_lookup = fill(perfect_lookup_template, {{"skeleton", skeleton}, {"lookup_class", lookup_class}});
  }
  std::string operations;
  for (const OperationEntry& e : entries)
    operations += "{\"" + e.wire_name + "\", &" + skeleton + "::" + e.dispatch_name + "},\n";
  if (entries.empty()) operations = "{\"\", nullptr},\n";
  std::string repository_ids = string_literal(interface.repository_id);
  for (const Interface* a : ancestors_of(interface)) repository_ids += ",\n    " + string_literal(a->repository_id);
  out.tables =
      fill(tables_template, {{"skeleton", skeleton},
                             {"operations", operations},
                             {"repository_ids", repository_ids},
                             {"perfect_lookup", perfect_lookup},
                             {"repository_id", string_literal(interface.repository_id)},
                             {"operation_count", std::to_string(entries.size())},
                             {"perfect_lookup_pointer", options.perfect_hash ? "&_perfect_lookup" : "nullptr"}});
  return out;
}

}  // namespace switchyard::idl::cxx
