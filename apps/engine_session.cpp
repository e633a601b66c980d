// The engine session shared by the UCI and XBoard commands: loading the bot, the game, and the
// search on its own thread with stop, abort and a guard on the tree's memory.
#include "apps/engine_session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "apps/bot.h"
#include "apps/commands.h"
#include "core/errors.h"
#include "core/variant_loader.h"
#include "nn/network_evaluator.h"
#include "training/players/internal_player.h"

namespace fairyzero {
namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

EngineBot engine_bot_from_args(const Arguments& args) {
  if (args.positional().size() != 1)
    throw UsageError("give one bot: BOT_DIR, a checkpoint FILE.pt, or uniform|material");
  EngineBot bot;
  try {
    const PlayerSpec spec = parse_player_spec(args.positional()[0]);
    VariantPtr variant;
    if (auto name = args.value("--variant"))
      variant = load_variant_for_user(*name, args.values("--set"));
    else if (spec.kind != PlayerKind::kBot)
      throw UsageError("the bot '" + spec.spec + "' needs --variant NAME");
    InternalPlayer player = make_internal_player(
        spec, variant, args.value("--device").value_or("cpu"), args.values("--set"));
    for (const std::string& o : args.values("--set"))
      std::cerr << "note: variant option " << o << "\n";
    bot.variant = player.variant;
    CachingEvaluator cached = with_evaluation_cache(std::move(player.evaluator), 0);
    bot.evaluator = std::move(cached.evaluator);
    bot.cache = std::move(cached.cache);
    if (player.bot_search) bot.search = *player.bot_search;
    bot.name = spec.kind == PlayerKind::kBot ? "FairyZero " + bot.variant->name + " gen " +
                                                   std::to_string(player.bot_generation)
               : spec.kind == PlayerKind::kCheckpoint ? std::string("FairyZero network")
                                                      : "FairyZero " + spec.spec;
  } catch (const PlayerError& e) {
    throw UsageError(e.what());
  }
  bot.search.playouts = static_cast<int>(args.integer("--playouts", bot.search.playouts));
  bot.search.threads = static_cast<int>(args.integer("--threads", bot.search.threads));
  if (bot.search.playouts < 1) throw UsageError("--playouts must be at least 1");
  if (bot.search.threads < 1) throw UsageError("--threads must be at least 1");
  bot.search.params.threads = bot.search.threads;
  bot.search.params.root_noise = false;
  // The search's threads (and other engines on the machine) give the parallelism; a forward pass
  // on every core would oversubscribe it.
  bot.network_threads = static_cast<int>(args.integer("--network-threads", 1));
  set_cpu_forward_threads(bot.network_threads);
  return bot;
}

void require_two_players(const Variant& variant, const std::string& protocol) {
  if (variant.seat_count() == 2 && variant.army_count() == 2) return;
  throw UserError(protocol + " is a two-player protocol, and " + variant.name + " has " +
                  std::to_string(variant.seat_count()) + " seats over " +
                  std::to_string(variant.army_count()) + " armies; play it with `fairyzero play " +
                  variant.name + "`");
}

void EngineOutput::line(const std::string& text) {
  std::lock_guard lock(mutex_);
  out_ << text << std::endl;
}

EngineSession::EngineSession(EngineBot bot)
    : bot_(std::move(bot)),
      params_(bot_.search.params),
      start_(bot_.variant),
      position_(bot_.variant) {
  params_.threads = bot_.search.threads;
  params_.root_noise = false;
  set_memory_mb(memory_mb_);
  rebuild_search();
}

void EngineSession::set_memory_mb(int megabytes) {
  memory_mb_ = megabytes;
  if (bot_.cache) bot_.cache->set_max_bytes(static_cast<size_t>(megabytes) * (1 << 20) / 4);
}

size_t EngineSession::tree_limit_bytes() const {
  const size_t total = static_cast<size_t>(memory_mb_) * (1 << 20);
  return bot_.cache ? total - total / 4 : total;
}

EngineSession::~EngineSession() { abort(); }

void EngineSession::rebuild_search() {
  search_ = std::make_unique<Search>(position_, *bot_.evaluator, params_);
}

void EngineSession::new_game() { set_game(Position(bot_.variant), {}); }

void EngineSession::set_game(const Position& start, const std::vector<Move>& moves) {
  bool continues = start.fen() == start_.fen() && moves.size() >= moves_.size() &&
                   std::equal(moves_.begin(), moves_.end(), moves.begin());
  if (continues) {
    for (size_t i = moves_.size(); i < moves.size(); ++i) play(moves[i]);
    return;
  }
  start_ = start;
  position_ = start;
  moves_.clear();
  for (Move m : moves) {
    position_.play(m);
    moves_.push_back(m);
  }
  search_->set_position(position_);
}

void EngineSession::play(Move m) {
  position_.play(m);
  moves_.push_back(m);
  search_->play(m);
}

bool EngineSession::undo() {
  if (moves_.empty()) return false;
  moves_.pop_back();
  position_.undo();
  search_->set_position(position_);
  return true;
}

const SearchSetting* find_bot_search_setting(const std::string& key) {
  for (const SearchSetting& s : search_settings())
    if (s.in_bots && key == s.key) return &s;
  return nullptr;
}

std::string format_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

void EngineSession::set_search_parameter(const SearchSetting& setting, double value) {
  fairyzero::set_search_parameter(params_, setting, value);
  rebuild_search();
}

void EngineSession::set_threads(int threads) {
  params_.threads = std::max(1, threads);
  rebuild_search();
}

void EngineSession::start(const SearchLimits& limits, bool infinite, SearchCallbacks callbacks) {
  wait();
  {
    std::lock_guard lock(stop_mutex_);
    stop_requested_ = false;
    aborted_ = false;
  }
  thread_done_ = false;
  thread_ = std::thread(&EngineSession::run, this, limits, infinite, std::move(callbacks));
}

void EngineSession::run(SearchLimits limits, bool infinite, const SearchCallbacks& callbacks) {
  const size_t max_bytes = tree_limit_bytes();
  // A tree kept from earlier moves that already fills the limit would stop this search at once.
  if (search_->result().tree_bytes >= max_bytes) search_->set_position(position_);
  double next_report = now_seconds() + callbacks.report_seconds;
  // Called by one worker at a time: repeats a stop() that came before the search began (run()
  // clears the Search's own flag), enforces the tree limit and paces the progress reports.
  auto watch = [&](const SearchResult& r) {
    {
      std::lock_guard lock(stop_mutex_);
      if (stop_requested_) search_->stop();
    }
    if (r.tree_bytes >= max_bytes) search_->stop();
    double now = now_seconds();
    if (callbacks.progress && now >= next_report) {
      callbacks.progress(r);
      next_report = now + callbacks.report_seconds;
    }
  };
  try {
    SearchResult result = search_->run(limits, watch, 0.05);
    std::unique_lock lock(stop_mutex_);
    if (infinite) stop_signal_.wait(lock, [&] { return stop_requested_; });
    bool report = !aborted_;
    lock.unlock();
    if (report && callbacks.finished) callbacks.finished(result);
  } catch (const std::exception& e) {
    if (callbacks.failed) callbacks.failed(e.what());
  }
  thread_done_ = true;
}

void EngineSession::stop() {
  {
    std::lock_guard lock(stop_mutex_);
    stop_requested_ = true;
  }
  stop_signal_.notify_all();
  search_->stop();
}

void EngineSession::abort() {
  {
    std::lock_guard lock(stop_mutex_);
    aborted_ = true;
  }
  stop();
  wait();
}

void EngineSession::wait() {
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

namespace {

// The score of the side to move from its expected score s; a proven result's distance is the
// solver's count along the proof, not the principal variation's length (which stops where
// visits run out).
EngineScore score_of(float s, bool proven, float moves_left) {
  int plies = static_cast<int>(std::lround(moves_left));
  if (proven && s >= 1.0f) return {true, std::max(1, (plies + 1) / 2)};
  if (proven && s <= 0.0f) return {true, -std::max(1, plies / 2)};
  if (proven) return {false, 0};
  double p = std::clamp(static_cast<double>(s), 1e-6, 1 - 1e-6);
  double cp = 400 * std::log10(p / (1 - p));
  return {false, static_cast<int>(std::lround(std::clamp(cp, -2000.0, 2000.0)))};
}

}  // namespace

EngineScore engine_score(const SearchResult& r) {
  return score_of(r.wdl[0] + r.wdl[1] / 2, r.proven, r.moves_left);
}

EngineScore engine_score(const SearchLine& line) {
  return score_of(line.value, line.proven, line.moves_left);
}

int engine_depth(const SearchResult& r) {
  return std::max(1, static_cast<int>(std::floor(std::log2(std::max(1, r.root_visits)))));
}

int playouts_for_depth(int depth) { return 1 << std::clamp(depth, 1, 30); }

}  // namespace fairyzero
