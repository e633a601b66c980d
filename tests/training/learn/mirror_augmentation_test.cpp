// training.mirror_files: half the drawn samples are trained mirrored, never one holding a
// castling right, padding stays padding; the setting is refused on rules that are not
// left-right symmetric and taken by a run whose rules are.
#include "training/learn/mirror_augmentation.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <vector>

#include "core/variant_loader.h"
#include "training/learn/train_run.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;

// A batch of the positions of seeded random games: planes, each legal move with equal weight,
// rows padded to the longest list.
TrainingBatch batch_of_random_positions(const Encoder& enc, int size, unsigned seed) {
  const VariantPtr& v = enc.variant_ptr();
  std::mt19937 rng(seed);
  std::vector<Position> positions;
  while (static_cast<int>(positions.size()) < size) {
    Position pos(v);
    for (int ply = 0; ply < 40 && static_cast<int>(positions.size()) < size; ++ply) {
      LegalMoves moves(pos);
      if (moves.empty() || pos.outcome(moves).over()) break;
      positions.push_back(pos);
      pos.play(moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng)]);
    }
  }
  TrainingBatch b;
  b.size = size;
  for (const Position& pos : positions)
    b.max_moves = std::max(b.max_moves, static_cast<int>(LegalMoves(pos).size()));
  b.planes.resize(static_cast<size_t>(size) * enc.plane_floats());
  b.policy_index.assign(static_cast<size_t>(size) * b.max_moves, 0);
  b.policy_weight.assign(static_cast<size_t>(size) * b.max_moves, 0);
  for (int row = 0; row < size; ++row) {
    enc.encode(positions[row], b.planes.data() + static_cast<size_t>(row) * enc.plane_floats());
    LegalMoves legal(positions[row]);
    for (size_t i = 0; i < legal.size(); ++i) {
      b.policy_index[row * b.max_moves + i] = enc.policy_index(positions[row], legal[i]);
      b.policy_weight[row * b.max_moves + i] = 1.0f / legal.size();
    }
  }
  return b;
}

bool same_row(const TrainingBatch& a, const TrainingBatch& b, int row, const Encoder& enc) {
  const size_t p = static_cast<size_t>(row) * enc.plane_floats();
  const size_t k = static_cast<size_t>(row) * a.max_moves;
  return std::equal(a.planes.begin() + p, a.planes.begin() + p + enc.plane_floats(),
                    b.planes.begin() + p) &&
         std::equal(a.policy_index.begin() + k, a.policy_index.begin() + k + a.max_moves,
                    b.policy_index.begin() + k);
}

// A batch of random positions, and the same batch after mirror_files_at_random.
struct MirroredBatch {
  TrainingBatch original, batch;
  int mirrored = 0;
};

MirroredBatch mirror_random_batch(const Encoder& enc, int size, unsigned seed) {
  MirroredBatch m;
  m.original = batch_of_random_positions(enc, size, seed);
  m.batch = m.original;
  std::mt19937_64 rng(seed + 1);
  m.mirrored = mirror_files_at_random(m.batch, enc, rng);
  return m;
}

TEST(MirrorFiles, MirrorsAboutHalfTheRowsExactlyAndKeepsPadding) {
  Encoder enc(find_variant("gardner"));
  auto [original, batch, mirrored] = mirror_random_batch(enc, 512, 5);
  EXPECT_GT(mirrored, 512 * 0.4);  // binomial(512, 1/2): 0.4 and 0.6 are 4.5 sigma away
  EXPECT_LT(mirrored, 512 * 0.6);
  int changed = 0;
  for (int row = 0; row < batch.size; ++row) {
    if (same_row(batch, original, row, enc)) continue;
    ++changed;
    TrainingBatch twice = batch;
    mirror_sample_files(twice, row, enc);
    ASSERT_TRUE(same_row(twice, original, row, enc)) << "row " << row << " is not a mirror";
  }
  // Positions that are their own mirror could hide a mirrored row; on gardner none are.
  EXPECT_EQ(changed, mirrored);
  EXPECT_EQ(batch.policy_weight, original.policy_weight);
  for (size_t i = 0; i < batch.policy_index.size(); ++i)
    if (original.policy_weight[i] == 0) ASSERT_EQ(batch.policy_index[i], 0) << "padding moved";
}

TEST(MirrorFiles, NeverMirrorsAPositionHoldingACastlingRight) {
  Encoder enc(find_variant("chess"));
  const auto [original, batch, mirrored] = mirror_random_batch(enc, 400, 9);
  int with_rights = 0;
  for (int row = 0; row < batch.size; ++row) {
    const float* planes = original.planes.data() + static_cast<size_t>(row) * enc.plane_floats();
    if (!enc.holds_castling_right(planes)) continue;
    ++with_rights;
    EXPECT_TRUE(same_row(batch, original, row, enc)) << "row " << row << " holds a right";
  }
  EXPECT_GT(with_rights, 100);
  EXPECT_GT(mirrored, 0) << "the rows without rights are still mirrored";
}

TEST(MirrorFiles, IsRefusedOnRulesThatAreNotSymmetricAndTakenOnThoseThatAre) {
  const fs::path dir =
      fs::temp_directory_path() / ("fairyzero-mirror-" + std::to_string(std::random_device{}()));
  TrainConfig config = load_train_config("configs/train/tiny.toml");
  config.window.mirror_files = true;
  try {
    TrainingRun run((dir / "double").string(), config, find_variant("commedia-double"));
    FAIL() << "a run of commedia-double with training.mirror_files was made";
  } catch (const TrainConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("training.mirror_files"), std::string::npos) << what;
    EXPECT_NE(what.find("commedia-double"), std::string::npos) << what;
    EXPECT_NE(what.find("faces east or west"), std::string::npos) << what;
  }
  EXPECT_FALSE(fs::exists(dir / "double" / "config.toml")) << "nothing is written";
  {
    TrainingRun run((dir / "gardner").string(), config, find_variant("gardner"));
    EXPECT_TRUE(run.config().window.mirror_files);
  }
  // Read back from the run's config.toml.
  EXPECT_TRUE(TrainingRun((dir / "gardner").string()).config().window.mirror_files);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fairyzero
