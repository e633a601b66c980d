// What the arena tests share: a temporary folder, a match between two players, and the check
// that every game of a result was recorded.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/variant_loader.h"
#include "training/arena/arena.h"

namespace fairyzero::arena_testing {
namespace fs = std::filesystem;

inline const char* kFairyStockfish = "/usr/games/fairy-stockfish";

class TempDir {
 public:
  TempDir() {
    path_ =
        fs::temp_directory_path() / ("fairyzero-arena-" + std::to_string(std::random_device{}()));
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

inline ArenaConfig config_for(const std::string& variant, const std::string& first,
                              const std::string& second, int games) {
  ArenaConfig config;
  config.variant = find_variant(variant);
  config.players = {parse_player_spec(first), parse_player_spec(second)};
  config.games = games;
  config.default_visits = 16;
  config.max_plies = 200;
  return config;
}

inline std::string tag_of(const std::string& record, const std::string& tag) {
  size_t at = record.find("[" + tag + " \"");
  if (at == std::string::npos) return "";
  at += tag.size() + 3;
  return record.substr(at, record.find('"', at) - at);
}

// Every game has its record file and results.csv row, and they agree with the result.
inline void expect_recorded(const ArenaConfig& config, const ArenaResult& result) {
  std::vector<std::string> rows = lines_of(config.out_dir + "/results.csv");
  ASSERT_EQ(rows.size(), result.games.size() + 1) << "header plus one row per game";
  const ArenaSides sides = arena_sides(*config.variant);
  EXPECT_EQ(rows[0].rfind("game,pair," + sides.names[0] + "," + sides.names[1] +
                              ",result,first_score,termination",
                          0),
            0u);
  for (const ArenaGame& game : result.games) {
    char name[32];
    std::snprintf(name, sizeof name, "/games/%04d.pgn", game.index + 1);
    std::string record = read_text(config.out_dir + name);
    ASSERT_FALSE(record.empty()) << name;
    // Counted as the statistics count it: a share between a quarter and three quarters draws.
    std::string expected = game.side_score[0] > 0.75   ? "1-0"
                           : game.side_score[0] < 0.25 ? "0-1"
                                                       : "1/2-1/2";
    EXPECT_EQ(tag_of(record, "Result"), expected) << record;
    EXPECT_EQ(record.substr(record.size() - expected.size() - 1), expected + "\n");
    EXPECT_EQ(tag_of(record, "Termination"), game.termination);
    EXPECT_EQ(tag_of(record, "PlyCount"), std::to_string(game.moves.size()));
    // Each seat's tag names the player of its side (its team in a four-seat game).
    for (int seat = 0; seat < config.variant->seat_count(); ++seat) {
      std::string name = config.variant->seats[seat].name;
      name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
      const int player = sides.side_of_seat[seat] == game.side_of_first ? 0 : 1;
      EXPECT_EQ(tag_of(record, name), config.players[player].name) << name << "\n" << record;
    }
    EXPECT_DOUBLE_EQ(game.first_score, game.side_score[game.side_of_first]);
    bool row_found = false;
    for (const std::string& row : rows)
      row_found = row_found || row.rfind(std::to_string(game.index + 1) + "," +
                                             std::to_string(game.pair + 1) + ",",
                                         0) == 0;
    EXPECT_TRUE(row_found) << "results.csv row of game " << game.index + 1;
  }
  EXPECT_NE(read_text(config.out_dir + "/summary.txt").find("Elo difference"), std::string::npos);
  // summary.json: the same counts and estimate, for programs (the study reads it).
  const nlohmann::json summary = nlohmann::json::parse(read_text(config.out_dir + "/summary.json"));
  const ArenaStatus& status = result.status;
  EXPECT_EQ(summary["variant"], config.variant->name);
  EXPECT_EQ(summary["games"], static_cast<int>(result.games.size()));
  EXPECT_EQ(summary["wins"], status.counts.wins);
  EXPECT_EQ(summary["draws"], status.counts.draws);
  EXPECT_EQ(summary["losses"], status.counts.losses);
  EXPECT_DOUBLE_EQ(summary["score"].get<double>(), status.counts.score());
  EXPECT_DOUBLE_EQ(summary["elo_low"].get<double>(), status.elo.elo_low);
  ASSERT_EQ(summary["players"].size(), 2u);
  for (int p = 0; p < 2; ++p) {
    EXPECT_EQ(summary["players"][p]["name"], config.players[p].name);
    const PlayerSpec& spec = config.players[p];
    if (spec.is_engine() && spec.engine_limits.nodes > 0) {
      EXPECT_EQ(summary["players"][p]["nodes"], spec.engine_limits.nodes);
    }
    if (!spec.is_engine()) {
      EXPECT_EQ(summary["players"][p]["visits"],
                spec.visits > 0 ? spec.visits : config.default_visits);
    }
  }
}

// The message of what `action` throws (any std::exception), or "accepted".
template <typename Action>
std::string error_of(Action action) {
  try {
    action();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace fairyzero::arena_testing
