// The web board's reads from disk: runs, progress tables, record files of the three kinds
// replayed move by move, bots, and no path that leaves the folders it was given.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "tests/apps/web/web_test_support.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;
using namespace web_testing;
using nlohmann::json;

class TempDir {
 public:
  TempDir()
      : path_(fs::temp_directory_path() /
              ("fairyzero-web-" + std::to_string(std::random_device{}()))) {
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  fs::path operator/(const std::string& name) const { return path_ / name; }
  std::string string() const { return path_.string(); }

 private:
  fs::path path_;
};

WebServerConfig serving(const std::string& runs, const std::string& bots = "") {
  WebServerConfig config;
  config.runs_dir = runs;
  config.bots_dir = bots;
  return config;
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// A run folder as `train` leaves it, an arena folder and a balance file.
void make_runs(const TempDir& dir) {
  fs::create_directories(dir / "runs/mini/games");
  fs::copy_file(FAIRYZERO_SOURCE_DIR "/configs/variants/gardner.toml",
                dir / "runs/mini/variant.toml");
  write(dir / "runs/mini/training.csv",
        "generation,step,policy_loss,value_loss\n0,10,2.2,0.9\n1,20,2.0,0.8\n2,30,1.9,0.7\n");
  write(dir / "runs/mini/validation.csv",
        "generation,policy_loss,value_loss\n0,2.3,1.0\n1,2.1,0.9\n");
  write(dir / "runs/mini/games/gen-0000-w0-000000.txt",
        "checkmate | white=0 black=1 | 3 plies | b2b3 c4b3 a2b3\n"
        "draw | white=1 black=0 | 2 plies | b1c3 b4c3\n");
  write(dir / "runs/match/results.csv", "game\n");
  write(dir / "runs/match/games/0001.pgn",
        "[Event \"FairyZero arena\"]\n[Variant \"chess\"]\n[White \"a\"]\n[Black \"b\"]\n"
        "[Termination \"resignation\"]\n\n1. e2e4 e7e5 2. g1f3 {a comment} b8c6 1-0\n");
  write(dir / "runs/study/games.jsonl", json({{"variant", "chess"},
                                              {"strength", "weak"},
                                              {"termination", "checkmate"},
                                              {"moves", {"f2f3", "e7e5", "g2g4", "d8h4"}}})
                                                .dump() +
                                            "\n");
  write(dir / "runs/bad/variant.toml", "this is not toml [");
  write(dir / "runs/bad/games/g.txt", "checkmate | white=1 black=0 | 1 plies | e2e4\n");
  write(dir / "outside.txt", "checkmate | white=1 black=0 | 1 plies | e2e4\n");
  write(dir / "runs/mini/learning_curves.png", "\x89PNG fake");
  write(dir / "runs/mini/checkpoints/gen-0001.pt", "not a network");
  write(dir / "runs/mini/checkpoints/gen-0002.pt", "not a network");
}

TEST(WebFiles, RunsProgressAndEveryKindOfRecordReplay) {
  TempDir dir;
  make_runs(dir);
  TestServer server(serving((dir / "runs").string()));
  json runs = server.get("/api/runs").body;
  ASSERT_TRUE(runs.is_array());
  std::set<std::string> names;
  for (const json& r : runs) names.insert(r["name"]);
  EXPECT_TRUE(names.contains("mini") && names.contains("match") && names.contains("study")) << runs;

  json progress = server.get("/api/runs/progress?run=mini").body;
  EXPECT_EQ(progress["variant"], "gardner");
  EXPECT_EQ(progress["tables"]["training"]["columns"][3], "value_loss");
  EXPECT_EQ(progress["tables"]["training"]["rows"].size(), 3u);
  EXPECT_DOUBLE_EQ(progress["tables"]["validation"]["rows"][1][2].get<double>(), 0.9);

  json records = server.get("/api/records?file=mini/games/gen-0000-w0-000000.txt").body;
  EXPECT_EQ(records["variant"], "gardner");
  ASSERT_EQ(records["games"].size(), 2u);
  json replay = server.get("/api/replay?file=mini/games/gen-0000-w0-000000.txt&game=1").body;
  ASSERT_EQ(replay["frames"].size(), 4u) << replay;
  EXPECT_EQ(replay["frames"][3]["last_move"]["text"], "a2b3");
  EXPECT_EQ(replay["variant"]["name"], "gardner");

  json pgn = server.get("/api/replay?file=match/games/0001.pgn&game=1").body;
  ASSERT_EQ(pgn["frames"].size(), 5u) << pgn;
  EXPECT_EQ(pgn["frames"][4]["last_move"]["text"], "b8c6");
  EXPECT_EQ(pgn["termination"], "resignation");
  json balance = server.get("/api/replay?file=study/games.jsonl&game=1").body;
  ASSERT_EQ(balance["frames"].size(), 5u) << balance;
  EXPECT_EQ(balance["label"], "weak");

  EXPECT_EQ(server.get("/api/replay?file=mini/games/gen-0000-w0-000000.txt&game=3").status, 404);
  Answer bad = server.get("/api/replay?file=bad/games/g.txt&game=1");
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.body["error"].get<std::string>().find("variant cannot be loaded"),
            std::string::npos);
  EXPECT_EQ(server.get("/api/files?path=mini/learning_curves.png").status, 200);
  for (const json& r : runs)
    if (r["name"] == "mini") {
      EXPECT_EQ(r["images"], json({"mini/learning_curves.png"}));
      EXPECT_EQ(r["checkpoint"], "mini/checkpoints/gen-0002.pt") << "the newest";
    }
}

// A seat may be a checkpoint of a run below --runs ("run:PATH"), and nothing else on disk.
TEST(WebFiles, SeatsMayBeCheckpointsOfTheRunsFolder) {
  TempDir dir;
  make_runs(dir);
  TestServer server(serving((dir / "runs").string()));
  auto seat = [&](const std::string& spec) {
    return server.post("/api/games", {{"variant", "gardner"}, {"seats", {"human", spec}}});
  };
  EXPECT_EQ(seat("run:../outside.txt").status, 403);
  EXPECT_EQ(seat("run:mini/training.csv").status, 400);
  Answer broken = seat("run:mini/checkpoints/gen-0002.pt");
  EXPECT_EQ(broken.status, 400) << "not a real checkpoint: refused with the loader's reason";
  EXPECT_NE(broken.body["error"].get<std::string>().find("gen-0002.pt"), std::string::npos)
      << broken.text;
}

TEST(WebFiles, NoPathLeavesTheFoldersItWasGiven) {
  TempDir dir;
  make_runs(dir);
  fs::create_symlink(dir / "outside.txt", dir / "runs/mini/games/link.txt");
  TestServer server(serving((dir / "runs").string()));
  for (const std::string file : {"../outside.txt", "mini/../../outside.txt", "%2E%2E/outside.txt",
                                 "/etc/passwd", "mini/games/link.txt"}) {
    Answer a = server.get("/api/replay?file=" + file + "&game=1");
    EXPECT_EQ(a.status, 403) << file << ": " << a.text;
  }
  EXPECT_EQ(server.get("/api/runs/progress?run=..").status, 403);
  EXPECT_EQ(server.get("/api/files?path=mini/training.csv").status, 403) << "images only";
  EXPECT_EQ(server.get("/api/records?file=mini/nothing.txt").status, 404);
  EXPECT_EQ(server.get("/api/records").status, 400);

  TestServer bare;
  EXPECT_EQ(bare.get("/api/runs").body, json::array()) << "no folder, nothing to list";
  EXPECT_EQ(bare.get("/api/records?file=x.txt").status, 404);
}

TEST(WebFiles, SeatsMayBeTheBotsOfTheBotsFolderOnly) {
  TempDir dir;
  fs::create_directories(dir / "bots/not-a-bot");
  TestServer server(serving("", (dir / "bots").string()));
  EXPECT_EQ(server.get("/api/bots").body, json::array());
  Answer a = server.post("/api/games", {{"variant", "chess"}, {"seats", {"human", "not-a-bot"}}});
  EXPECT_EQ(a.status, 400);
  EXPECT_NE(a.body["error"].get<std::string>().find("no bot of that name"), std::string::npos);
  EXPECT_EQ(server.post("/api/games", {{"variant", "chess"}, {"seats", {"human", "/tmp"}}}).status,
            400);
}

}  // namespace
}  // namespace fairyzero
