// A table of strings written as CSV (no quoting needed: our fields hold no commas) and read back.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace switchyard::bench {

struct csv_table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;

  void add(std::vector<std::string> row) { rows.push_back(std::move(row)); }
  // Writes to path.tmp, then renames (a reader never sees half a file).
  void write(const std::filesystem::path& path) const;
};

}  // namespace switchyard::bench
