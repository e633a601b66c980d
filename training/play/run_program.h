// External programs (the plot scripts) run from an argument vector, never through a shell, so
// no path needs quoting.
#pragma once

#include <string>
#include <vector>

namespace fairyzero {

// Runs argv[0] (looked up in PATH when it has no '/') with the arguments argv[1..], standard
// output and error written to `log_file` (truncated), and waits for it. Returns its exit status;
// 127 when it could not be started, 128 + N when signal N ended it.
int run_program(const std::vector<std::string>& argv, const std::string& log_file);

}  // namespace fairyzero
