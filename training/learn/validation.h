// Held-out validation: which games are kept out of training, and how the network does on them
// (losses, and whether its predicted score matches the results: calibration).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "training/learn/generation_player.h"

namespace fairyzero {

class Trainer;
class SampleWindow;

// Is this game held out? A deterministic function of its moves and the run's seed, so a rerun
// or another worker splits the same way, and a share `fraction` of games is held out.
bool is_validation_game(const GameRecord& game, double fraction, uint64_t seed);

// The games (and their samples) split into those trained on and those held out.
std::pair<PlayedGames, PlayedGames> split_validation(const PlayedGames& played, double fraction,
                                                     uint64_t seed);

struct ValidationMetrics {
  int64_t samples = 0;
  double policy_loss = 0, value_loss = 0, moves_left_loss = 0, soft_policy_loss = 0;
  // Mean |observed - predicted| score over 10 equal-width bins of the predicted score, each
  // weighted by its samples (expected calibration error); 0 is perfectly calibrated.
  double calibration_error = 0;
  double predicted_score = 0, observed_score = 0;  // means over the samples
};

// Expected calibration error of `predicted` against `observed` scores, in `bins` bins.
double calibration_error(const std::vector<float>& predicted, const std::vector<float>& observed,
                         int bins = 10);

// The trainer's network on every sample of `set` (of `seat` only, when >= 0).
ValidationMetrics validate(Trainer& trainer, const SampleWindow& set, int batch_size,
                           int seat = -1);

}  // namespace fairyzero
