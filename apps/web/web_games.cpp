// The web board's games: seats played by people or bots, searches that can be stopped, and
// moves checked by the rules core.
#include "apps/web/web_games.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "apps/web/web_json.h"
#include "apps/web/web_runs.h"
#include "core/variant_loader.h"
#include "mcts/basic_evaluators.h"
#include "training/play/player_spec.h"
#include "training/players/internal_player.h"

namespace fairyzero {
namespace fs = std::filesystem;
using nlohmann::json;

struct WebGame::SeatBot {
  std::unique_ptr<Evaluator> evaluator;
  int visits = 400;
  SearchParams params;
};

namespace {

// A bot folder name inside `bots_dir`: one path component, no "..", with a manifest.
std::string bot_folder(const std::string& bots_dir, const std::string& name) {
  if (bots_dir.empty())
    throw WebError(400, "seat '" + name + "': this server was started without --bots");
  if (name.empty() || name.find('/') != std::string::npos || name.find('\\') != std::string::npos ||
      name == "." || name == "..")
    throw WebError(400, "seat '" + name + "': a bot is named by its folder in --bots, not a path");
  const fs::path folder = fs::path(bots_dir) / name;
  if (!fs::exists(folder / "manifest.toml"))
    throw WebError(400, "seat '" + name + "': no bot of that name in " + bots_dir);
  return folder.string();
}

// A checkpoint below `runs_dir`: "run:RUN/checkpoints/gen-0012.pt".
std::string run_checkpoint(const std::string& runs_dir, const std::string& spec) {
  const std::string path = path_inside(runs_dir, spec.substr(4));
  if (fs::path(path).extension() != ".pt")
    throw WebError(400, "seat '" + spec + "': a run's player is a checkpoint, FILE.pt");
  return path;
}

std::unique_ptr<WebGame::SeatBot> make_seat_bot(const std::string& spec, const VariantPtr& variant,
                                                const std::string& bots_dir,
                                                const std::string& runs_dir) {
  if (spec == "human") return nullptr;
  const std::string target = spec == "uniform" || spec == "material" ? spec
                             : spec.rfind("run:", 0) == 0 ? run_checkpoint(runs_dir, spec)
                                                          : bot_folder(bots_dir, spec);
  auto bot = std::make_unique<WebGame::SeatBot>();
  try {
    InternalPlayer player = make_internal_player(parse_player_spec(target), variant, "cpu");
    bot->evaluator = std::move(player.evaluator);
    if (player.bot_search) {
      bot->visits = player.bot_search->playouts;
      bot->params = player.bot_search->params;
    }
  } catch (const std::exception& e) {
    throw WebError(400, "seat '" + spec + "': " + e.what());
  }
  bot->params.root_noise = false;
  return bot;
}

}  // namespace

WebGame::WebGame(VariantPtr variant, const std::optional<std::string>& fen,
                 const std::vector<std::string>& seats, const std::string& bots_dir,
                 const std::string& runs_dir)
    : variant_(std::move(variant)), start_(variant_), position_(variant_) {
  if (fen) {
    try {
      start_ = Position::from_fen(variant_, *fen);
    } catch (const std::exception& e) {
      throw WebError(400, std::string("bad FEN: ") + e.what());
    }
  }
  position_ = start_;
  if (!seats.empty() && static_cast<int>(seats.size()) != variant_->seat_count())
    throw WebError(400, variant_->name + " has " + std::to_string(variant_->seat_count()) +
                            " seats; " + std::to_string(seats.size()) + " players were given");
  for (int s = 0; s < variant_->seat_count(); ++s) {
    seat_specs_.push_back(seats.empty() ? "human" : seats[s]);
    bots_.push_back(make_seat_bot(seat_specs_.back(), variant_, bots_dir, runs_dir));
  }
}

WebGame::~WebGame() { stop(); }

json WebGame::state() const {
  std::lock_guard lock(mutex_);
  return state_locked();
}

json WebGame::state_locked() const {
  MoveList legal;
  if (!resigned_seat_) position_.legal_moves(legal);
  json out = position_json(position_, legal);
  if (resigned_seat_) {
    json scores = json::array();
    const int team = variant_->team_of_army[variant_->seats[*resigned_seat_].army];
    for (int s = 0; s < variant_->seat_count(); ++s)
      scores.push_back(variant_->team_of_army[variant_->seats[s].army] == team ? 0.0 : 1.0);
    out["outcome"] = {{"termination", variant_->seats[*resigned_seat_].name + " resigned"},
                      {"score", scores}};
  }
  out["moves"] = moves_;
  if (!moves_.empty()) out["last_move"] = last_move_;
  out["players"] = seat_specs_;
  out["searching"] = searching_;
  out["start_fen"] = start_.fen();
  return out;
}

json WebGame::play(const std::string& text) {
  std::lock_guard lock(mutex_);
  if (searching_) throw WebError(409, "a bot is thinking: stop it first");
  if (state_locked().contains("outcome")) throw WebError(409, "the game is over");
  Move m;
  try {
    m = position_.parse_move(text);
  } catch (const MoveError& e) {
    throw WebError(400, "illegal move '" + text + "': " + e.what());
  }
  moves_.push_back(position_.move_text(m));
  last_move_ = move_json(position_, m);
  position_.play(m);
  return state_locked();
}

json WebGame::bot_move(const SearchRequest& request) {
  int seat = 0;
  {
    std::lock_guard lock(mutex_);
    seat = position_.seat_to_move();
  }
  if (!bots_[seat])
    throw WebError(409, variant_->seats[seat].name + " is played by a person, not a bot");
  return search(seat, request, true);
}

json WebGame::analyse(const SearchRequest& request) {
  int seat = 0;
  {
    std::lock_guard lock(mutex_);
    seat = position_.seat_to_move();
  }
  return search(seat, request, false);
}

json WebGame::search(int seat, const SearchRequest& request, bool play) {
  Position root(variant_);
  {
    std::lock_guard lock(mutex_);
    if (searching_) throw WebError(409, "a bot is already thinking in this game");
    if (state_locked().contains("outcome")) throw WebError(409, "the game is over");
    searching_ = true;
    root = position_;
  }
  struct Done {
    WebGame& game;
    ~Done() {
      std::lock_guard lock(game.mutex_);
      game.searching_ = false;
    }
  } done{*this};
  // A person's seat is analysed by the first bot of the game, else by the material search.
  SeatBot* bot = bots_[seat].get();
  for (int s = 0; !bot && s < variant_->seat_count(); ++s) bot = bots_[s].get();
  MaterialEvaluator material(*variant_);
  Evaluator& evaluator = bot ? *bot->evaluator : material;
  Search search(root, evaluator, bot ? bot->params : SearchParams{});
  SearchLimits limits;
  limits.playouts = request.visits > 0 ? request.visits : bot ? bot->visits : 400;
  if (request.seconds > 0) limits = {.seconds = request.seconds};
  limits.lines = std::clamp(request.lines, 1, 16);
  {
    std::lock_guard lock(search_mutex_);
    if (closed_) throw WebError(503, "the server is shutting down; the bot did not search");
    running_ = &search;
  }
  SearchResult result;
  try {
    result = search.run(limits);
  } catch (...) {
    std::lock_guard lock(search_mutex_);
    running_ = nullptr;
    throw;
  }
  {
    std::lock_guard lock(search_mutex_);
    running_ = nullptr;
  }
  json out = {{"search", search_json(root, result)}};
  if (!play) return out;
  std::lock_guard lock(mutex_);
  if (position_.fen() != root.fen() || position_.plies_played() != root.plies_played())
    throw WebError(409, "the game changed while the bot was thinking; its move was not played");
  if (result.best.is_none()) throw WebError(409, "the bot found no move");
  out["move"] = root.move_text(result.best);
  moves_.push_back(out["move"]);
  last_move_ = move_json(position_, result.best);
  position_.play(result.best);
  out["state"] = state_locked();
  return out;
}

bool WebGame::stop() {
  std::lock_guard lock(search_mutex_);
  if (!running_) return false;
  running_->stop();
  return true;
}

void WebGame::close() {
  std::lock_guard lock(search_mutex_);
  closed_ = true;
  if (running_) running_->stop();
}

json WebGame::undo() {
  std::lock_guard lock(mutex_);
  if (searching_) throw WebError(409, "a bot is thinking: stop it first");
  if (resigned_seat_) {
    resigned_seat_.reset();
  } else {
    if (moves_.empty()) throw WebError(409, "no move to take back");
    position_.undo();
    moves_.pop_back();
    last_move_ = nullptr;
    if (!moves_.empty()) {
      Position before = position_;
      before.undo();
      last_move_ = move_json(before, before.parse_move(moves_.back()));
    }
  }
  return state_locked();
}

json WebGame::resign(int seat) {
  std::lock_guard lock(mutex_);
  if (seat < 0 || seat >= variant_->seat_count())
    throw WebError(400, "no seat " + std::to_string(seat) + " in " + variant_->name);
  if (state_locked().contains("outcome")) throw WebError(409, "the game is over");
  resigned_seat_ = seat;
  return state_locked();
}

std::string WebGame::record() const {
  std::lock_guard lock(mutex_);
  std::ostringstream out;
  out << "[Event \"FairyZero web board\"]\n[Variant \"" << variant_->name << "\"]\n";
  if (start_.fen() != Position(variant_).fen()) out << "[FEN \"" << start_.fen() << "\"]\n";
  for (int s = 0; s < variant_->seat_count(); ++s)
    out << "[" << variant_->seats[s].name << " \"" << seat_specs_[s] << "\"]\n";
  const json st = state_locked();
  if (st.contains("outcome"))
    out << "[Termination \"" << st["outcome"]["termination"].get<std::string>() << "\"]\n";
  out << "[FinalFEN \"" << position_.fen() << "\"]\n\n";
  for (size_t i = 0; i < moves_.size(); ++i) out << (i ? " " : "") << moves_[i];
  out << "\n";
  return out.str();
}

std::string WebGames::create(const json& request) {
  if (!request.is_object() || !request.contains("variant") || !request["variant"].is_string())
    throw WebError(400, "a new game needs {\"variant\": NAME}");
  const std::string name = request["variant"];
  const std::vector<std::string> known = list_variants();
  if (std::find(known.begin(), known.end(), name) == known.end())
    throw WebError(404, "no variant '" + name + "'");
  std::optional<std::string> fen;
  if (request.contains("fen") && request["fen"].is_string() &&
      !request["fen"].get<std::string>().empty())
    fen = request["fen"].get<std::string>();
  std::vector<std::string> seats;
  if (request.contains("seats")) {
    if (!request["seats"].is_array()) throw WebError(400, "seats must be a list of players");
    for (const json& s : request["seats"]) {
      if (!s.is_string()) throw WebError(400, "each seat is a player name");
      seats.push_back(s);
    }
  }
  auto game = std::make_shared<WebGame>(find_variant(name), fen, seats, bots_dir_, runs_dir_);
  std::lock_guard lock(mutex_);
  if (closed_) throw WebError(503, "the server is shutting down");
  if (games_.size() >= max_games_) games_.erase(games_.begin());  // the oldest goes
  const long long id = next_id_++;
  games_[id] = std::move(game);
  return std::to_string(id);
}

std::shared_ptr<WebGame> WebGames::find(const std::string& id) const {
  std::lock_guard lock(mutex_);
  const bool digits =
      !id.empty() && id.size() < 18 &&
      std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
  auto it = digits ? games_.find(std::stoll(id)) : games_.end();
  if (it == games_.end()) throw WebError(404, "no game " + id);
  return it->second;
}

void WebGames::close_all() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  for (auto& [id, game] : games_) game->close();
}

}  // namespace fairyzero
