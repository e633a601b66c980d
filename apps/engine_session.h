// The engine behind `fairyzero uci` and `fairyzero xboard`: a bot (evaluator and search
// defaults), the game's position and one Search over it, run on a background thread so that the
// protocol loop keeps reading commands (stop, ?, ping) while the bot thinks.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "apps/arguments.h"
#include "core/errors.h"
#include "core/position.h"
#include "mcts/evaluation_cache.h"
#include "mcts/search.h"
#include "mcts/search_settings.h"
#include "mcts/time_manager.h"
#include "training/players/bot_bundle.h"

namespace fairyzero {

// What plays: the evaluator, its variant and default search settings, and a name for the GUI.
struct EngineBot {
  VariantPtr variant;
  std::unique_ptr<Evaluator> evaluator;
  // The network's evaluation cache, shared by every move of every game (none for uniform and
  // material, which cost less than a lookup).
  std::shared_ptr<EvaluationCache> cache;
  BotSearchDefaults search;
  std::string name;         // "FairyZero minichess gen-6", "FairyZero material"
  int network_threads = 1;  // threads of a CPU forward pass (--network-threads)
};

// The bot of a protocol command line: BOT_DIR (an exported bot), a checkpoint FILE.pt, or
// uniform|material, the last two with --variant NAME; --set overrides, --device, --threads and
// --playouts (over search.toml). Throws UsageError or BotBundleError.
EngineBot engine_bot_from_args(const Arguments& args);

// UCI and XBoard are two-player protocols; throws std::runtime_error naming the protocol and
// the variant's seats otherwise.
void require_two_players(const Variant& variant, const std::string& protocol);

// Lines written whole, from the protocol thread and the search thread alike, flushed at once
// (a GUI waits for each line).
class EngineOutput {
 public:
  explicit EngineOutput(std::ostream& out) : out_(out) {}
  void line(const std::string& text);

 private:
  std::mutex mutex_;
  std::ostream& out_;
};

// What a search reports, and when.
struct SearchCallbacks {
  std::function<void(const SearchResult&)> progress;  // about every report_seconds
  std::function<void(const SearchResult&)> finished;  // once at the end (not after abort())
  std::function<void(const std::string&)> failed;     // the evaluator threw, instead of finished
  double report_seconds = 1.0;
};

// A search parameter a bot may set (search_settings() with in_bots) by key, or nullptr.
const SearchSetting* find_bot_search_setting(const std::string& key);
// Sets it from an option's text on the session; a malformed or out-of-range value goes to
// `report` and changes nothing.
template <typename Report>
void set_search_option(class EngineSession& session, const SearchSetting& setting,
                       const std::string& text, Report&& report);
// A number as options show it: "1.25", "19652".
std::string format_number(double x);

class EngineSession {
 public:
  explicit EngineSession(EngineBot bot);
  ~EngineSession();  // aborts a running search
  EngineSession(const EngineSession&) = delete;
  EngineSession& operator=(const EngineSession&) = delete;

  const EngineBot& bot() const { return bot_; }
  const Variant& variant() const { return *bot_.variant; }

  // The game. Changing it needs no search running: call wait() or abort() first, except from
  // the `finished` callback, which runs once the search is over.
  const Position& position() const { return position_; }
  // The variant's start position; the search tree is dropped.
  void new_game();
  // `start` followed by `moves` (all legal). When this continues the current game (same start,
  // the current moves a prefix) the search tree is kept for the moves played since.
  void set_game(const Position& start, const std::vector<Move>& moves);
  void play(Move m);
  // Takes back the last move; false when there is none.
  bool undo();

  // Settings taking effect at the next search.
  void set_threads(int threads);
  int threads() const { return params_.threads; }
  // A declared search parameter (mcts/search_settings.h) by key; throws std::invalid_argument
  // naming it and its range.
  void set_search_parameter(const SearchSetting& setting, double value);
  const SearchParams& search_params() const { return params_; }
  // The memory of the search (UCI Hash, XBoard memory): a quarter for the evaluation cache
  // where there is one, the rest for the tree; the search stops once its tree fills its share
  // (guards `go infinite`).
  void set_memory_mb(int megabytes);
  int memory_mb() const { return memory_mb_; }
  size_t tree_limit_bytes() const;
  // Clock searches (UCI TimeManager, XBoard option): managed, a settled move stops early and an
  // unclear one thinks longer (mcts/time_manager.h); else each move searches its share.
  void set_time_managed(bool managed) { time_managed_ = managed; }
  bool time_managed() const { return time_managed_; }

  // Searches the current position on a background thread. With `infinite` the result waits for
  // stop() even when the search ends earlier (a proven root, the tree limit), as UCI requires.
  void start(const SearchLimits& limits, bool infinite, SearchCallbacks callbacks);
  // Asks the search to finish now and report; returns at once.
  void stop();
  // Stops the search without reporting, and waits for its thread.
  void abort();
  // Waits until the search thread has finished (and reported).
  void wait();
  bool searching() const { return thread_.joinable() && !thread_done_; }

 private:
  void run(SearchLimits limits, bool infinite, const SearchCallbacks& callbacks);
  void rebuild_search();

  EngineBot bot_;
  SearchParams params_;
  int memory_mb_ = 1024;
  bool time_managed_ = true;
  Position start_;
  std::vector<Move> moves_;
  Position position_;
  std::unique_ptr<Search> search_;
  std::thread thread_;
  std::atomic<bool> thread_done_{true};
  std::mutex stop_mutex_;
  std::condition_variable stop_signal_;
  bool stop_requested_ = false;  // guarded by stop_mutex_
  bool aborted_ = false;         // guarded by stop_mutex_
};

// How a search result is shown to a GUI.
struct EngineScore {
  bool mate = false;  // a proven win or loss
  int value = 0;      // centipawns, or moves to mate (negative: the side to move is mated)
};
// Centipawns from the expected score s of the side to move by the logistic curve
// s = 1 / (1 + 10^(-cp/400)) (the Elo curve), cp = 400 log10(s / (1 - s)), clamped to
// +-2000; proven results as mate in the PV's moves (proven draws as 0).
EngineScore engine_score(const SearchResult& result);
// The same for one root move's line (MultiPV).
EngineScore engine_score(const SearchLine& line);
// A depth-like number: log2 of the root's visits (doubling the visits adds one), at least 1.
int engine_depth(const SearchResult& result);
// The playouts a `go depth D` / `sd D` asks for, the inverse of engine_depth: 2^D.
int playouts_for_depth(int depth);

template <typename Report>
void set_search_option(EngineSession& session, const SearchSetting& setting,
                       const std::string& text, Report&& report) {
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    return report(std::string(setting.key) + " must be a number, not '" + text + "'");
  try {
    session.set_search_parameter(setting, value);
  } catch (const SettingError& e) {
    report(e.what());
  }
}

}  // namespace fairyzero
