// Network shapes, policy logits at indices, and checkpoints: round trip and clear refusals.
#include "nn/network.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/rules_fingerprint.h"
#include "nn/checkpoint.h"
#include "nn/encoder.h"
#include "tests/support/test_positions.h"

namespace fairyzero {
namespace {

using testing::random_positions;
using testing::variant;

const NetworkConfig kTiny{.blocks = 1, .filters = 8, .policy_dim = 8, .value_hidden = 16};

torch::Tensor encode(const Encoder& enc, const std::vector<Position>& positions) {
  torch::Tensor planes = torch::empty(
      {static_cast<int64_t>(positions.size()), enc.plane_count(), enc.ranks(), enc.files()});
  for (size_t i = 0; i < positions.size(); ++i)
    enc.encode(positions[i], planes.data_ptr<float>() + i * enc.plane_floats());
  return planes;
}

// A fresh folder per test, removed after.
class TempDir {
 public:
  TempDir() {
    path_ =
        std::filesystem::temp_directory_path() /
        ("fairyzero_nn_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

void expect_throws_with(const std::function<void()>& f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const CheckpointError& e) {
    for (const std::string& part : parts)
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
          << "message lacks '" << part << "': " << e.what();
  }
}

// The metadata entries save_checkpoint writes, by hand, so a test can write what another
// build would have (here: another encoder version, no moves-left entry).
void write_metadata(torch::serialize::OutputArchive& archive, const Encoder& enc,
                    int64_t encoder_version) {
  const NetworkShape s = enc.network_shape();
  archive.write("fairyzero_format", c10::IValue(std::string("fairyzero-checkpoint-1")));
  archive.write("fairyzero_variant", c10::IValue(enc.variant().name));
  const RulesFields rules = rules_fields(enc.variant());
  archive.write("fairyzero_rules_fingerprint", c10::IValue(rules_fingerprint(rules)));
  archive.write("fairyzero_rules", c10::IValue(rules_fields_text(rules)));
  const std::vector<std::pair<std::string, int64_t>> ints = {
      {"encoder_version", encoder_version},
      {"blocks", kTiny.blocks},
      {"filters", kTiny.filters},
      {"policy_dim", kTiny.policy_dim},
      {"value_hidden", kTiny.value_hidden},
      {"planes", s.planes},
      {"ranks", s.ranks},
      {"files", s.files},
      {"promotion_choices", s.promotion_choices},
      {"piece_types", s.piece_types},
      {"value_heads", s.value_heads},
      {"policy_size", enc.policy_size()},
      {"step", 0}};
  for (const auto& [key, value] : ints) archive.write("fairyzero_" + key, c10::IValue(value));
}

class NetworkShapes : public ::testing::TestWithParam<const char*> {};

TEST_P(NetworkShapes, ForwardGivesTheDocumentedShapes) {
  VariantPtr v = variant(GetParam());
  Encoder enc(v);
  Network net(kTiny, enc.network_shape());
  net->eval();
  std::vector<Position> positions = random_positions(v, 1, 5);
  torch::NoGradGuard no_grad;
  NetworkOutput out = net->forward(encode(enc, positions));
  const int64_t b = static_cast<int64_t>(positions.size()), cells = enc.cells();
  EXPECT_EQ(out.pair.sizes().vec(), (std::vector<int64_t>{b, cells, cells}));
  EXPECT_EQ(out.promotion.sizes().vec(),
            (std::vector<int64_t>{b, enc.promotion_choice_count(), cells}));
  EXPECT_EQ(out.drop.sizes().vec(), (std::vector<int64_t>{b, enc.piece_type_count(), cells}));
  EXPECT_EQ(out.value.sizes().vec(), (std::vector<int64_t>{b, enc.value_heads(), 3}));
  EXPECT_TRUE(torch::isfinite(out.pair).all().item<bool>());
  ASSERT_TRUE(out.moves_left.defined());
  EXPECT_EQ(out.moves_left.sizes().vec(), (std::vector<int64_t>{b}));
  EXPECT_TRUE(torch::isfinite(out.moves_left).all().item<bool>());
  NetworkConfig without = kTiny;
  without.moves_left = false;
  Network plain(without, enc.network_shape());
  EXPECT_FALSE(plain->forward(encode(enc, positions)).moves_left.defined());
  EXPECT_FALSE(out.soft_pair.defined()) << "no soft policy head unless configured";
  NetworkConfig soft = kTiny;
  soft.soft_policy = true;
  Network with_soft(soft, enc.network_shape());
  with_soft->eval();
  NetworkOutput s = with_soft->forward(encode(enc, positions));
  ASSERT_TRUE(s.soft_pair.defined());
  EXPECT_EQ(s.soft_pair.sizes(), s.pair.sizes());
  EXPECT_EQ(s.soft_promotion.sizes(), s.promotion.sizes());
  EXPECT_EQ(s.soft_drop.sizes(), s.drop.sizes());
  EXPECT_FALSE(torch::equal(s.soft_pair, s.pair)) << "a head of its own";
}

INSTANTIATE_TEST_SUITE_P(Variants, NetworkShapes,
                         ::testing::Values("chess", "very-heavy-chess", "four-seats"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

TEST(Network, PolicyLogitsAtFollowTheIndexLayout) {
  const int64_t b = 2, cells = 6, p = 2, t = 3;
  NetworkOutput out;
  out.pair = torch::randn({b, cells, cells});
  out.promotion = torch::randn({b, p, cells});
  out.drop = torch::randn({b, t, cells});
  const int64_t c2 = cells * cells;
  // pair 2->5; promotion slot 1, 1->4; drop of type 2 on cell 3.
  torch::Tensor idx =
      torch::tensor({int64_t{2 * cells + 5}, 2 * c2 + 1 * cells + 4, 3 * c2 + 2 * cells + 3})
          .repeat({b, 1});
  torch::Tensor got = policy_logits_at(out, idx);
  for (int64_t i = 0; i < b; ++i) {
    EXPECT_FLOAT_EQ(got[i][0].item<float>(), out.pair[i][2][5].item<float>());
    EXPECT_FLOAT_EQ(got[i][1].item<float>(),
                    out.pair[i][1][4].item<float>() + out.promotion[i][1][4].item<float>());
    EXPECT_FLOAT_EQ(got[i][2].item<float>(), out.drop[i][2][3].item<float>());
  }
}

class Checkpoints : public ::testing::Test {
 protected:
  VariantPtr chess = variant("chess");
  Encoder enc{chess};
  TempDir dir;

  // A network whose batch-norm statistics are not the defaults, so they must be saved too.
  Network trained_network() {
    Network net(kTiny, enc.network_shape());
    net->train();
    torch::NoGradGuard no_grad;
    for (int i = 0; i < 3; ++i) net->forward(encode(enc, random_positions(chess, 1, 8, i + 1)));
    net->eval();
    return net;
  }
};

TEST_F(Checkpoints, SaveThenLoadGivesIdenticalOutputs) {
  Network net = trained_network();
  const std::string path = dir.file("net.pt");
  save_checkpoint(path, *net, enc, 42);
  // Atomic write: only the checkpoint is left in the folder.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) ++files, (void)entry;
  EXPECT_EQ(files, 1);

  CheckpointInfo info = read_checkpoint_info(path);
  EXPECT_EQ(info.variant, "chess");
  EXPECT_EQ(info.encoder_version, Encoder::kVersion);
  EXPECT_EQ(info.config, kTiny);
  EXPECT_EQ(info.shape, enc.network_shape());
  EXPECT_EQ(info.policy_size, enc.policy_size());
  EXPECT_EQ(info.step, 42);

  Network loaded(load_checkpoint(path, chess));
  loaded->eval();
  Network into(kTiny, enc.network_shape());
  load_checkpoint_into(path, chess, *into);
  into->eval();
  torch::Tensor planes = encode(enc, random_positions(chess, 2, 30, 7));
  torch::NoGradGuard no_grad;
  NetworkOutput a = net->forward(planes), b = loaded->forward(planes), c = into->forward(planes);
  EXPECT_TRUE(torch::equal(a.pair, b.pair));
  EXPECT_TRUE(torch::equal(a.promotion, b.promotion));
  EXPECT_TRUE(torch::equal(a.drop, b.drop));
  EXPECT_TRUE(torch::equal(a.value, b.value));
  EXPECT_TRUE(torch::equal(a.value, c.value));
  EXPECT_TRUE(torch::equal(a.pair, c.pair));
  EXPECT_TRUE(torch::equal(a.moves_left, b.moves_left));
  EXPECT_TRUE(torch::equal(a.moves_left, c.moves_left));
}

// The weights checksum: the same for a network and its file whatever the step, different once a
// weight moves.
TEST_F(Checkpoints, WeightsChecksumComparesNetworksAndFiles) {
  Network net = trained_network();
  const std::string one = dir.file("one.pt"), two = dir.file("two.pt");
  save_checkpoint(one, *net, enc, 1);
  save_checkpoint(two, *net, enc, 2);
  const std::string sum = weights_checksum(*net);
  EXPECT_EQ(sum.size(), 16u);
  EXPECT_EQ(checkpoint_weights_checksum(one), sum);
  EXPECT_EQ(checkpoint_weights_checksum(two), sum);
  {
    torch::NoGradGuard no_grad;
    net->parameters()[3].view(-1)[0] += 1e-3f;
  }
  EXPECT_NE(weights_checksum(*net), sum);
  EXPECT_THROW(checkpoint_weights_checksum(dir.file("missing.pt")), CheckpointError);
}

TEST_F(Checkpoints, SavingOverAnExistingCheckpointReplacesIt) {
  const std::string path = dir.file("net.pt");
  save_checkpoint(path, *trained_network(), enc, 1);
  save_checkpoint(path, *trained_network(), enc, 2);
  EXPECT_EQ(read_checkpoint_info(path).step, 2);
}

TEST_F(Checkpoints, AnotherVariantIsRefusedNamingFileAndDifferences) {
  const std::string path = dir.file("chess.pt");
  save_checkpoint(path, *trained_network(), enc);
  expect_throws_with(
      [&] { load_checkpoint(path, variant("capablanca")); },
      {path, "other rules", "first difference: board.size", "files 8 (expected 10)"});
  Network other(kTiny, Encoder(variant("gardner")).network_shape());
  expect_throws_with([&] { load_checkpoint_into(path, variant("gardner"), *other); },
                     {path, "variant chess"});
}

TEST_F(Checkpoints, AnotherNetworkSizeIsRefused) {
  const std::string path = dir.file("net.pt");
  save_checkpoint(path, *trained_network(), enc);
  NetworkConfig wider = kTiny;
  wider.filters = 16;
  wider.blocks = 2;
  Network net(wider, enc.network_shape());
  expect_throws_with([&] { load_checkpoint_into(path, chess, *net); },
                     {path, "blocks 1 (network has 2)", "filters 8 (network has 16)"});
}

TEST_F(Checkpoints, MissingTruncatedAndForeignFilesAreRefused) {
  expect_throws_with([&] { load_checkpoint(dir.file("nothing.pt"), chess); },
                     {dir.file("nothing.pt"), "does not exist"});
  const std::string path = dir.file("net.pt");
  save_checkpoint(path, *trained_network(), enc);
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size / 2);
  expect_throws_with([&] { load_checkpoint(path, chess); }, {path, "cannot be read"});
  expect_throws_with([&] { read_checkpoint_info(path); }, {path, "cannot be read"});

  // A torch archive without our metadata.
  const std::string plain = dir.file("plain.pt");
  torch::serialize::OutputArchive archive;
  trained_network()->save(archive);
  archive.save_to(plain);
  expect_throws_with([&] { load_checkpoint(plain, chess); }, {plain, "not a FairyZero checkpoint"});

  std::ofstream(dir.file("text.pt")) << "not a zip file\n";
  expect_throws_with([&] { load_checkpoint(dir.file("text.pt"), chess); },
                     {dir.file("text.pt"), "cannot be read"});
}

TEST_F(Checkpoints, AnotherEncoderVersionIsRefused) {
  Network net = trained_network();
  torch::serialize::OutputArchive archive;
  net->save(archive);
  write_metadata(archive, enc, Encoder::kVersion - 1);
  const std::string path = dir.file("old.pt");
  archive.save_to(path);
  expect_throws_with([&] { load_checkpoint(path, chess); },
                     {path, "encoder version " + std::to_string(Encoder::kVersion - 1)});
}

// A checkpoint from before the moves-left head (no moves_left entry, no head weights) loads as a
// network without the head; a network with one (a run's, whose config asks for it) refuses it
// with what to change.
TEST_F(Checkpoints, ACheckpointFromBeforeTheMovesLeftHeadLoadsWithoutIt) {
  NetworkConfig old_config = kTiny;
  old_config.moves_left = false;
  Network old(old_config, enc.network_shape());
  torch::serialize::OutputArchive archive;
  old->save(archive);
  write_metadata(archive, enc, Encoder::kVersion);
  const std::string path = dir.file("old.pt");
  archive.save_to(path);

  EXPECT_FALSE(read_checkpoint_info(path).config.moves_left);
  Network loaded(load_checkpoint(path, chess));
  loaded->eval();
  torch::NoGradGuard no_grad;
  EXPECT_FALSE(loaded->forward(encode(enc, random_positions(chess, 1, 4))).moves_left.defined());
  Network with_head(kTiny, enc.network_shape());
  expect_throws_with([&] { load_checkpoint_into(path, chess, *with_head); },
                     {path, "no moves-left head", "moves_left = false"});
}

// The soft policy head has its own layers and its target is the visit target to the power 1/4.
TEST(Network, SoftPolicyTargetIsTheQuarterPowerRenormalised) {
  torch::Tensor weight =
      torch::tensor({0.81f, 0.16f, 0.03f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}).view({2, 4});
  torch::Tensor soft = soft_policy_target(weight);
  const float a = std::pow(0.81f, 0.25f), b = std::pow(0.16f, 0.25f), c = std::pow(0.03f, 0.25f);
  EXPECT_NEAR(soft[0][0].item<float>(), a / (a + b + c), 1e-6);
  EXPECT_NEAR(soft[0][1].item<float>(), b / (a + b + c), 1e-6);
  EXPECT_NEAR(soft[0][2].item<float>(), c / (a + b + c), 1e-6);
  EXPECT_EQ(soft[0][3].item<float>(), 0.0f) << "a move without visits stays at zero";
  EXPECT_NEAR(soft[0].sum().item<float>(), 1.0f, 1e-6);
  EXPECT_EQ(soft[1].abs().sum().item<float>(), 0.0f) << "an empty row stays empty";
  EXPECT_LT(soft[0][0].item<float>(), 0.81f) << "flatter than the target";
}

TEST_F(Checkpoints, TheSoftPolicyHeadRoundTripsAndAMismatchIsRefusedWithTheFix) {
  NetworkConfig soft_config = kTiny;
  soft_config.soft_policy = true;
  Network soft(soft_config, enc.network_shape());
  const std::string with_path = dir.file("soft.pt");
  save_checkpoint(with_path, *soft, enc, 3);
  EXPECT_TRUE(read_checkpoint_info(with_path).config.soft_policy);
  Network loaded(load_checkpoint(with_path, chess));
  soft->eval();
  loaded->eval();
  torch::NoGradGuard no_grad;
  torch::Tensor planes = encode(enc, random_positions(chess, 1, 6));
  EXPECT_TRUE(torch::equal(soft->forward(planes).soft_pair, loaded->forward(planes).soft_pair));

  Network plain(kTiny, enc.network_shape());
  expect_throws_with([&] { load_checkpoint_into(with_path, chess, *plain); },
                     {with_path, "has a soft policy head", "soft_policy = true"});
  const std::string without_path = dir.file("plain.pt");
  save_checkpoint(without_path, *plain, enc, 3);
  EXPECT_FALSE(read_checkpoint_info(without_path).config.soft_policy);
  expect_throws_with([&] { load_checkpoint_into(without_path, chess, *soft); },
                     {without_path, "no soft policy head", "soft_policy = false"});
}

}  // namespace
}  // namespace fairyzero
