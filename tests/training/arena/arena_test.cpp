// The arena: search bots, Fairy-Stockfish over UCI and XBoard, and fake engines that crash, hang or
// move illegally, each game recorded with its result and reason; paired openings, openings files,
// the SPRT stopping early, and clear refusals.
#include "training/arena/arena.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "core/variant_loader.h"
#include "tests/training/arena/arena_test_support.h"
#include "training/arena/arena_openings.h"
#include "training/arena/arena_records.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;
using namespace arena_testing;

// A UCI engine in bash that answers the handshake and then does `on_go` when asked to move.
std::string fake_engine(const TempDir& dir, const std::string& name, const std::string& on_go) {
  std::string path = dir / (name + ".sh");
  std::ofstream(path) << "#!/bin/bash\n"
                         "while read -r line; do\n"
                         "  case \"$line\" in\n"
                         "    uci) echo 'id name "
                      << name
                      << "'; echo uciok;;\n"
                         "    isready) echo readyok;;\n"
                         "    go*) "
                      << on_go
                      << ";;\n"
                         "    quit) exit 0;;\n"
                         "  esac\n"
                         "done\n";
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

TEST(Arena, UniformAgainstMaterialRecordsEveryGame) {
  TempDir dir;
  ArenaConfig config = config_for("minichess", "uniform", "material", 5);
  config.concurrency = 2;
  config.out_dir = dir / "out";
  std::vector<std::string> progress;
  ArenaResult result = run_arena(config, [&](const ArenaStatus& status, const ArenaGame&) {
    progress.push_back(format_status(config, status));
  });
  ASSERT_EQ(result.games.size(), 6u) << "5 games round up to 3 pairs";
  EXPECT_EQ(result.status.counts.games(), 6);
  EXPECT_EQ(progress.size(), 6u);
  EXPECT_NE(progress.back().find("games/s"), std::string::npos) << progress.back();
  EXPECT_NE(progress.back().find("[6/6]"), std::string::npos) << progress.back();
  for (int pair = 0; pair < 3; ++pair) {
    const ArenaGame& a = result.games[2 * pair];
    const ArenaGame& b = result.games[2 * pair + 1];
    EXPECT_NE(a.side_of_first, b.side_of_first) << "colours swapped within a pair";
    EXPECT_EQ(a.opening, b.opening);
    EXPECT_TRUE(std::equal(a.moves.begin(), a.moves.begin() + 4, b.moves.begin()))
        << "both games of a pair start with the same four random plies";
  }
  expect_recorded(config, result);
}

TEST(Arena, OpeningsFileLinesAreFensOrMoveLists) {
  TempDir dir;
  std::string openings = dir / "openings.txt";
  // Black to move first in the FEN: its record numbers the first move "1...".
  std::ofstream(openings) << "# comment\n"
                             "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
                             "\n"
                             "d2d4 d7d5\n";
  ArenaConfig config = config_for("chess", "material", "uniform", 4);
  config.openings_file = openings;
  config.max_plies = 12;
  config.default_visits = 8;
  config.out_dir = dir / "out";
  ArenaResult result = run_arena(config);
  ASSERT_EQ(result.games.size(), 4u);
  EXPECT_EQ(result.games[0].start_fen, result.games[1].start_fen);
  EXPECT_FALSE(result.games[0].start_fen.empty());
  EXPECT_EQ(result.games[2].moves[0], "d2d4");
  EXPECT_EQ(result.games[3].moves[1], "d7d5");
  std::string record = read_text(config.out_dir + "/games/0001.pgn");
  EXPECT_EQ(tag_of(record, "FEN"), result.games[0].start_fen);
  EXPECT_NE(record.find("\n1... "), std::string::npos) << record;
  EXPECT_EQ(tag_of(record, "Termination"), "arena move limit");
  expect_recorded(config, result);

  std::ofstream(openings) << "e2e4 e7e5\ne2e4 e2e4\n";
  try {
    read_openings_file(openings, config.variant);
    ADD_FAILURE() << "an illegal opening was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(openings + ":2"), std::string::npos) << e.what();
  }
}

TEST(Arena, SprtStopsTheMatchWhenTheRatioCrossesABound) {
  ArenaConfig config = config_for("minichess", "material", "uniform", 40);
  config.sprt = parse_sprt("-400,-300,0.3,0.3");  // material is far above -300: H1 quickly
  ArenaResult result = run_arena(config);
  EXPECT_EQ(result.status.decision, SprtDecision::kAcceptH1);
  EXPECT_LT(result.status.games_done, 40);
  EXPECT_EQ(static_cast<int>(result.games.size()), result.status.games_done);
  EXPECT_GE(result.status.llr, config.sprt->upper_bound());
}

// Two games of the material search against Fairy-Stockfish over `protocol`, which must end
// without a fault and be recorded.
void expect_clean_match(const TempDir& dir, const std::string& protocol, EngineLimits limits,
                        int concurrency) {
  ArenaConfig config = config_for("chess", "material", protocol + std::string(kFairyStockfish), 2);
  config.players[1].engine_limits = limits;
  config.default_visits = 8;
  config.concurrency = concurrency;  // one engine process per game
  config.out_dir = dir / (protocol.substr(0, protocol.size() - 1) + std::to_string(concurrency));
  ArenaResult result = run_arena(config);
  ASSERT_EQ(result.games.size(), 2u);
  for (const ArenaGame& game : result.games) {
    EXPECT_TRUE(game.detail.empty()) << protocol << " " << game.detail;
    EXPECT_GT(game.moves.size(), 4u);
  }
  expect_recorded(config, result);
}

TEST(Arena, PlaysFairyStockfishOverUciAndXboard) {
  if (!fs::exists(kFairyStockfish)) GTEST_SKIP() << kFairyStockfish << " is not installed";
  TempDir dir;
  expect_clean_match(dir, "uci:", {.nodes = 200}, 2);
  expect_clean_match(dir, "xboard:", {.depth = 1}, 2);
}

TEST(Arena, CrashingHangingAndIllegalEnginesLoseWithTheReason) {
  TempDir dir;
  struct Case {
    std::string name, on_go, reason, detail;
  };
  std::vector<Case> cases = {
      {"crasher", "echo 'about to crash'; exit 3", "crashed", "exited with status 3"},
      {"cheater", "echo 'bestmove a1a8'", "illegal move 'a1a8'", "illegal move 'a1a8' in "},
      {"sleeper", ":", "timed out", "timed out waiting for 'bestmove'"},
  };
  for (const Case& c : cases) {
    ArenaConfig config =
        config_for("chess", "uci:" + fake_engine(dir, c.name, c.on_go), "uniform", 2);
    config.default_visits = 4;
    config.engine_move_timeout_seconds = 0.5;
    config.players[0].engine_limits.movetime_ms = 10;
    config.out_dir = dir / (c.name + "-out");
    ArenaResult result = run_arena(config);
    ASSERT_EQ(result.games.size(), 2u);
    for (const ArenaGame& game : result.games) {
      EXPECT_EQ(game.first_score, 0) << c.name << " loses every game";
      EXPECT_EQ(game.termination, config.players[0].name + " " + c.reason);
      EXPECT_NE(game.detail.find(c.detail), std::string::npos) << game.detail;
      std::string record =
          read_text(config.out_dir + "/games/000" + std::to_string(game.index + 1) + ".pgn");
      EXPECT_NE(record.find(c.detail), std::string::npos) << "the record keeps the reason";
    }
    EXPECT_EQ(result.status.counts.losses, 2);
    expect_recorded(config, result);
  }
}

// A game clock: the engine gets both seats' clocks (an internal opponent shows the mover's),
// time used is taken off and the increment added, and an engine past its time loses on time.
TEST(Arena, ClockGamesSendTheClocksAndAnEnginePastItsTimeLoses) {
  TempDir dir;
  const std::string log = dir / "go.log";
  ArenaConfig config = config_for(
      "chess",
      "uci:" + fake_engine(dir, "logger", "echo \"$line\" >> " + log + "; echo bestmove e2e4"),
      "uniform", 2);
  config.opening_plies = 0;
  config.default_visits = 4;
  config.players[0].engine_limits = {.clock_seconds = 2, .increment_seconds = 0.1};
  config.out_dir = dir / "logger-out";
  run_arena(config);
  std::vector<std::string> go = lines_of(log);
  ASSERT_GE(go.size(), 3u) << "white's two moves of game 1, black's first of game 2";
  EXPECT_EQ(go[0], "go wtime 2000 btime 2000 winc 100 binc 100");
  std::istringstream second(go[1]);
  std::string word;
  long long wtime = 0;
  second >> word >> word >> wtime;
  EXPECT_GT(wtime, 1500) << go[1];
  EXPECT_LE(wtime, 2100) << "time used is charged, the increment added: " << go[1];
  EXPECT_NE(read_text(config.out_dir + "/summary.txt").find("clock 2+0.1 s"), std::string::npos);

  ArenaConfig slow = config_for(
      "chess", "uci:" + fake_engine(dir, "slow", "sleep 0.4; echo bestmove e2e4"), "uniform", 2);
  slow.default_visits = 4;
  slow.players[0].engine_limits = {.clock_seconds = 0.2};
  slow.out_dir = dir / "slow-out";
  ArenaResult result = run_arena(slow);
  for (const ArenaGame& game : result.games) {
    EXPECT_EQ(game.first_score, 0);
    EXPECT_EQ(game.termination, slow.players[0].name + " lost on time");
    EXPECT_NE(game.detail.find("left on its clock"), std::string::npos) << game.detail;
  }
}

// Fairy-Stockfish under a clock over both protocols: it keeps within its time.
TEST(Arena, FairyStockfishPlaysUnderAClockOverUciAndXboard) {
  if (!fs::exists(kFairyStockfish)) GTEST_SKIP() << kFairyStockfish << " is not installed";
  TempDir dir;
  for (std::string protocol : {"uci:", "xboard:"})
    expect_clean_match(dir, protocol, {.clock_seconds = 3, .increment_seconds = 0.05}, 1);
}

TEST(Arena, BadPlayersAreRefusedBeforeAnyGameWithTheReason) {
  TempDir dir;
  EXPECT_NE(error_of([] { parse_player_spec("stockfish"); }).find("unknown player 'stockfish'"),
            std::string::npos);
  std::string missing = dir / "nowhere.pt";
  EXPECT_NE(error_of([&] { parse_player_spec(missing); }).find(missing), std::string::npos);
  EXPECT_NE(error_of([&] { parse_player_spec("uci:"); }).find("no engine command"),
            std::string::npos);

  ArenaConfig no_engine = config_for("chess", "uniform", "uci:/nonexistent/engine", 2);
  no_engine.out_dir = dir / "never";
  std::string message = error_of([&] { run_arena(no_engine); });
  EXPECT_NE(message.find("'/nonexistent/engine'"), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(no_engine.out_dir)) << "nothing is written before the players start";

  ArenaConfig silent = config_for("chess", "uniform", "uci:sleep 30", 2);
  silent.engine_startup_seconds = 0.3;
  message = error_of([&] { run_arena(silent); });
  EXPECT_NE(message.find("'sleep 30' timed out waiting for 'uciok'"), std::string::npos) << message;

  ArenaConfig no_variant = config_for(
      "capablanca", "uniform", "uci:" + fake_engine(dir, "chess-only", "echo bestmove e2e4"), 2);
  message = error_of([&] { run_arena(no_variant); });
  EXPECT_NE(message.find("cannot play 'capablanca'"), std::string::npos) << message;

  ArenaConfig engine_in_team_game =
      config_for("irwell", "uniform", std::string("uci:") + kFairyStockfish, 2);
  message = error_of([&] { run_arena(engine_in_team_game); });
  EXPECT_NE(message.find("plays a two-seat variant only"), std::string::npos) << message;

  // Three teams cannot be shared out between two players.
  Variant three_teams = *find_variant("commedia-double");
  three_teams.team_of_army = {0, 1, 2, 2};
  message = error_of([&] { arena_sides(three_teams); });
  EXPECT_NE(message.find("commedia-double has 3 teams"), std::string::npos) << message;
}

// Irwell: four seats in two teams. Each player moves both seats of its team, the teams swap
// within a pair, and a game's score is its team's result.
TEST(Arena, FourSeatTeamGamesGiveEachPlayerATeam) {
  TempDir dir;
  ArenaConfig config = config_for("irwell", "material", "uniform", 4);
  config.concurrency = 2;
  config.max_plies = 80;
  config.out_dir = dir / "out";
  const ArenaSides sides = arena_sides(*config.variant);
  EXPECT_EQ(sides.side_of_seat, (std::vector<int>{0, 1, 0, 1}))
      << "white-low, black-high, white-high, black-low";
  EXPECT_EQ(sides.names[0], "white");
  EXPECT_EQ(sides.names[1], "black");
  const ArenaResult result = run_arena(config);
  ASSERT_EQ(result.games.size(), 4u);
  for (const ArenaGame& game : result.games) {
    EXPECT_EQ(game.side_of_first, game.index % 2) << "the teams swap within a pair";
    EXPECT_DOUBLE_EQ(game.side_score[0] + game.side_score[1], 1.0) << "one team's loss is the "
                                                                      "other's win";
    EXPECT_DOUBLE_EQ(game.first_score, game.side_score[game.side_of_first]);
    // Four plies make a round: the record numbers moves by rounds.
    const std::string record =
        read_text(config.out_dir + "/games/000" + std::to_string(game.index + 1) + ".pgn");
    if (game.moves.size() > 4) {
      EXPECT_NE(record.find("2. " + game.moves[4]), std::string::npos) << record;
    }
  }
  expect_recorded(config, result);
  EXPECT_NE(read_text(config.out_dir + "/summary.txt").find("material by team: as white "),
            std::string::npos);
}

}  // namespace
}  // namespace fairyzero

namespace fairyzero {
namespace {
using namespace arena_testing;

// Double Commedia: four armies, each for itself. Each player moves every other army in the turn
// order, and a game counts for the player whose army is the last with a King.
TEST(Arena, FourTeamGamesGiveEachPlayerEveryOtherArmy) {
  TempDir dir;
  ArenaConfig config = config_for("commedia-double", "material", "uniform", 2);
  config.max_plies = 120;
  config.out_dir = dir / "out";
  const ArenaSides sides = arena_sides(*config.variant);
  EXPECT_EQ(sides.side_of_seat, (std::vector<int>{0, 1, 0, 1})) << "south, west, north, east";
  EXPECT_EQ(sides.names[0], "south+north");
  EXPECT_EQ(sides.names[1], "west+east");
  const ArenaResult result = run_arena(config);
  ASSERT_EQ(result.games.size(), 2u);
  for (const ArenaGame& game : result.games) {
    EXPECT_DOUBLE_EQ(game.side_score[0] + game.side_score[1], 1.0) << game.termination;
    if (game.termination == "last King standing") {
      EXPECT_TRUE(game.side_score[0] == 1.0 || game.side_score[1] == 1.0);
    }
  }
  expect_recorded(config, result);
  EXPECT_NE(read_text(config.out_dir + "/results.csv").find("game,pair,south+north,west+east,"),
            std::string::npos);
}

}  // namespace
}  // namespace fairyzero
