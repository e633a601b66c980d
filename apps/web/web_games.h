// The games a web board plays: each game's variant, moves and the player of every seat (a person
// or a bot), with one bot search at a time that any request can stop. Several browser tabs may
// play and watch at once: every call locks what it reads.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/position.h"
#include "mcts/search.h"

namespace fairyzero {

// A request the board cannot honour: the message says why, for a 4xx answer. `status` is the
// HTTP status: 400 bad input, 404 no such thing, 409 the game is busy or changed, 503 the server
// is shutting down.
class WebError : public UserError {
 public:
  WebError(int status, const std::string& message) : UserError(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// Who may play a seat: "human", "uniform", "material", the name of a bot folder inside the
// server's bots folder, or "run:PATH" for a checkpoint below its runs folder (never any other
// path: the page cannot make the server read other files).
struct SeatPlayerSpec {
  std::string spec = "human";
};

struct SearchRequest {
  int visits = 0;      // 0: the bot's default (its search.toml, else 400)
  double seconds = 0;  // instead of visits when set
  int lines = 3;
};

class WebGame {
 public:
  // `bots_dir` holds the bot folders seats may name, `runs_dir` the checkpoints (empty: none).
  // Throws WebError.
  WebGame(VariantPtr variant, const std::optional<std::string>& fen,
          const std::vector<std::string>& seats, const std::string& bots_dir,
          const std::string& runs_dir);
  ~WebGame();

  nlohmann::json state() const;
  const Variant& variant() const { return *variant_; }
  // Plays a move given as text for the seat to move. Throws WebError (400: illegal, naming it).
  nlohmann::json play(const std::string& move_text);
  // The bot of the seat to move searches and plays. 409 when a person plays that seat, a search
  // is running, or the game changed while it searched (the move is then not played).
  nlohmann::json bot_move(const SearchRequest& request);
  // The seat's bot (or material for a person's seat) evaluates the position; nothing is played.
  nlohmann::json analyse(const SearchRequest& request);
  // Stops the running search, which answers with what it has; false when none runs.
  bool stop();
  // Stops the running search and refuses every later one (503): the server is shutting down, and
  // a search whose request was already under way must not start after the stop and hold it.
  void close();
  nlohmann::json undo();
  // The seat (its team) gives up: the game ends, the other team wins.
  nlohmann::json resign(int seat);
  // The game as a record: tags and moves, as the arena writes them.
  std::string record() const;

  struct SeatBot;  // a seat's evaluator and search settings

 private:
  nlohmann::json state_locked() const;
  nlohmann::json search(int seat, const SearchRequest& request, bool play);

  VariantPtr variant_;
  Position start_;
  std::vector<std::string> seat_specs_;
  std::vector<std::unique_ptr<SeatBot>> bots_;  // per seat; null for a person

  mutable std::mutex mutex_;  // guards the game below
  Position position_;
  std::vector<std::string> moves_;
  nlohmann::json last_move_;  // the last move's cells, for the page to mark
  std::optional<int> resigned_seat_;
  bool searching_ = false;  // guarded too
  std::mutex search_mutex_;
  Search* running_ = nullptr;  // guarded by search_mutex_, for stop()
  bool closed_ = false;        // guarded by search_mutex_
};

class WebGames {
 public:
  WebGames(std::string bots_dir, std::string runs_dir, size_t max_games = 256)
      : bots_dir_(std::move(bots_dir)), runs_dir_(std::move(runs_dir)), max_games_(max_games) {}
  // A new game; its id. Throws WebError (unknown variant, bad FEN, bad seat).
  std::string create(const nlohmann::json& request);
  // Throws WebError(404).
  std::shared_ptr<WebGame> find(const std::string& id) const;
  // The server is shutting down: closes every game (see WebGame::close) and refuses new ones.
  void close_all();

 private:
  std::string bots_dir_, runs_dir_;
  size_t max_games_;
  mutable std::mutex mutex_;
  std::map<long long, std::shared_ptr<WebGame>> games_;  // by id: the first is the oldest
  long long next_id_ = 1;
  bool closed_ = false;  // guarded by mutex_
};

}  // namespace fairyzero
