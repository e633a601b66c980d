// Writing the arena's game records, results.csv, summary.txt and summary.json.
#include "training/arena/arena_records.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "core/errors.h"
#include "training/arena/arena_openings.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;

std::string capitalized(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text;
}

// A tag value or comment with the characters that would end it replaced.
std::string sanitized(std::string text, const std::string& forbidden) {
  for (char& c : text)
    if (forbidden.find(c) != std::string::npos) c = '\'';
  return text;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string today() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof text, "%Y.%m.%d", &utc);
  return text;
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string signed_fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%+.*f", decimals, value);
  return text;
}

std::string format_number(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

std::string game_file(const std::string& out_dir, int index) {
  char name[32];
  std::snprintf(name, sizeof name, "%04d.pgn", index + 1);
  return (fs::path(out_dir) / "games" / name).string();
}

std::string describe_player(const PlayerSpec& spec, int default_visits) {
  switch (spec.kind) {
    case PlayerKind::kUci:
    case PlayerKind::kXboard: {
      const EngineLimits& l = spec.engine_limits;
      std::string limit =
          l.nodes > 0   ? "nodes " + std::to_string(l.nodes)
          : l.depth > 0 ? "depth " + std::to_string(l.depth)
          : l.has_clock()
              ? "clock " + format_number(l.clock_seconds) + "+" +
                    format_number(l.increment_seconds) + " s"
              : "movetime " + std::to_string(l.movetime_ms > 0 ? l.movetime_ms : 100) + " ms";
      return std::string(spec.kind == PlayerKind::kUci ? "UCI" : "XBoard") + " engine '" +
             spec.target + "', " + limit;
    }
    default: {
      std::string visits = spec.visits > 0                 ? std::to_string(spec.visits)
                           : spec.kind == PlayerKind::kBot ? "the bot's default"
                                                           : std::to_string(default_visits);
      return "MCTS over " + spec.spec + ", " + visits + " playouts per move";
    }
  }
}

}  // namespace

std::string result_text(const ArenaGame& game) {
  // As the statistics count a game (MatchState::add): a share of the points between a quarter
  // and three quarters (Double Commedia's repetition with an army taken over) is a draw.
  if (game.side_score[0] > 0.75) return "1-0";
  if (game.side_score[0] < 0.25) return "0-1";
  return "1/2-1/2";
}

std::string format_game_record(const ArenaConfig& config, const ArenaGame& game) {
  const Variant& variant = *config.variant;
  std::ostringstream out;
  auto tag = [&](const std::string& name, const std::string& value) {
    out << "[" << name << " \"" << sanitized(value, "\"\n") << "\"]\n";
  };
  tag("Event", "FairyZero arena");
  tag("Date", today());
  tag("Round", std::to_string(game.index + 1));
  tag("Variant", variant.name);
  const ArenaSides sides = arena_sides(variant);
  for (int seat = 0; seat < variant.seat_count(); ++seat)
    tag(capitalized(variant.seats[seat].name),
        config.players[sides.side_of_seat[seat] == game.side_of_first ? 0 : 1].name);
  tag("Result", result_text(game));
  tag("Termination", game.termination);
  if (!game.start_fen.empty()) {
    tag("FEN", game.start_fen);
    tag("SetUp", "1");
  }
  tag("Opening", game.opening);
  tag("PlyCount", std::to_string(game.moves.size()));
  out << "\n";

  // A move number opens each round of the turn order (two plies, or four with four seats).
  Position start = opening_position(config.variant, Opening{"", game.start_fen, {}});
  const size_t round = variant.turn_order.size();
  const size_t offset = static_cast<size_t>(
      std::find(variant.turn_order.begin(), variant.turn_order.end(), start.seat_to_move()) -
      variant.turn_order.begin());
  std::string line;
  auto add = [&](const std::string& word) {
    if (!line.empty() && line.size() + 1 + word.size() > 79) {
      out << line << "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  };
  for (size_t i = 0; i < game.moves.size(); ++i) {
    size_t ply = i + offset;
    // A move number stays on the line of its move.
    if (ply % round == 0)
      add(std::to_string(ply / round + 1) + ". " + game.moves[i]);
    else if (i == 0)
      add("1... " + game.moves[i]);
    else
      add(game.moves[i]);
  }
  if (!game.detail.empty()) add("{" + sanitized(game.detail, "{}") + "}");
  add(result_text(game));
  out << line << "\n";
  return out.str();
}

std::string format_summary(const ArenaConfig& config, const ArenaResult& result) {
  const ArenaStatus& s = result.status;
  const GameCounts& c = s.counts;
  std::ostringstream out;
  out << "FairyZero arena: " << config.variant->name << "\n";
  for (int p = 0; p < 2; ++p)
    out << (p == 0 ? "first:  " : "second: ") << config.players[p].name << " ("
        << describe_player(config.players[p], config.default_visits) << ")\n";
  out << "games: " << s.games_done << " of " << s.games_total << " in " << fixed(s.seconds, 1)
      << " s (" << fixed(s.games_per_second, 2) << " games/s, " << config.concurrency
      << " at a time)\n";
  out << config.players[0].name << ": score " << fixed(c.wins + 0.5 * c.draws, 1) << "/"
      << c.games() << " (" << fixed(100 * c.score(), 1) << "%), +" << c.wins << " =" << c.draws
      << " -" << c.losses << "\n";
  out << "Elo difference (first - second): " << signed_fixed(s.elo.elo, 1) << ", 95% interval ["
      << signed_fixed(s.elo.elo_low, 1) << ", " << signed_fixed(s.elo.elo_high, 1) << "]"
      << (s.elo.regularized ? " (every game had the same result: one virtual half-won game "
                              "added, see docs/ARENA.md)"
                            : "")
      << "\n";
  out << "likelihood of superiority: " << fixed(100 * s.los, 1) << "%\n";
  if (config.sprt) {
    const SprtSettings& t = *config.sprt;
    out << "SPRT elo0 " << t.elo0 << ", elo1 " << t.elo1 << ", alpha " << t.alpha << ", beta "
        << t.beta << ": LLR " << fixed(s.llr, 2) << " [" << fixed(t.lower_bound(), 2) << ", "
        << fixed(t.upper_bound(), 2) << "], " << sprt_decision_name(s.decision) << "\n";
  }
  std::array<double, 2> side_points{};
  std::array<int, 2> side_games{};
  std::map<std::string, int> terminations;
  for (const ArenaGame& game : result.games) {
    side_points[game.side_of_first] += game.first_score;
    ++side_games[game.side_of_first];
    ++terminations[game.termination];
  }
  const ArenaSides sides = arena_sides(*config.variant);
  const int seats = config.variant->seat_count();
  out << config.players[0].name
      << (seats == 2                                      ? " by seat:"
          : sides.names[0].find('+') == std::string::npos ? " by team:"
                                                          : " by side:");
  for (int side = 0; side < 2; ++side)
    out << (side ? ", as " : " as ") << sides.names[side] << " " << fixed(side_points[side], 1)
        << "/" << side_games[side];
  out << "\nterminations:";
  const char* separator = " ";
  for (const auto& [termination, count] : terminations) {
    out << separator << termination << " " << count;
    separator = ", ";
  }
  out << "\n";
  return out.str();
}

std::string format_summary_json(const ArenaConfig& config, const ArenaResult& result) {
  const ArenaStatus& s = result.status;
  nlohmann::json players = nlohmann::json::array();
  for (const PlayerSpec& p : config.players) {
    nlohmann::json player = {{"name", p.name},
                             {"spec", p.spec},
                             {"description", describe_player(p, config.default_visits)}};
    if (p.is_engine()) {
      if (p.engine_limits.nodes > 0) player["nodes"] = p.engine_limits.nodes;
    } else if (p.visits > 0 || p.kind != PlayerKind::kBot) {
      player["visits"] = p.visits > 0 ? p.visits : config.default_visits;
    }
    players.push_back(player);
  }
  const nlohmann::json summary = {{"format", 1},
                                  {"variant", config.variant->name},
                                  {"players", players},
                                  {"games", s.games_done},
                                  {"wins", s.counts.wins},
                                  {"draws", s.counts.draws},
                                  {"losses", s.counts.losses},
                                  {"score", s.counts.score()},
                                  {"elo", s.elo.elo},
                                  {"elo_low", s.elo.elo_low},
                                  {"elo_high", s.elo.elo_high},
                                  {"regularized", s.elo.regularized},
                                  {"likelihood_of_superiority", s.los},
                                  {"seconds", s.seconds}};
  return summary.dump(2) + "\n";
}

ArenaRecorder::ArenaRecorder(const ArenaConfig& config) : config_(config) {
  std::error_code error;
  fs::create_directories(fs::path(config.out_dir) / "games", error);
  if (error)
    throw UserError("arena records: cannot create " + config.out_dir +
                    "/games: " + error.message());
  std::string path = (fs::path(config.out_dir) / "results.csv").string();
  results_.open(path);
  if (!results_) throw UserError("arena records: cannot write " + path);
  const ArenaSides sides = arena_sides(*config.variant);
  results_ << "game,pair," << csv_field(sides.names[0]) << "," << csv_field(sides.names[1])
           << ",result,first_score,termination,plies,seconds,opening\n";
  results_.flush();
}

void ArenaRecorder::record(const ArenaGame& game) {
  std::string path = game_file(config_.out_dir, game.index);
  std::ofstream file(path);
  file << format_game_record(config_, game);
  if (!file) throw UserError("arena records: cannot write " + path);
  const std::string& first = config_.players[0].name;
  const std::string& second = config_.players[1].name;
  results_ << game.index + 1 << "," << game.pair + 1 << ","
           << csv_field(game.side_of_first == 0 ? first : second) << ","
           << csv_field(game.side_of_first == 1 ? first : second) << "," << result_text(game) << ","
           << game.first_score << "," << csv_field(game.termination) << "," << game.moves.size()
           << "," << fixed(game.seconds, 2) << "," << csv_field(game.opening) << "\n";
  results_.flush();
  if (!results_) throw UserError("arena records: cannot write results.csv in " + config_.out_dir);
}

void ArenaRecorder::write_summary(const ArenaResult& result) {
  std::string path = (fs::path(config_.out_dir) / "summary.txt").string();
  std::ofstream file(path);
  file << format_summary(config_, result);
  if (!file) throw UserError("arena records: cannot write " + path);
  const std::string json_path = (fs::path(config_.out_dir) / "summary.json").string();
  std::ofstream json(json_path);
  json << format_summary_json(config_, result);
  if (!json) throw UserError("arena records: cannot write " + json_path);
}

}  // namespace fairyzero
