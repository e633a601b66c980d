// The balance report: OUT_DIR/report.md and OUT_DIR/report.html (self-contained, images linked
// as files) with one column per variant and strength, OUT_DIR/balance.json (the statistics, read
// by scripts/plot_balance.py for the PNG plots) and OUT_DIR/games.jsonl (every game's record).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "training/balance/balance.h"
#include "training/balance/balance_games.h"

namespace fairyzero {

// One column of the report: a variant played at one strength.
struct BalanceColumn {
  BalanceSetup setup;
  BalanceStats stats;
  std::string label() const { return stats.variant + " " + stats.strength; }
};

struct BalanceReportSettings {
  std::string command;  // the command line, quoted in the report
  std::string date;     // when the games were played
  BalanceConfig config;
  // How the games came to be when they were not played by the balance tool (records of training
  // runs); empty: played with `config`.
  std::string source;
  // Columns (BalanceColumn::label()) whose games an earlier run of the command played, kept by
  // `balance --resume`; the report says so.
  std::vector<std::string> resumed_columns;
  bool plots = true;                        // run the plot script
  std::string python = "/usr/bin/python3";  // falls back to "python3" on PATH when missing
  std::string plot_script;  // empty: scripts/plot_balance.py in the working or source folder
};

struct BalanceReportFiles {
  std::string markdown, html, data;
  std::vector<std::string> plots;  // the PNG files the report shows
  std::string plot_problem;        // why there are no plots, or empty
};

// Writes balance.json, runs the plots (a failure is reported in the result and in the report,
// not thrown), then report.md and report.html. Throws std::runtime_error naming a file that
// cannot be written.
BalanceReportFiles write_balance_report(const std::string& out_dir,
                                        const std::vector<BalanceColumn>& columns,
                                        const BalanceReportSettings& settings);

// The statistics as JSON (the plot script's input; schema in docs/BALANCE.md).
std::string balance_json(const std::vector<BalanceColumn>& columns);
// One game as one line of JSON (games.jsonl).
std::string game_json(const BalanceGame& game);
// Appends games to a JSON-lines file; throws std::runtime_error naming the file on failure.
void append_games_jsonl(const std::string& path, std::span<const BalanceGame> games);
// One line of games.jsonl read back; throws nlohmann::json's errors or std::invalid_argument.
BalanceGame game_from_json(const std::string& line);
// Every game of a games.jsonl file; throws UserError naming the file and line of a bad record.
std::vector<BalanceGame> read_games_jsonl(const std::string& path);

// The report's text, for writing or testing. `plots` are file names relative to the report.
std::string balance_markdown(const std::vector<BalanceColumn>& columns,
                             const BalanceReportSettings& settings,
                             const std::vector<std::string>& plots,
                             const std::string& plot_problem);
std::string balance_html(const std::vector<BalanceColumn>& columns,
                         const BalanceReportSettings& settings,
                         const std::vector<std::string>& plots, const std::string& plot_problem);

}  // namespace fairyzero
