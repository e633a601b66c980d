// The web board's game API: pages, variants drawn from their descriptions, games between people
// and bots in two- and four-seat variants, stopping a search, bad requests as 4xx, and many
// games at once.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <random>
#include <vector>

#include "apps/web/web_games.h"
#include "tests/apps/web/web_test_support.h"

namespace fairyzero {
namespace {
using namespace web_testing;
using nlohmann::json;

std::string new_game(const TestServer& server, const json& request) {
  Answer a = server.post("/api/games", request);
  EXPECT_EQ(a.status, 201) << a.text;
  return a.body.value("id", "");
}

TEST(WebApi, ServesItsPagesAndEveryVariantsBoard) {
  TestServer server;
  Answer page = server.get("/");
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.text.find("FairyZero board"), std::string::npos);
  EXPECT_NE(server.get("/static/board.js").text.find("function drawBoard"), std::string::npos);
  EXPECT_EQ(server.get("/static/nothing.js").status, 404);

  Answer variants = server.get("/api/variants");
  ASSERT_TRUE(variants.body.is_array());
  std::set<std::string> names;
  for (const json& v : variants.body) names.insert(v["name"]);
  for (const char* name : {"chess", "cam", "irwell", "commedia", "very-heavy-chess"})
    EXPECT_TRUE(names.contains(name)) << name;
  for (const json& v : variants.body) {
    Answer one = server.get("/api/variants/" + v["name"].get<std::string>());
    ASSERT_EQ(one.status, 200) << v["name"];
    const json& board = one.body["board"];
    EXPECT_EQ(board["cells"].size(), board["files"].get<size_t>() * board["ranks"].get<size_t>());
    EXPECT_FALSE(one.body["pieces"].empty());
  }
  // Cam's board misses cells; Irwell has four seats, a River and its own coordinates.
  const json cam = server.get("/api/variants/cam").body;
  int missing = 0;
  for (const json& cell : cam["board"]["cells"]) missing += !cell["exists"].get<bool>();
  EXPECT_GT(missing, 0);
  const json irwell = server.get("/api/variants/irwell").body;
  EXPECT_EQ(irwell["seats"].size(), 4u);
  EXPECT_TRUE(irwell["board"]["river"].get<bool>());
  EXPECT_EQ(server.get("/api/variants/nonesuch").status, 404);
  EXPECT_EQ(server.get("/api/variants/..%2Fetc").status, 404);
}

TEST(WebApi, PeoplePlayMovesUndoThemAndGetTheRecordAndFen) {
  TestServer server;
  const std::string id = new_game(server, {{"variant", "chess"}});
  json state = server.get("/api/games/" + id).body["state"];
  EXPECT_EQ(state["legal_moves"].size(), 20u);
  EXPECT_EQ(state["men"].size(), 32u);
  Answer moved = server.post("/api/games/" + id + "/move", {{"move", "e2e4"}});
  ASSERT_EQ(moved.status, 200) << moved.text;
  EXPECT_EQ(moved.body["fen"], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_EQ(moved.body["last_move"]["from"], "e2");
  Answer illegal = server.post("/api/games/" + id + "/move", {{"move", "e7e4"}});
  EXPECT_EQ(illegal.status, 400);
  EXPECT_NE(illegal.body["error"].get<std::string>().find("e7e4"), std::string::npos);
  server.post("/api/games/" + id + "/move", {{"move", "e7e5"}});
  Answer record = server.get("/api/games/" + id + "/record");
  EXPECT_NE(record.text.find("e2e4 e7e5"), std::string::npos) << record.text;
  EXPECT_NE(record.text.find("[Variant \"chess\"]"), std::string::npos);
  Answer undone = server.post("/api/games/" + id + "/undo");
  EXPECT_EQ(undone.body["moves"].size(), 1u);
  EXPECT_EQ(undone.body["last_move"]["to"], "e4");
  Answer resigned = server.post("/api/games/" + id + "/resign", {{"seat", 1}});
  EXPECT_EQ(resigned.body["outcome"]["score"], json({1.0, 0.0}));
  EXPECT_EQ(server.post("/api/games/" + id + "/move", {{"move", "d7d5"}}).status, 409);

  const std::string from_fen =
      new_game(server, {{"variant", "chess"}, {"fen", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}});
  state = server.get("/api/games/" + from_fen).body["state"];
  EXPECT_EQ(state["men"].size(), 3u);
  Answer bad_fen = server.post("/api/games", {{"variant", "chess"}, {"fen", "not a fen"}});
  EXPECT_EQ(bad_fen.status, 400);
  EXPECT_NE(bad_fen.body["error"].get<std::string>().find("bad FEN"), std::string::npos);
}

TEST(WebApi, BotsPlayTheirSeatsWithTheirSearchAndFourSeatGamesGoOn) {
  TestServer server;
  const std::string id = new_game(server, {{"variant", "chess"}, {"seats", {"human", "material"}}});
  EXPECT_EQ(server.post("/api/games/" + id + "/bot").status, 409) << "a person's seat";
  server.post("/api/games/" + id + "/move", {{"move", "e2e4"}});
  Answer bot = server.post("/api/games/" + id + "/bot", {{"visits", 64}});
  ASSERT_EQ(bot.status, 200) << bot.text;
  EXPECT_EQ(bot.body["state"]["moves"].size(), 2u);
  const json& search = bot.body["search"];
  EXPECT_GE(search["visits"].get<int>(), 64);
  EXPECT_EQ(search["best"], bot.body["move"]);
  EXPECT_FALSE(search["pv"].empty());
  EXPECT_EQ(search["wdl"].size(), 3u);
  Answer analysis = server.post("/api/games/" + id + "/analyse", {{"visits", 50}, {"lines", 3}});
  EXPECT_EQ(analysis.body["search"]["lines"].size(), 3u);
  EXPECT_EQ(server.get("/api/games/" + id).body["state"]["moves"].size(), 2u) << "nothing played";

  // Irwell with a person and three bots: the bots' seats move in turn.
  const std::string four = new_game(
      server, {{"variant", "irwell"}, {"seats", {"human", "material", "uniform", "material"}}});
  json state = server.get("/api/games/" + four).body["state"];
  ASSERT_EQ(state["seats"].size(), 4u);
  server.post("/api/games/" + four + "/move", {{"move", state["legal_moves"][0]["text"]}});
  for (int seat = 1; seat < 4; ++seat) {
    Answer a = server.post("/api/games/" + four + "/bot", {{"visits", 16}});
    ASSERT_EQ(a.status, 200) << a.text;
  }
  state = server.get("/api/games/" + four).body["state"];
  EXPECT_EQ(state["moves"].size(), 4u);
  EXPECT_EQ(state["players"][state["seat_to_move"].get<int>()], "human");
}

TEST(WebApi, StopEndsALongBotSearchAtOnce) {
  TestServer server;
  const std::string id =
      new_game(server, {{"variant", "chess"}, {"seats", {"uniform", "uniform"}}});
  auto started = std::chrono::steady_clock::now();
  auto search = std::async(std::launch::async, [&] {
    return server.post("/api/games/" + id + "/bot", {{"seconds", 60}});
  });
  // The search is running once the game says so; a second one is refused meanwhile.
  for (int i = 0; i < 500 && !server.get("/api/games/" + id).body["state"]["searching"].get<bool>();
       ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(server.post("/api/games/" + id + "/bot").status, 409);
  EXPECT_EQ(server.post("/api/games/" + id + "/move", {{"move", "e2e4"}}).status, 409);
  EXPECT_TRUE(server.post("/api/games/" + id + "/stop").body["stopped"].get<bool>());
  Answer a = search.get();
  EXPECT_EQ(a.status, 200) << a.text;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 30);
  EXPECT_EQ(a.body["state"]["moves"].size(), 1u) << "the stopped search plays what it has";
  EXPECT_FALSE(server.post("/api/games/" + id + "/stop").body["stopped"].get<bool>());
}

// The server shuts down at once even while a bot thinks (its search is stopped first).
TEST(WebApi, ShuttingDownStopsAThinkingBot) {
  auto started = std::chrono::steady_clock::now();
  std::future<void> search;
  {
    TestServer server;
    const std::string id =
        new_game(server, {{"variant", "chess"}, {"seats", {"uniform", "uniform"}}});
    const int port = server.port();
    search = std::async(std::launch::async, [port, id] {
      httplib::Client client("127.0.0.1", port);
      client.set_read_timeout(120, 0);
      client.Post(("/api/games/" + id + "/bot").c_str(), R"({"seconds": 60})", "application/json");
    });
    for (int i = 0;
         i < 500 && !server.get("/api/games/" + id).body["state"]["searching"].get<bool>(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }  // the server stops here
  search.get();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 30);
}

// A bot request already under way when the server shuts down must not start its search after the
// stop (it would hold the shutdown for its whole time): a closed game refuses to search, and a
// closed table refuses new games. CI saw the race as a 60 s shutdown on a loaded machine.
TEST(WebGames, AClosedGameRefusesASearchThatStartsAfterTheStop) {
  WebGames games("", "", 4);
  const std::string id = games.create({{"variant", "chess"}, {"seats", {"uniform", "uniform"}}});
  std::shared_ptr<WebGame> game = games.find(id);
  games.close_all();
  try {
    game->bot_move({.seconds = 20});
    ADD_FAILURE() << "a closed game searched and played";
  } catch (const WebError& e) {
    EXPECT_EQ(e.status(), 503) << e.what();
  }
  EXPECT_FALSE(game->state()["searching"].get<bool>());
  try {
    games.create({{"variant", "chess"}});
    ADD_FAILURE() << "a closed table took a new game";
  } catch (const WebError& e) {
    EXPECT_EQ(e.status(), 503) << e.what();
  }
}

// A full table lets the oldest game go.
TEST(WebGames, TheOldestGameGoesWhenTheTableIsFull) {
  WebGames games("", "", 2);
  const std::string first = games.create({{"variant", "chess"}});
  const std::string second = games.create({{"variant", "chess"}});
  const std::string third = games.create({{"variant", "chess"}});
  EXPECT_THROW(games.find(first), WebError);
  EXPECT_NO_THROW(games.find(second));
  EXPECT_NO_THROW(games.find(third));
  EXPECT_THROW(games.find("99999999999999999999999"), WebError) << "an id too long is not a crash";
}

TEST(WebApi, BadRequestsGetA4xxWithTheReason) {
  TestServer server;
  auto error_of = [](const Answer& a) { return a.body.value("error", std::string()); };
  EXPECT_EQ(server.post_text("/api/games", "{not json").status, 400);
  EXPECT_EQ(server.post("/api/games", json::object()).status, 400);
  EXPECT_EQ(server.post("/api/games", {{"variant", "nonesuch"}}).status, 404);
  EXPECT_EQ(server.post("/api/games", {{"variant", "configs/variants/chess.toml"}}).status, 404)
      << "variants by name only, never a path";
  Answer seats = server.post("/api/games", {{"variant", "chess"}, {"seats", {"human"}}});
  EXPECT_EQ(seats.status, 400);
  EXPECT_NE(error_of(seats).find("2 seats"), std::string::npos);
  Answer path =
      server.post("/api/games", {{"variant", "chess"}, {"seats", {"human", "../bots/x"}}});
  EXPECT_EQ(path.status, 400);
  EXPECT_NE(error_of(path).find("--bots"), std::string::npos) << error_of(path);
  EXPECT_EQ(server.get("/api/games/999").status, 404);
  const std::string id = new_game(server, {{"variant", "chess"}});
  EXPECT_EQ(server.post("/api/games/" + id + "/move", {{"mover", "e2e4"}}).status, 400);
  EXPECT_EQ(server.post("/api/games/" + id + "/move", {{"move", 42}}).status, 400);
  EXPECT_EQ(server.post("/api/games/" + id + "/undo").status, 409);
  EXPECT_EQ(server.post("/api/games/" + id + "/analyse", {{"visits", -3}}).status, 400);
  EXPECT_EQ(server.post("/api/games/" + id + "/resign", {{"seat", 7}}).status, 400);
  EXPECT_EQ(server.get("/api/nothing").status, 404);
  EXPECT_EQ(server.get("/").status, 200) << "the server is still up";
}

TEST(WebApi, ManyGamesAtOnceStayApart) {
  TestServer server;
  constexpr int kGames = 6;
  std::vector<std::future<std::string>> games;
  for (int g = 0; g < kGames; ++g)
    games.push_back(std::async(std::launch::async, [&server, g] {
      const std::string id = new_game(server, {{"variant", g % 2 ? "chess" : "cam"}});
      std::mt19937 random(g);
      for (int ply = 0; ply < 12; ++ply) {
        json state = server.get("/api/games/" + id).body["state"];
        if (state.contains("outcome")) break;
        const json& legal = state["legal_moves"];
        const json& move = legal[random() % legal.size()];
        Answer a = server.post("/api/games/" + id + "/move", {{"move", move["text"]}});
        if (a.status != 200) return "game " + id + ": " + a.text;
      }
      return std::string();
    }));
  for (auto& g : games) EXPECT_EQ(g.get(), "");
  for (int g = 1; g <= kGames; ++g) {
    json state = server.get("/api/games/" + std::to_string(g)).body["state"];
    EXPECT_EQ(state["moves"].size(), 12u) << "game " << g;
  }
}

}  // namespace
}  // namespace fairyzero
