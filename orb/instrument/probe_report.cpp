// Snapshots merged and turned into reports: rows, the text table, CSV, and CSV read back.
#include <switchyard/instrument.h>

#include <charconv>
#include <cmath>
#include <string>

#include <switchyard/exception.h>

namespace switchyard::instrument {

probe_snapshot& probe_snapshot::operator+=(const probe_snapshot& other) noexcept {
  for (std::size_t l = 0; l < layer_count; ++l) {
    for (std::size_t s = 0; s < strategy_count; ++s) {
      cells[l][s].calls += other.cells[l][s].calls;
      cells[l][s].ticks += other.cells[l][s].ticks;
    }
  }
  return *this;
}

std::uint64_t probe_snapshot::total_calls() const noexcept {
  std::uint64_t sum = 0;
  for (const auto& row : cells) {
    for (const probe_cell& cell : row) sum += cell.calls;
  }
  return sum;
}

tick_count probe_snapshot::total_ticks() const noexcept {
  tick_count sum = 0;
  for (const auto& row : cells) {
    for (const probe_cell& cell : row) sum += cell.ticks;
  }
  return sum;
}

std::vector<probe_row> make_rows(const probe_snapshot& snapshot, double ns_per_tick) {
  std::vector<probe_row> rows;
  rows.reserve(layer_count * strategy_count);
  const double all_ticks = static_cast<double>(snapshot.total_ticks());
  for (std::size_t l = 0; l < layer_count; ++l) {
    const std::size_t first = rows.size();
    for (std::size_t s = 0; s < strategy_count; ++s) {
      const probe_cell& cell = snapshot.cells[l][s];
      if (cell.calls == 0) continue;
      const double ns = static_cast<double>(cell.ticks) * ns_per_tick;
      rows.push_back({static_cast<layer>(l), static_cast<strategy>(s), cell.calls, ns / 1000.0,
                      ns / static_cast<double>(cell.calls),
                      all_ticks > 0 ? 100.0 * static_cast<double>(cell.ticks) / all_ticks : 0.0});
    }
    // A layer never timed still gets its line, so every report has the same shape.
    if (rows.size() == first) rows.push_back({static_cast<layer>(l), strategy::none, 0, 0, 0, 0});
  }
  return rows;
}

namespace {

void append_format(std::string& out, const char* format, auto... values) {
  char line[160];
  int length = std::snprintf(line, sizeof line, format, values...);
  if (length > 0) out.append(line, static_cast<std::size_t>(std::min<int>(length, sizeof line - 1)));
}

}  // namespace

std::string format_table(const probe_snapshot& snapshot, double ns_per_tick) {
  std::vector<probe_row> rows = make_rows(snapshot, ns_per_tick);
  std::string out;
  append_format(out, "%-16s %-8s %12s %14s %12s %8s\n", "layer", "strategy", "calls", "total_us", "mean_ns", "share_%");
  std::uint64_t calls = 0;
  double total_us = 0;
  double share = 0;
  for (const probe_row& row : rows) {
    append_format(out, "%-16s %-8s %12llu %14.3f %12.1f %8.2f\n", std::string(to_string(row.row_layer)).c_str(),
                  std::string(to_string(row.row_strategy)).c_str(), static_cast<unsigned long long>(row.calls),
                  row.total_us, row.mean_ns, row.share_percent);
    calls += row.calls;
    total_us += row.total_us;
    share += row.share_percent;
  }
  append_format(out, "%-16s %-8s %12llu %14.3f %12s %8.2f\n", "total", "", static_cast<unsigned long long>(calls),
                total_us, "", share);
  return out;
}

namespace {
constexpr std::string_view csv_header = "layer,strategy,calls,total_us,mean_ns,share_pct";
}

std::string format_csv(const probe_snapshot& snapshot, double ns_per_tick) {
  std::string out(csv_header);
  out += '\n';
  for (const probe_row& row : make_rows(snapshot, ns_per_tick)) {
    append_format(out, "%s,%s,%llu,%.3f,%.1f,%.2f\n", std::string(to_string(row.row_layer)).c_str(),
                  std::string(to_string(row.row_strategy)).c_str(), static_cast<unsigned long long>(row.calls),
                  row.total_us, row.mean_ns, row.share_percent);
  }
  return out;
}

namespace {

[[noreturn]] void csv_error(std::size_t line_number, std::string_view what) {
  throw SystemException(SystemExceptionKind::BAD_PARAM, 0, CompletionStatus::no,
                        "instrument CSV line " + std::to_string(line_number) + ": " + std::string(what));
}

template <typename Number>
Number parse_number(std::string_view field, std::size_t line_number, std::string_view column) {
  Number value{};
  auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (field.empty() || error != std::errc() || end != field.data() + field.size()) {
    csv_error(line_number, std::string(column) + " is not a number: \"" + std::string(field) + "\"");
  }
  if constexpr (std::is_floating_point_v<Number>) {
    if (!std::isfinite(value) || value < 0) {
      csv_error(line_number, std::string(column) + " must be finite and not negative: \"" + std::string(field) + "\"");
    }
  }
  return value;
}

}  // namespace

std::vector<probe_row> parse_csv(std::string_view text) {
  std::vector<probe_row> rows;
  std::size_t line_number = 0;
  bool header_seen = false;
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (!header_seen) {
      if (line != csv_header) csv_error(line_number, "expected the header \"" + std::string(csv_header) + "\"");
      header_seen = true;
      continue;
    }
    std::array<std::string_view, 6> fields;
    std::size_t count = 0;
    for (;;) {
      std::size_t comma = line.find(',');
      if (count == fields.size()) csv_error(line_number, "more than 6 fields");
      fields[count++] = line.substr(0, comma);
      if (comma == std::string_view::npos) break;
      line.remove_prefix(comma + 1);
    }
    if (count != fields.size()) csv_error(line_number, "expected 6 fields, found " + std::to_string(count));
    probe_row row;
    auto parsed_layer = try_parse_layer(fields[0]);
    if (!parsed_layer) csv_error(line_number, "unknown layer \"" + std::string(fields[0]) + "\"");
    auto parsed_strategy = try_parse_strategy(fields[1]);
    if (!parsed_strategy) csv_error(line_number, "unknown strategy \"" + std::string(fields[1]) + "\"");
    row.row_layer = *parsed_layer;
    row.row_strategy = *parsed_strategy;
    row.calls = parse_number<std::uint64_t>(fields[2], line_number, "calls");
    row.total_us = parse_number<double>(fields[3], line_number, "total_us");
    row.mean_ns = parse_number<double>(fields[4], line_number, "mean_ns");
    row.share_percent = parse_number<double>(fields[5], line_number, "share_pct");
    if (row.share_percent > 100.0 + 1e-6) csv_error(line_number, "share_pct above 100");
    rows.push_back(row);
  }
  if (!header_seen) csv_error(line_number, "empty input, expected the header \"" + std::string(csv_header) + "\"");
  return rows;
}

std::string format_report(const probe_snapshot& snapshot, dump_format format) {
  const double ns_per_tick = nanoseconds_per_tick();
  if (format == dump_format::csv) return format_csv(snapshot, ns_per_tick);
  char title[160];
  std::snprintf(title, sizeof title, "# switchyard request-path profile (clock %.*s, %.4f ns per tick%s)\n",
                static_cast<int>(clock_name().size()), clock_name().data(), ns_per_tick,
                probes_compiled_in ? "" : ", probes compiled out");
  return title + format_table(snapshot, ns_per_tick);
}

bool dump(const probe_snapshot& snapshot, std::FILE* out, dump_format format) {
  if (out == nullptr) return false;
  std::string text = format_report(snapshot, format);
  return std::fwrite(text.data(), 1, text.size(), out) == text.size() && std::fflush(out) == 0;
}

}  // namespace switchyard::instrument
