// Plays a generation's self-play games behind inference servers (and a league when it plays),
// and writes their samples, records and selfplay.csv row.
#include "training/learn/generation_player.h"

#include <chrono>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "core/rules_fingerprint.h"
#include "core/temporary_file.h"
#include "mcts/basic_evaluators.h"
#include "mcts/inference_server.h"
#include "nn/checkpoint.h"
#include "nn/encoder.h"
#include "nn/network_evaluator.h"
#include "training/learn/league.h"
#include "training/learn/self_play.h"
#include "training/learn/validation.h"
#include "training/play/self_play_record.h"

namespace fairyzero {
namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string format_seconds(double s) {
  char text[32];
  if (s >= 3600)
    std::snprintf(text, sizeof text, "%dh%02dm", int(s / 3600), int(s / 60) % 60);
  else if (s >= 60)
    std::snprintf(text, sizeof text, "%dm%02ds", int(s / 60), int(s) % 60);
  else
    std::snprintf(text, sizeof text, "%.0fs", s);
  return text;
}

SampleFileInfo sample_file_info(const Encoder& encoder) {
  const Variant& variant = encoder.variant();
  SampleFileInfo info;
  info.schema_version = kSampleSchemaVersion;
  info.variant = variant.name;
  const RulesFields rules = rules_fields(variant);
  info.rules_fingerprint = rules_fingerprint(rules);
  info.rules = rules_fields_text(rules);
  info.encoder_version = Encoder::kVersion;
  info.planes = encoder.plane_count();
  info.cells = encoder.cells();
  info.value_heads = encoder.value_heads();
  info.seats = variant.seat_count();
  return info;
}

GenerationPlayer::GenerationPlayer(VariantPtr variant, const TrainConfig& config,
                                   std::vector<std::string> agents, CheckpointPath checkpoint_path,
                                   uint64_t seed)
    : variant_(std::move(variant)),
      config_(config),
      agents_(std::move(agents)),
      checkpoint_path_(std::move(checkpoint_path)),
      seed_(seed) {}

GenerationPlayer::~GenerationPlayer() = default;

std::shared_ptr<Evaluator> GenerationPlayer::load_network(int generation, int agent) {
  const std::string& seat = agents_.at(agent);
  return std::make_shared<NetworkEvaluator>(
      variant_, load_checkpoint(checkpoint_path_(generation, seat), variant_, seat),
      NetworkEvaluatorOptions{.device = config_.run.device,
                              .precision = parse_precision(config_.inference.precision)});
}

std::shared_ptr<Evaluator> GenerationPlayer::earlier_network(int generation, int agent) {
  std::lock_guard lock(earlier_mutex_);
  std::shared_ptr<Evaluator>& network = earlier_[{generation, agent}];
  if (!network) network = load_network(generation, agent);
  return network;
}

PlayedGames GenerationPlayer::play(const std::vector<std::shared_ptr<Evaluator>>& networks,
                                   int network_generation, const std::string& label,
                                   const std::function<void(const std::string&)>& progress) {
  const TrainConfig& c = config_;
  PlayedGames played;
  // Before the networks have learned anything, the material search plays every seat: its games
  // end by the rules with captures that mean something, so the first networks learn from them.
  std::vector<std::shared_ptr<Evaluator>> players = networks;
  const bool bootstrap = network_generation < c.agents.bootstrap_generations;
  if (bootstrap) {
    played.teacher = "material";
    players.assign(networks.size(), std::make_shared<MaterialEvaluator>(*variant_));
  }
  // Each self-play worker keeps `batches_in_flight` requests waiting at most: with all of them
  // queued the batch can grow no more, so it goes without waiting out the deadline. Every
  // server of the generation (league lineups, per-seat networks) takes turns on the one device:
  // one batch at a time on the CPU, one per server thread (each its own stream) on CUDA.
  const bool cuda = c.run.device.rfind("cuda", 0) == 0;
  const InferenceServerConfig server_config{
      .max_batch = c.inference.max_batch,
      .max_wait_us = c.inference.max_wait_us,
      .clients = c.selfplay.workers * c.selfplay.batches_in_flight,
      .threads = c.inference.server_threads,
      .gate = std::make_shared<DeviceGate>(cuda ? c.inference.server_threads : 1)};
  InferenceServer server(players.front(), server_config);
  // One shared network without league play: every game through one server, as always.
  // Otherwise each game draws its lineup.
  std::unique_ptr<League> league;
  Matchmaker matchmaker;
  // No earlier generation joins a bootstrap game: they were no better than the teacher.
  const double league_probability = bootstrap ? 0 : c.agents.league_probability;
  if (c.agents.per_seat() || league_probability > 0) {
    league = std::make_unique<League>(
        variant_, players, network_generation, league_probability,
        [this](int g, int agent) { return earlier_network(g, agent); }, server_config);
    matchmaker = [&league](std::mt19937_64& rng) { return league->draw(rng); };
  }
  // The first play() makes the games' slots; later ones hand their new players to the games
  // carried over.
  if (!self_play_) {
    SelfPlayConfig first = c.selfplay;
    first.seed = seed_;
    self_play_ = std::make_unique<SelfPlay>(variant_, server, first, matchmaker);
  } else {
    self_play_->set_players(server, matchmaker);
  }
  double last_line = now_seconds();
  const int quota = c.selfplay.games;
  played.stats = self_play_->run(played.samples, played.games, [&](const SelfPlayStats& s) {
    if (now_seconds() - last_line < 2.0 && s.games < quota) return;
    last_line = now_seconds();
    const double eta = s.games > 0 ? s.seconds * (quota - s.games) / s.games : 0;
    std::ostringstream line;
    line << std::fixed << std::setprecision(0) << "  " << label
         << (bootstrap ? " self-play (by the material search): " : " self-play: ") << s.games << "/"
         << quota << " games, " << s.moves << " positions (" << s.moves_per_second() << "/s), "
         << s.samples << " samples, ETA " << format_seconds(eta);
    progress(line.str());
  });
  server.shutdown();
  if (league) {
    league->shutdown();
    league_games_ += league->league_games();
  }
  return played;
}

void write_played_games(const VariantPtr& variant, const PlayedGames& played,
                        const std::string& network, const std::string& sample_file,
                        const std::string& games_file) {
  std::string text;
  for (const GameRecord& g : played.games) {
    SelfPlayRecord record{g.termination, {}, g.plies, g.networks, {}};
    for (int s = 0; s < variant->seat_count(); ++s)
      record.scores.emplace_back(variant->seats[s].name, g.score[s]);
    std::istringstream moves(g.moves);
    for (std::string move; moves >> move;) record.moves.push_back(move);
    text += format_self_play_record(record) + "\n";
  }
  // The records first: the sample file's rename is what publishes the games.
  write_text_atomically(games_file, text);
  SampleFileInfo info = sample_file_info(Encoder(variant));
  info.network = network;
  write_sample_file(sample_file, info, played.samples);
}

void publish_played_games(const VariantPtr& variant, const PlayedGames& played,
                          const TrainConfig& config, const std::string& network,
                          const std::string& run_dir, const std::string& stem) {
  const auto [training, held_out] =
      split_validation(played, config.window.validation_fraction, config.run.seed);
  const std::string base = run_dir + "/";
  const std::string& played_by = played.teacher.empty() ? network : played.teacher;
  if (!held_out.games.empty())
    write_played_games(variant, held_out, played_by, base + "validation/" + stem + ".h5",
                       base + "validation/" + stem + ".txt");
  write_played_games(variant, training, played_by, base + "samples/" + stem + ".h5",
                     base + "games/" + stem + ".txt");
}

double draw_rate(const PlayedGames& played) {
  double draws = 0;
  for (const GameRecord& g : played.games) draws += g.score[0] == 0.5;
  return played.games.empty() ? 0 : draws / static_cast<double>(played.games.size());
}

std::string selfplay_csv_header(const Variant& variant) {
  std::string header =
      "generation,games,positions,samples,seconds,positions_per_second,evaluations_per_second,"
      "mean_plies,resignations,resign_checks,false_resigns,draw_rate";
  for (int s = 0; s < variant.seat_count(); ++s) header += ",score_" + variant.seats[s].name;
  return header;
}

std::string selfplay_csv_row(const Variant& variant, int generation, const PlayedGames& played) {
  const SelfPlayStats& stats = played.stats;
  const auto resigned = stats.terminations.find("resignation");
  std::ostringstream row;
  row << generation << "," << stats.games << "," << stats.moves << "," << stats.samples << ","
      << stats.seconds << "," << stats.moves_per_second() << ","
      << (stats.seconds > 0 ? stats.evaluated / stats.seconds : 0) << "," << stats.mean_plies()
      << "," << (resigned == stats.terminations.end() ? 0 : resigned->second) << ","
      << stats.resign_checks << "," << stats.false_resigns << "," << draw_rate(played);
  for (int s = 0; s < variant.seat_count(); ++s)
    row << "," << (stats.games ? stats.score_sum[s] / stats.games : 0);
  return row.str();
}

}  // namespace fairyzero
