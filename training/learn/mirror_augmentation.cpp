// Mirrored training samples: the planes flipped file for file and each policy index replaced by
// its mirrored move's; padding entries (index 0, weight 0) stay padding.
#include "training/learn/mirror_augmentation.h"

namespace fairyzero {

void mirror_sample_files(TrainingBatch& batch, int row, const Encoder& encoder) {
  encoder.mirror_files(batch.planes.data() + static_cast<size_t>(row) * encoder.plane_floats());
  const size_t begin = static_cast<size_t>(row) * batch.max_moves;
  for (size_t i = begin; i < begin + batch.max_moves; ++i) {
    const bool padding = batch.policy_index[i] == 0 && batch.policy_weight[i] == 0;
    if (!padding)
      batch.policy_index[i] = encoder.mirror_files(static_cast<int>(batch.policy_index[i]));
  }
}

int mirror_files_at_random(TrainingBatch& batch, const Encoder& encoder, std::mt19937_64& rng) {
  int mirrored = 0;
  for (int row = 0; row < batch.size; ++row) {
    if ((rng() & 1) == 0) continue;
    const float* planes = batch.planes.data() + static_cast<size_t>(row) * encoder.plane_floats();
    if (encoder.holds_castling_right(planes)) continue;
    mirror_sample_files(batch, row, encoder);
    ++mirrored;
  }
  return mirrored;
}

}  // namespace fairyzero
