// fairyzero: one executable, one subcommand per job, declared in command_line.cpp. Errors are
// caught there, once.
#include "apps/command_line.h"

int main(int argc, char** argv) { return fairyzero::run_command_line(argc, argv); }
