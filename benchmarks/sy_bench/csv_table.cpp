#include "benchmarks/sy_bench/csv_table.h"

#include <fstream>
#include <stdexcept>

namespace switchyard::bench {

void csv_table::write(const std::filesystem::path& path) const {
  auto temporary = path;
  temporary += ".tmp";
  {
    std::ofstream out(temporary);
    if (!out) throw std::runtime_error("cannot write " + temporary.string());
    auto line = [&](const std::vector<std::string>& fields) {
      for (std::size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << fields[i];
      out << '\n';
    };
    line(columns);
    for (auto& row : rows) line(row);
    if (!out.flush()) throw std::runtime_error("cannot write " + temporary.string());
  }
  std::filesystem::rename(temporary, path);
}

}  // namespace switchyard::bench
