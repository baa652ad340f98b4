// The subcommands. Each takes its arguments after the subcommand name and returns the exit
// status; progress goes to stderr, results to --out DIR.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace switchyard::bench {

int demux_main(std::vector<std::string> args);
int latency_main(std::vector<std::string> args);
int ttcp_main(std::vector<std::string> args);
int handshake_main(std::vector<std::string> args);
int soak_main(std::vector<std::string> args);
int load_main(std::vector<std::string> args);
int report_main(std::vector<std::string> args);

// Draws the plots and writes summary.md for what DIR holds (benchmarks/report/sy_bench_report.py
// under /usr/bin/python3). Returns false (with a note on stderr) when it could not.
bool run_report(const std::filesystem::path& dir);

}  // namespace switchyard::bench
