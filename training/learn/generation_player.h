// Self-play games with one generation's networks, and the files that record them: the one game
// loop that `fairyzero train` and `fairyzero selfplay` workers share.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "training/data/sample_store.h"
#include "training/learn/train_config.h"

namespace fairyzero {

class Encoder;

// What a batch of games left: their samples, records and counts.
struct PlayedGames {
  std::vector<Sample> samples;
  std::vector<GameRecord> games;
  SelfPlayStats stats;
  // The evaluator that played instead of the networks ("material" in the run's bootstrap
  // generations, agents.bootstrap_generations); empty when the networks played.
  std::string teacher;
};

class GenerationPlayer {
 public:
  // The checkpoint file of agent `agent` (its name, "" for a shared network) after `generation`.
  using CheckpointPath = std::function<std::string(int generation, const std::string& agent)>;

  // Plays the games of `config` (its selfplay.games per play() call, carried over between calls
  // when selfplay.carry_over) for `agents` ({""} or the seat names), seeded by `seed`.
  GenerationPlayer(VariantPtr variant, const TrainConfig& config, std::vector<std::string> agents,
                   CheckpointPath checkpoint_path, uint64_t seed);
  ~GenerationPlayer();

  // Plays a quota of games with `networks` (one per agent) of generation `network_generation`
  // and, with league play, earlier ones; in the bootstrap generations, with the material
  // search instead. `progress` receives a line every few seconds, labelled
  // with `label`.
  PlayedGames play(const std::vector<std::shared_ptr<Evaluator>>& networks, int network_generation,
                   const std::string& label,
                   const std::function<void(const std::string&)>& progress);
  // Lineups with a seat played by an earlier generation, over every play() so far.
  int league_games() const { return league_games_; }
  // An evaluator of agent `agent`'s network after `generation`, on the run's device.
  std::shared_ptr<Evaluator> load_network(int generation, int agent);

 private:
  std::shared_ptr<Evaluator> earlier_network(int generation, int agent);

  VariantPtr variant_;
  TrainConfig config_;
  std::vector<std::string> agents_;
  CheckpointPath checkpoint_path_;
  uint64_t seed_;
  std::mutex earlier_mutex_;  // overlapped self-play loads from another thread
  std::map<std::pair<int, int>, std::shared_ptr<Evaluator>> earlier_;  // (generation, agent)
  std::atomic<int> league_games_{0};
  std::unique_ptr<class SelfPlay> self_play_;  // kept: its slots carry games over
};

// What this variant's sample files say about themselves (the network is filled in per file).
SampleFileInfo sample_file_info(const Encoder& encoder);
// Writes the games' samples to `sample_file` (recording `network` as the one that played) and
// their text records to `games_file`, each atomically.
void write_played_games(const VariantPtr& variant, const PlayedGames& played,
                        const std::string& network, const std::string& sample_file,
                        const std::string& games_file);
// Publishes a batch of games of run `run_dir` under `stem` ("gen-0003", "gen-0003-w2-000017"):
// the held-out share (window.validation_fraction) to validation/STEM.h5 and .txt first, then the
// rest to games/STEM.txt and samples/STEM.h5, whose rename publishes them.
void publish_played_games(const VariantPtr& variant, const PlayedGames& played,
                          const TrainConfig& config, const std::string& network,
                          const std::string& run_dir, const std::string& stem);
// One selfplay.csv row (its first column `generation`) and the header it goes under.
std::string selfplay_csv_header(const Variant& variant);
std::string selfplay_csv_row(const Variant& variant, int generation, const PlayedGames& played);
// The draw share of the games, as 0..1.
double draw_rate(const PlayedGames& played);
// "1m05s", "2h03m", "12s".
std::string format_seconds(double seconds);

}  // namespace fairyzero
