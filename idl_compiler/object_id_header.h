// syidl --object-ids: a list of object ids (known at build time) to a C++ header with two
// perfect-hash lookups over them, gperf's (NAME) and the perfect-fast hash's (NAME_fast, written by
// demux/fast_lookup_source.h), each with a switchyard::object_id_table constant (NAME_table,
// NAME_fast_table) for an object adapter whose servant demultiplexing is `perfect`
// (docs/using.md). Includes the standard library, cxx_emitter.h, gperf_driver.h and demux's
// generator (standard library only); the generated header includes <switchyard/object_id_table.h>.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace switchyard::idl {

// The list format (the same as demux/gperf_lookup.py's): one id per line, in list order (index 0,
// 1, ...); escapes \\ \n \r \t \0 \xNN so that any byte can be written; a line holding only ""
// is the empty id; blank lines and lines starting with # are skipped (\x23 for an id starting
// with #); a trailing \r (CRLF files) is dropped.
// The ids, or nullopt after writing "path:line: error: ..." lines to `errors` (bad escape,
// duplicate id; "path: error: ..." when the file cannot be read).
std::optional<std::vector<std::string>> read_object_id_list(const std::string& path, std::ostream& errors);

struct ObjectIdHeaderOptions {
  std::string list_path;
  std::string output_path;
  std::string name;        // the lookup struct; the table is NAME_table
  std::string name_space;  // empty, or "a" / "a::b"
  std::string gperf;       // find_gperf() when empty
};

// Reads the list, runs gperf, writes the header. 0 on success, 1 after an error message.
int generate_object_id_header(const ObjectIdHeaderOptions& options, std::ostream& errors);

// The header's text for `ids` (exposed for tests); nullopt and `error` set when gperf fails.
std::optional<std::string> object_id_header_text(const ObjectIdHeaderOptions& options,
                                                 const std::vector<std::string>& ids, std::string& error);

}  // namespace switchyard::idl
