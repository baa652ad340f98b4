// Sample values of the generated Integrity types, shared by the dynamic tests.
#pragma once

#include "integrity.h"

inline Integrity::Record sample_record() { return {-7, 3.5, -2, 200, 0.5f, 'c', true}; }
inline Integrity::NARecord sample_narecord() { return {9, -0.125, 'n', -99999999999LL, 77}; }

inline Integrity::Records sample_records() {
  Integrity::Records records;
  for (int k = 0; k < 5; ++k)
    records.push_back({k, k / 4.0, static_cast<std::int16_t>(-k), static_cast<std::uint8_t>(k * 50), k * 0.5f,
                       static_cast<char>('a' + k), k % 2 == 0});
  return records;
}

inline Integrity::Nested sample_nested() {
  Integrity::Nested n;
  n.name = "nested";
  n.values = {1, -2, 3};
  n.tint = Integrity::Color::blue;
  n.choice.s("chosen");
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) n.grid[r][c] = r * 10 + c;
  n.few = {Integrity::Record{1, 2.5, 3, 4, 5.5f, 'r', true}, Integrity::Record{-1, -2.5, -3, 0, 0.25f, 'z', false}};
  return n;
}
