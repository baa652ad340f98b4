// paired_design.h: the carry-over balance of the visiting orders, and the mode labels.
#include "benchmarks/sy_bench/paired_design.h"

#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>

using namespace switchyard::bench;

namespace {

// How often b comes right after a, over the rows.
std::map<std::pair<int, int>, int> adjacent_pairs(const std::vector<std::vector<std::uint8_t>>& rows) {
  std::map<std::pair<int, int>, int> count;
  for (auto& row : rows)
    for (std::size_t i = 1; i < row.size(); ++i) ++count[{row[i - 1], row[i]}];
  return count;
}

}  // namespace

TEST_CASE("a Williams design puts every treatment right after every other equally often", "[paired]") {
  for (std::size_t n : {1u, 2u, 3u, 4u, 5u, 8u, 9u}) {
    auto rows = williams_rows(n);
    CHECK(rows.size() == (n % 2 == 0 ? n : 2 * n));
    for (auto& row : rows) CHECK(std::set<std::uint8_t>(row.begin(), row.end()).size() == n);  // each once
    auto count = adjacent_pairs(rows);
    CHECK(count.size() == n * (n - 1));  // every ordered pair of two different treatments
    for (auto& [pair, times] : count) {
      CHECK(pair.first != pair.second);
      CHECK(times == (n % 2 == 0 ? 1 : 2));
    }
    // Every treatment in every position equally often.
    for (std::size_t position = 0; position < n; ++position) {
      std::map<int, int> at;
      for (auto& row : rows) ++at[row[position]];
      CHECK(at.size() == n);
      for (auto& [t, times] : at) CHECK(times == static_cast<int>(rows.size() / n));
    }
  }
  CHECK_THROWS(williams_rows(0));
}

TEST_CASE("balanced orders stay balanced cycle by cycle, relabelled at random", "[paired]") {
  balanced_order order(9, 42);
  REQUIRE(order.cycle_length() == 18);
  std::set<std::vector<std::uint8_t>> first_rows;
  for (int cycle = 0; cycle < 5; ++cycle) {
    std::vector<std::vector<std::uint8_t>> rows;
    for (std::size_t i = 0; i < order.cycle_length(); ++i) rows.push_back(order.next());
    for (auto& [pair, times] : adjacent_pairs(rows)) CHECK(times == 2);
    CHECK(adjacent_pairs(rows).size() == 72);
    first_rows.insert(rows.front());
  }
  CHECK(first_rows.size() > 1);  // the cycles differ
}

TEST_CASE("a machine with two modes gets two labels; a steady one gets one", "[paired]") {
  std::mt19937 random(3);
  std::normal_distribution<double> jitter(0, 0.3);
  std::vector<double> series, truth;
  // Alternating stretches of 20 us and 27 us round trips, with single-sample outliers.
  for (int stretch = 0; stretch < 8; ++stretch)
    for (int i = 0; i < 400; ++i) {
      double level = stretch % 2 == 0 ? 20 : 27;
      series.push_back(i % 97 == 5 ? 300 : level + jitter(random));
      truth.push_back(stretch % 2);
    }
  auto labels = label_modes(series);
  REQUIRE(labels.two_modes);
  CHECK(labels.fast_median_us == Approx(20).margin(0.5));
  CHECK(labels.slow_median_us == Approx(27).margin(0.5));
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < series.size(); ++i) wrong += labels.slow[i] != truth[i];
  CHECK(wrong < series.size() / 50);  // only near the switches

  std::vector<double> steady;
  for (int i = 0; i < 3000; ++i) steady.push_back(i % 53 == 0 ? 80 : 5 + jitter(random) * 0.2);
  auto one = label_modes(steady);
  CHECK_FALSE(one.two_modes);
  for (auto s : one.slow) CHECK(s == 0);
  CHECK_FALSE(label_modes({}).two_modes);
}
