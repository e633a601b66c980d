// The held-out split of self-play games and the validation pass over them.
#include "training/learn/validation.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "training/data/sample_window.h"
#include "training/learn/trainer.h"

namespace fairyzero {

bool is_validation_game(const GameRecord& game, double fraction, uint64_t seed) {
  if (fraction <= 0) return false;
  uint64_t x = std::hash<std::string>{}(game.moves) ^ (seed * 0x9E3779B97F4A7C15ull);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;  // splitmix64's finaliser: spread the bits
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) / static_cast<double>(1ull << 53) < fraction;
}

std::pair<PlayedGames, PlayedGames> split_validation(const PlayedGames& played, double fraction,
                                                     uint64_t seed) {
  PlayedGames training, validation;
  training.stats = validation.stats = played.stats;
  size_t first = 0;
  for (const GameRecord& game : played.games) {
    PlayedGames& part = is_validation_game(game, fraction, seed) ? validation : training;
    const size_t end = std::min(played.samples.size(), first + game.samples);
    part.samples.insert(part.samples.end(), played.samples.begin() + first,
                        played.samples.begin() + end);
    part.games.push_back(game);
    first = end;
  }
  return {std::move(training), std::move(validation)};
}

double calibration_error(const std::vector<float>& predicted, const std::vector<float>& observed,
                         int bins) {
  std::vector<double> sum_predicted(bins), sum_observed(bins);
  std::vector<int64_t> count(bins);
  for (size_t i = 0; i < predicted.size(); ++i) {
    const int bin = std::clamp(static_cast<int>(predicted[i] * bins), 0, bins - 1);
    sum_predicted[bin] += predicted[i];
    sum_observed[bin] += observed[i];
    ++count[bin];
  }
  double error = 0;
  for (int b = 0; b < bins; ++b) error += std::abs(sum_observed[b] - sum_predicted[b]);
  return predicted.empty() ? 0 : error / static_cast<double>(predicted.size());
}

ValidationMetrics validate(Trainer& trainer, const SampleWindow& set, int batch_size, int seat) {
  ValidationMetrics metrics;
  std::vector<float> predicted, observed;
  for (const TrainingBatch& batch : set.ordered_batches(batch_size, seat)) {
    const BatchEvaluation e = trainer.evaluate(batch);
    metrics.policy_loss += e.policy_loss * batch.size;
    metrics.value_loss += e.value_loss * batch.size;
    metrics.moves_left_loss += e.moves_left_loss * batch.size;
    metrics.soft_policy_loss += e.soft_policy_loss * batch.size;
    metrics.samples += batch.size;
    predicted.insert(predicted.end(), e.predicted_score.begin(), e.predicted_score.end());
    observed.insert(observed.end(), e.target_score.begin(), e.target_score.end());
  }
  if (metrics.samples == 0) return metrics;
  const double n = static_cast<double>(metrics.samples);
  metrics.policy_loss /= n;
  metrics.value_loss /= n;
  metrics.moves_left_loss /= n;
  metrics.soft_policy_loss /= n;
  metrics.calibration_error = calibration_error(predicted, observed);
  for (size_t i = 0; i < predicted.size(); ++i) {
    metrics.predicted_score += predicted[i] / n;
    metrics.observed_score += observed[i] / n;
  }
  return metrics;
}

}  // namespace fairyzero
