// The fairyzero command line, declared once: every subcommand with its positionals and options
// (type, range, help), parsed by CLI11, with --help generated from the declarations.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace fairyzero {

// Parses argv, runs the subcommand and returns the process exit status: 0, 1 for an error the
// command reports, 2 for a command line that is wrong (the message and a pointer to --help).
int run_command_line(int argc, const char* const* argv);

// Each subcommand's name and the options it declares (for tests and documentation).
struct CommandOptions {
  std::string name;
  std::vector<std::string> options;  // "--visits", ...
};
std::vector<CommandOptions> declared_commands();

}  // namespace fairyzero
