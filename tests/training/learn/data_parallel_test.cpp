// Data-parallel training over c10d Gloo: ranks read from each launcher's variables, two ranks
// (threads here, with a real TCPStore) end each step with identical weights and agree with one
// process, and a batch that does not split is refused.
#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <thread>

#include "core/position.h"
#include "core/variant_loader.h"
#include "nn/checkpoint.h"
#include "nn/encoder.h"
#include "nn/network.h"
#include "training/learn/trainer.h"
#include "training/learn/trainer_group.h"

namespace fairyzero {
namespace {

std::function<const char*(const char*)> environment(std::map<std::string, std::string> values) {
  auto held = std::make_shared<std::map<std::string, std::string>>(std::move(values));
  return [held](const char* name) -> const char* {
    auto it = held->find(name);
    return it == held->end() ? nullptr : it->second.c_str();
  };
}

TEST(RankFromEnvironment, EachLauncherIsRead) {
  RankInfo none = rank_from_environment(environment({}));
  EXPECT_EQ(none.rank, 0);
  EXPECT_EQ(none.world_size, 1);

  RankInfo torchrun = rank_from_environment(environment(
      {{"RANK", "3"}, {"WORLD_SIZE", "4"}, {"MASTER_ADDR", "node7"}, {"MASTER_PORT", "29600"}}));
  EXPECT_EQ(torchrun.rank, 3);
  EXPECT_EQ(torchrun.world_size, 4);
  EXPECT_EQ(torchrun.master_address, "node7");
  EXPECT_EQ(torchrun.master_port, 29600);
  EXPECT_EQ(torchrun.source, "RANK/WORLD_SIZE");

  RankInfo slurm = rank_from_environment(environment(
      {{"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "2"}, {"SLURM_LAUNCH_NODE_IPADDR", "10.0.0.5"}}));
  EXPECT_EQ(slurm.rank, 1);
  EXPECT_EQ(slurm.world_size, 2);
  EXPECT_EQ(slurm.master_address, "10.0.0.5");
  EXPECT_EQ(slurm.source, "SLURM");
  // A step's own task count wins over the job's.
  RankInfo step = rank_from_environment(
      environment({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "8"}, {"SLURM_STEP_NUM_TASKS", "2"}}));
  EXPECT_EQ(step.world_size, 2);

  RankInfo mpi = rank_from_environment(
      environment({{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "3"}}));
  EXPECT_EQ(mpi.rank, 2);
  EXPECT_EQ(mpi.world_size, 3);
  EXPECT_EQ(mpi.source, "OMPI");

  // Set on purpose, torchrun-style variables win inside a Slurm job.
  RankInfo both = rank_from_environment(environment(
      {{"RANK", "0"}, {"WORLD_SIZE", "1"}, {"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "2"}}));
  EXPECT_EQ(both.world_size, 1);
}

TEST(RankFromEnvironment, MalformedValuesNameTheVariable) {
  try {
    rank_from_environment(environment({{"RANK", "one"}, {"WORLD_SIZE", "2"}}));
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("RANK='one'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(rank_from_environment(environment({{"RANK", "2"}, {"WORLD_SIZE", "2"}})), UserError);
  EXPECT_THROW(rank_from_environment(environment({{"MASTER_PORT", "x"}})), UserError);
}

// Batches of random chess positions with one-hot policy targets and random results.
TrainingBatch random_batch(const Encoder& encoder, int size, unsigned seed) {
  std::mt19937 rng(seed);
  TrainingBatch batch;
  batch.size = size;
  std::vector<Position> positions;
  for (int i = 0; i < size; ++i) {
    Position pos(encoder.variant_ptr());
    const int plies = std::uniform_int_distribution<int>(0, 8)(rng);
    for (int p = 0; p < plies; ++p) {
      LegalMoves moves(pos);
      if (moves.empty() || pos.outcome(moves).over()) break;
      pos.play(moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng)]);
    }
    positions.push_back(pos);
  }
  for (const Position& pos : positions)
    batch.max_moves = std::max(batch.max_moves, LegalMoves(pos).size());
  for (const Position& pos : positions) {
    std::vector<float> planes(encoder.plane_floats());
    encoder.encode(pos, planes.data());
    batch.planes.insert(batch.planes.end(), planes.begin(), planes.end());
    LegalMoves moves(pos);
    const int chosen = std::uniform_int_distribution<int>(0, moves.size() - 1)(rng);
    for (int m = 0; m < batch.max_moves; ++m) {
      batch.policy_index.push_back(m < moves.size() ? encoder.policy_index(pos, moves[m]) : 0);
      batch.policy_weight.push_back(m == chosen ? 1.0f : 0.0f);
    }
    const int result = std::uniform_int_distribution<int>(0, 2)(rng);
    for (int k = 0; k < 3; ++k) batch.value_target.push_back(k == result ? 1.0f : 0.0f);
  }
  return batch;
}

// Rows [first, first + count) of a batch.
TrainingBatch rows(const Encoder& encoder, const TrainingBatch& batch, int first, int count) {
  TrainingBatch out;
  out.size = count;
  out.max_moves = batch.max_moves;
  const size_t planes = encoder.plane_floats(), moves = batch.max_moves;
  out.planes.assign(batch.planes.begin() + first * planes,
                    batch.planes.begin() + (first + count) * planes);
  out.policy_index.assign(batch.policy_index.begin() + first * moves,
                          batch.policy_index.begin() + (first + count) * moves);
  out.policy_weight.assign(batch.policy_weight.begin() + first * moves,
                           batch.policy_weight.begin() + (first + count) * moves);
  out.value_target.assign(batch.value_target.begin() + first * 3,
                          batch.value_target.begin() + (first + count) * 3);
  return out;
}

// Twice the same rows: normalisation statistics over them equal those over one copy.
TrainingBatch doubled(const TrainingBatch& batch) {
  TrainingBatch out = batch;
  out.size *= 2;
  out.planes.insert(out.planes.end(), batch.planes.begin(), batch.planes.end());
  out.policy_index.insert(out.policy_index.end(), batch.policy_index.begin(),
                          batch.policy_index.end());
  out.policy_weight.insert(out.policy_weight.end(), batch.policy_weight.begin(),
                           batch.policy_weight.end());
  out.value_target.insert(out.value_target.end(), batch.value_target.begin(),
                          batch.value_target.end());
  return out;
}

const NetworkConfig kTiny{.blocks = 1, .filters = 8, .policy_dim = 8, .value_hidden = 16};

TrainerConfig training(int batch_size) {
  TrainerConfig config;
  config.batch_size = batch_size;
  config.learning_rate = 0.05;
  config.metrics_every = 1000;
  return config;
}

// A free TCP port for the store (the kernel's pick, released again).
int free_port() {
  for (int port = 29400 + static_cast<int>(::getpid() % 500);; ++port) {
    try {
      RankInfo info;
      info.master_port = port;
      TrainerGroup probe(info, 5);
      return port;
    } catch (const UserError&) {
    }
  }
}

// Runs `body(rank, group)` on two ranks (threads) of one group.
void two_ranks(const std::function<void(int, TrainerGroup&)>& body) {
  const int port = free_port();
  std::exception_ptr failure;
  std::mutex failure_mutex;
  std::vector<std::thread> ranks;
  for (int r = 0; r < 2; ++r)
    ranks.emplace_back([&, r] {
      try {
        RankInfo info;
        info.rank = r;
        info.world_size = 2;
        info.master_port = port;
        TrainerGroup group(info, 60);
        body(r, group);
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        failure = std::current_exception();
      }
    });
  for (std::thread& t : ranks) t.join();
  if (failure) std::rethrow_exception(failure);
}

std::vector<torch::Tensor> parameters(const Trainer& trainer) {
  std::vector<torch::Tensor> out;
  for (const torch::Tensor& p : trainer.network()->parameters()) out.push_back(p.detach().clone());
  return out;
}

TEST(DataParallel, TwoRanksEndEachStepAsOneNetwork) {
  const Encoder encoder(find_variant("chess"));
  std::map<int, std::string> checksums;
  std::mutex mutex;
  // Different initial weights (seeded before the threads: the seed is global): the broadcast
  // must align them.
  std::vector<std::unique_ptr<Trainer>> trainers;
  for (int rank = 0; rank < 2; ++rank) {
    torch::manual_seed(100 + rank);
    trainers.push_back(std::make_unique<Trainer>(encoder, kTiny, training(16)));
  }
  ASSERT_NE(weights_checksum(*trainers[0]->network()), weights_checksum(*trainers[1]->network()));
  two_ranks([&](int rank, TrainerGroup& group) {
    Trainer& trainer = *trainers[rank];
    trainer.set_gradient_sync(&group);
    unsigned seed = 10 * rank;
    // Each rank its own batches: without the all-reduce the weights would drift apart.
    trainer.train([&](int size) { return random_batch(encoder, size, ++seed); }, 3);
    std::lock_guard lock(mutex);
    checksums[rank] = weights_checksum(*trainer.network());
  });
  EXPECT_EQ(checksums.at(0), checksums.at(1));
}

// The largest elementwise difference between two networks' parameters.
double largest_difference(const std::vector<torch::Tensor>& a,
                          const std::vector<torch::Tensor>& b) {
  double largest = 0;
  for (size_t p = 0; p < a.size(); ++p)
    largest = std::max(largest, (a[p] - b[p]).abs().max().item<double>());
  return largest;
}

TEST(DataParallel, TwoRanksMatchOneProcessWithTheSameTotalBatch) {
  // With batch normalisation, ranks see their own rows' statistics, so only a total batch made
  // of the two ranks' rows gives the same normalisation when both ranks hold the same rows: one
  // process on [X; X] against two ranks on X each. Summed instead of averaged gradients give
  // the weights of one process at twice the rate.
  const Encoder encoder(find_variant("chess"));
  std::vector<TrainingBatch> halves;
  for (unsigned s = 0; s < 3; ++s) halves.push_back(random_batch(encoder, 8, 40 + s));
  const auto one_process = [&](double learning_rate) {
    TrainerConfig config = training(16);
    config.learning_rate = learning_rate;
    torch::manual_seed(7);
    Trainer single(encoder, kTiny, config);
    size_t step = 0;
    single.train(
        [&](int size) {
          EXPECT_EQ(size, 16);
          return doubled(halves[step++]);
        },
        3);
    return parameters(single);
  };
  torch::manual_seed(7);
  const std::string start = weights_checksum(*Trainer(encoder, kTiny, training(16)).network());
  const std::vector<torch::Tensor> expected = one_process(training(16).learning_rate);
  const std::vector<torch::Tensor> summed = one_process(2 * training(16).learning_rate);

  std::map<int, std::vector<torch::Tensor>> got;
  std::mutex mutex;
  std::vector<std::unique_ptr<Trainer>> trainers;
  for (int rank = 0; rank < 2; ++rank) {
    torch::manual_seed(rank == 0 ? 7 : 99);  // rank 0 as the single process; rank 1 differs
    trainers.push_back(std::make_unique<Trainer>(encoder, kTiny, training(16)));
  }
  EXPECT_EQ(weights_checksum(*trainers[0]->network()), start);
  two_ranks([&](int rank, TrainerGroup& group) {
    Trainer& trainer = *trainers[rank];
    trainer.set_gradient_sync(&group);
    size_t i = 0;
    trainer.train(
        [&](int size) {
          EXPECT_EQ(size, 8);
          return halves[i++];
        },
        3);
    std::lock_guard lock(mutex);
    got[rank] = parameters(trainer);
  });
  // Equal up to rounding, which is not always tiny: on an AVX2 build of LibTorch one float
  // rounding in the first step grows to 2.5e-4 by the third (CI, 2026-12-07), where the
  // AVX-512 kernels stay within 1e-7. Summing instead of averaging moves weights by 0.14, so
  // 1e-3 still tells the two apart; the test checks that it does.
  const double tolerance = 1e-3;
  ASSERT_GT(largest_difference(summed, expected), 10 * tolerance);
  for (int rank = 0; rank < 2; ++rank) {
    ASSERT_EQ(got[rank].size(), expected.size());
    EXPECT_LT(largest_difference(got[rank], expected), tolerance) << "rank " << rank;
  }
  EXPECT_EQ(largest_difference(got[0], got[1]), 0.0);
}

TEST(DataParallel, DifferentRowsPerRankStillAgreeClosely) {
  // Two ranks on X1 and X2 against one process on [X1; X2]: equal up to the per-rank
  // normalisation statistics, so close but not to rounding.
  const Encoder encoder(find_variant("chess"));
  const TrainingBatch both = random_batch(encoder, 16, 77);
  torch::manual_seed(3);
  Trainer single(encoder, kTiny, training(16));
  single.train([&](int) { return both; }, 1);
  const std::vector<torch::Tensor> expected = parameters(single);
  std::map<int, std::vector<torch::Tensor>> got;
  std::mutex mutex;
  std::vector<std::unique_ptr<Trainer>> trainers;
  for (int rank = 0; rank < 2; ++rank) {
    torch::manual_seed(3);
    trainers.push_back(std::make_unique<Trainer>(encoder, kTiny, training(16)));
  }
  two_ranks([&](int rank, TrainerGroup& group) {
    Trainer& trainer = *trainers[rank];
    trainer.set_gradient_sync(&group);
    trainer.train([&](int) { return rows(encoder, both, 8 * rank, 8); }, 1);
    std::lock_guard lock(mutex);
    got[rank] = parameters(trainer);
  });
  double largest = 0, scale = 0;
  for (size_t p = 0; p < expected.size(); ++p) {
    largest = std::max(largest, (got[0][p] - expected[p]).abs().max().item<double>());
    scale = std::max(scale, expected[p].abs().max().item<double>());
    EXPECT_TRUE(torch::equal(got[0][p], got[1][p]));
  }
  EXPECT_LT(largest, 0.05 * scale);
}

TEST(DataParallel, ABatchThatDoesNotSplitIsRefused) {
  const Encoder encoder(find_variant("chess"));
  std::vector<std::unique_ptr<Trainer>> trainers;
  for (int rank = 0; rank < 2; ++rank)
    trainers.push_back(std::make_unique<Trainer>(encoder, kTiny, training(15)));
  two_ranks([&](int rank, TrainerGroup& group) {
    EXPECT_THROW(trainers[rank]->set_gradient_sync(&group), std::invalid_argument);
  });
}

}  // namespace
}  // namespace fairyzero
