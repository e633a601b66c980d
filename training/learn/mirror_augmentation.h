// Left-right mirroring of training batches (training.mirror_files): on a variant whose rules
// are symmetric (core/file_mirror.h), a sample and its mirror are the same lesson, so each
// drawn sample is trained mirrored half the time, doubling what a window of games can teach.
#pragma once

#include <random>

#include "nn/encoder.h"
#include "training/data/sample.h"

namespace fairyzero {

// Mirrors each sample of the batch (planes and policy indices) with probability 1/2, except
// samples whose position holds a castling right. Returns the number mirrored.
int mirror_files_at_random(TrainingBatch& batch, const Encoder& encoder, std::mt19937_64& rng);

// Mirrors sample `row` of the batch (its own inverse).
void mirror_sample_files(TrainingBatch& batch, int row, const Encoder& encoder);

}  // namespace fairyzero
