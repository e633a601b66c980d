// One reading of a player for every command: the forms it reads, what it refuses and why.
#include "training/play/player_spec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "core/errors.h"
#include "tests/support/files.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;
using testing::read_text;

// A temporary folder for one test.
class TempDir : public testing::TempDir {
 public:
  TempDir() : testing::TempDir("fairyzero-players-") {}
};

std::string refusal(const std::string& text) {
  try {
    parse_player_spec(text);
  } catch (const PlayerError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(PlayerSpec, ReadsEveryForm) {
  TempDir dir;
  std::ofstream(dir / "net.pt") << "a checkpoint by its name; its contents are read later";
  fs::create_directories(dir / "bot");
  std::ofstream(dir / "bot/manifest.toml") << "format = 2\n";
  EXPECT_EQ(parse_player_spec("uniform").kind, PlayerKind::kUniform);
  EXPECT_EQ(parse_player_spec("material").kind, PlayerKind::kMaterial);
  EXPECT_EQ(parse_player_spec(dir / "net.pt").kind, PlayerKind::kCheckpoint);
  EXPECT_EQ(parse_player_spec(dir / "bot").kind, PlayerKind::kBot);
  const PlayerSpec uci = parse_player_spec("uci:/usr/games/fairy-stockfish --x");
  EXPECT_EQ(uci.kind, PlayerKind::kUci);
  EXPECT_EQ(uci.target, "/usr/games/fairy-stockfish --x");
  EXPECT_TRUE(uci.is_engine());
  EXPECT_EQ(parse_player_spec("xboard:engine").kind, PlayerKind::kXboard);
}

TEST(PlayerSpec, RefusesWithTheReason) {
  TempDir dir;
  EXPECT_NE(refusal("stockfish").find("unknown player 'stockfish': expected uniform"),
            std::string::npos);
  EXPECT_NE(refusal(dir / "nowhere.pt").find("does not exist"), std::string::npos);
  EXPECT_NE(refusal("uci:  ").find("no engine command"), std::string::npos);
  fs::create_directories(dir / "folder");
  EXPECT_NE(refusal(dir / "folder").find("without manifest.toml is not a bot"), std::string::npos);
  // Any file is not a checkpoint (the arena used to take one).
  std::ofstream(dir / "notes.txt") << "not a network";
  EXPECT_NE(refusal(dir / "notes.txt").find("not a checkpoint"), std::string::npos)
      << refusal(dir / "notes.txt");
}

}  // namespace
}  // namespace fairyzero
