// Training samples: what self-play records for one searched position, and the dense batches
// the trainer consumes. No HDF5 or torch here; the file format is in sample_store.h and
// docs/FORMAT.md, the window over a folder of files in sample_window.h.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.h"

namespace fairyzero {

// One position of a self-play game, as a training target.
struct Sample {
  // Input planes, packed: bit (plane p, cell c) is set where the encoded value is non-zero, at
  // bits[p * bytes_per_plane + c / 8] >> (c % 8), bytes_per_plane = ceil(cells / 8); every
  // non-zero value of plane p equals plane_scale[p] (true of every Encoder plane: 0/1 planes
  // and constant planes). pack_planes()/unpack_planes() convert.
  std::vector<uint8_t> plane_bits;
  std::vector<float> plane_scale;
  // Sparse policy target: policy indices of the root's children (nn/encoder.h) and their visit
  // shares (sum 1).
  std::vector<int32_t> policy_indices;
  std::vector<float> policy_weights;
  // Value-head target: value_heads x (W, D, L), from Encoder::value_target at the game's end.
  std::vector<float> value_target;
  // The game's final score per seat (1 win, 0.5 draw, 0 loss) and the search's root value per
  // seat when the move was chosen. kMaxSeats entries; seats beyond the variant's are 0.
  std::array<float, kMaxSeats> outcome{};
  std::array<float, kMaxSeats> root_value{};
  int32_t ply = 0;   // plies played in the game before this position
  int32_t seat = 0;  // seat to move
  // Plies from this position to the game's end (the moves-left target); -1 where unknown
  // (files written before the plies_left dataset).
  int32_t plies_left = -1;
};

// Converts encoded planes (planes x cells floats) to the packed form and back. pack_planes
// throws std::invalid_argument when a plane has two different non-zero values.
void pack_planes(const float* planes, int plane_count, int cells, Sample& out);
void unpack_planes(const Sample& sample, int plane_count, int cells, float* out);

// Dense tensors for one training step, row-major, ready for torch::from_blob.
struct TrainingBatch {
  int size = 0;
  std::vector<float> planes;          // size x planes x cells
  std::vector<int64_t> policy_index;  // size x max_moves, padded with 0
  std::vector<float> policy_weight;   // size x max_moves, padded with 0
  int max_moves = 0;
  std::vector<float> value_target;  // size x value_heads x 3
  std::vector<float> plies_left;    // size: the moves-left target, negative where unknown
};

}  // namespace fairyzero
