// The prepared network (batch norm folded, cast, channels_last) against the training network in
// eval mode, packed rows against the float planes, and the evaluator's staged path (through a
// server) against its direct calls.
#include "nn/prepared_network.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <fstream>
#include <string>
#include <vector>

#include "mcts/inference_server.h"
#include "nn/encoder.h"
#include "nn/network_evaluator.h"
#include "nn/packed_planes.h"
#include "tests/support/evaluation_batch.h"
#include "tests/support/test_positions.h"

namespace fairyzero {
namespace {

using testing::random_positions;
using testing::variant;

const NetworkConfig kSmall{.blocks = 2, .filters = 16, .policy_dim = 8, .value_hidden = 16};

// A network whose batch norms do something: random scales, shifts and running statistics, as
// after training (fresh ones are the identity, which would hide a wrong fold).
std::shared_ptr<NetworkImpl> trained_looking_network(const Encoder& encoder) {
  torch::manual_seed(7);
  auto network = std::dynamic_pointer_cast<NetworkImpl>(
      make_network(kSmall, encoder.network_shape())->clone());
  torch::NoGradGuard no_grad;
  for (auto& item : network->named_buffers()) {
    if (item.key().find("running_mean") != std::string::npos)
      item.value().copy_(torch::randn_like(item.value()) * 0.3);
    if (item.key().find("running_var") != std::string::npos)
      item.value().copy_(torch::rand_like(item.value()) + 0.5);
  }
  for (auto& item : network->named_parameters()) {
    const std::string& name = item.key();
    if (name.find("bn") != std::string::npos && name.find(".weight") != std::string::npos)
      item.value().copy_(torch::rand_like(item.value()) + 0.5);
    if (name.find("bn") != std::string::npos && name.find(".bias") != std::string::npos)
      item.value().copy_(torch::randn_like(item.value()) * 0.2);
  }
  network->eval();
  return network;
}

torch::Tensor planes_of(const Encoder& encoder, const std::vector<Position>& positions) {
  torch::Tensor planes = torch::empty({static_cast<int64_t>(positions.size()),
                                       encoder.plane_count(), encoder.ranks(), encoder.files()});
  for (size_t i = 0; i < positions.size(); ++i)
    encoder.encode(positions[i], planes.data_ptr<float>() + i * encoder.plane_floats());
  return planes;
}

// Largest difference over every head, relative to the outputs' scale.
double largest_difference(const NetworkOutput& a, const NetworkOutput& b) {
  double worst = 0;
  auto compare = [&](const torch::Tensor& x, const torch::Tensor& y) {
    if (x.numel() == 0) return;
    const torch::Tensor fx = x.to(torch::kCPU, torch::kFloat),
                        fy = y.to(torch::kCPU, torch::kFloat);
    const double scale = 1 + fx.abs().max().item<double>();
    worst = std::max(worst, (fx - fy).abs().max().item<double>() / scale);
  };
  compare(a.pair, b.pair);
  compare(a.promotion, b.promotion);
  compare(a.drop, b.drop);
  compare(a.value, b.value);
  EXPECT_EQ(a.moves_left.defined(), b.moves_left.defined());
  if (a.moves_left.defined() && b.moves_left.defined()) compare(a.moves_left, b.moves_left);
  return worst;
}

class PreparedNetworkTest : public ::testing::TestWithParam<const char*> {};

TEST_P(PreparedNetworkTest, FoldedFloatNetworkMatchesTheTrainingNetwork) {
  const Encoder encoder(variant(GetParam()));
  auto network = trained_looking_network(encoder);
  const torch::Tensor planes = planes_of(encoder, random_positions(encoder.variant_ptr(), 3, 30));
  torch::NoGradGuard no_grad;
  const NetworkOutput expected = network->forward(planes);
  const PreparedNetwork prepared(*network, {});
  c10::InferenceMode inference;
  EXPECT_LT(largest_difference(prepared.forward(prepared.prepare_input(planes)), expected), 1e-4);
}

TEST_P(PreparedNetworkTest, BFloat16AndChannelsLastOnTheCpuStayClose) {
  const Encoder encoder(variant(GetParam()));
  auto network = trained_looking_network(encoder);
  const torch::Tensor planes = planes_of(encoder, random_positions(encoder.variant_ptr(), 2, 20));
  torch::NoGradGuard no_grad;
  const NetworkOutput expected = network->forward(planes);
  const PreparedNetwork prepared(*network,
                                 {.precision = Precision::kBFloat16, .channels_last = true});
  c10::InferenceMode inference;
  const NetworkOutput got = prepared.forward(prepared.prepare_input(planes));
  // The trunk in bf16, the heads in fp32 (PreparedNetwork::head_dtype): with bf16 heads, Debian's
  // oneDNN 2.6 corrupted memory when self-play's threads created their kernels at once.
  EXPECT_EQ(prepared.dtype(), torch::kBFloat16);
  EXPECT_EQ(got.pair.scalar_type(), torch::kFloat);
  // bf16 keeps 8 bits of mantissa: a few parts in a hundred after a dozen layers.
  EXPECT_LT(largest_difference(got, expected), 0.05);
}

TEST_P(PreparedNetworkTest, PackedRowsUnpackToTheFloatPlanes) {
  const Encoder encoder(variant(GetParam()));
  const std::vector<Position> positions = random_positions(encoder.variant_ptr(), 4, 60, 3);
  const size_t row_bytes = encoder.packed_row_bytes();
  ASSERT_EQ(row_bytes % 8, 0u);
  std::vector<std::byte> rows(positions.size() * row_bytes);
  for (size_t i = 0; i < positions.size(); ++i)
    encoder.encode_packed(positions[i], rows.data() + i * row_bytes);
  const torch::Tensor packed = torch::from_blob(
      rows.data(), {static_cast<int64_t>(positions.size()), static_cast<int64_t>(row_bytes)},
      torch::kUInt8);
  const PlaneUnpacker unpacker(encoder, torch::kCPU);
  const torch::Tensor unpacked = unpacker.unpack(packed, torch::kFloat);
  EXPECT_TRUE(torch::equal(unpacked, planes_of(encoder, positions)));
  EXPECT_LT(row_bytes * 8, sizeof(float) * encoder.plane_floats()) << "packing saves little";
}

// Two-seat chess (promotions), a drop variant, a four-seat river variant with holes and zones.
INSTANTIATE_TEST_SUITE_P(Variants, PreparedNetworkTest,
                         ::testing::Values("chess", "commedia-chessgi", "irwell",
                                           "very-heavy-chess"));

TEST(NetworkEvaluator, TheStagedPathThroughAServerMatchesDirectCalls) {
  const VariantPtr v = variant("irwell");
  const Encoder encoder(v);
  auto network = trained_looking_network(encoder);
  auto evaluator = std::make_shared<NetworkEvaluator>(v, network);
  ASSERT_EQ(evaluator->row_bytes(), sizeof(float) * encoder.plane_floats());
  testing::Batch batch(v, 3, 12);
  InferenceServer server(evaluator, {.max_batch = 8, .max_wait_us = 2000, .threads = 2});
  testing::run_clients(server, *evaluator, batch, 4, 1e-5f);
}

TEST(NetworkEvaluator, PrecisionNamesAreParsedAndBadOnesNamed) {
  EXPECT_EQ(parse_precision("bf16"), Precision::kBFloat16);
  EXPECT_EQ(precision_name(parse_precision("fp16")), "fp16");
  try {
    parse_precision("half");
    ADD_FAILURE() << "no exception";
  } catch (const SettingError& e) {
    EXPECT_NE(std::string(e.what()).find("'half'"), std::string::npos) << e.what();
  }
}

// The kernel's own account of the CPU (Linux, x86): its flags name avx512_bf16.
TEST(NetworkEvaluator, NativeBFloat16IsWhatTheCpuFlagsSay) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line) && line.rfind("flags", 0) != 0) {
  }
  if (line.rfind("flags", 0) != 0) GTEST_SKIP() << "no x86 flags in /proc/cpuinfo";
  const bool listed = (line + " ").find(" avx512_bf16 ") != std::string::npos;
  EXPECT_EQ(cpu_has_native_bfloat16(), listed) << line;
}

TEST(NetworkEvaluator, TheCpuRunsBFloat16OnlyWithItsInstructions) {
  EXPECT_EQ(precision_on_device("cpu", Precision::kFloat32), Precision::kFloat32);
  EXPECT_EQ(precision_on_device("cpu", Precision::kFloat16), Precision::kFloat32);
  const Precision bf16 = precision_on_device("cpu", Precision::kBFloat16);
  EXPECT_EQ(bf16, cpu_has_native_bfloat16() ? Precision::kBFloat16 : Precision::kFloat32);
  const VariantPtr v = variant("gardner");
  const Encoder encoder(v);
  const NetworkEvaluator evaluator(v, trained_looking_network(encoder),
                                   {.device = "cpu", .precision = Precision::kBFloat16});
  EXPECT_NE(evaluator.name().find("(" + precision_name(bf16) + ")"), std::string::npos)
      << evaluator.name();
  EXPECT_THROW(precision_on_device("tpu", Precision::kBFloat16), SettingError);
}

// On a GPU: fp16 against fp32 outputs, and the packed staged path against the CPU's.
TEST(NetworkEvaluatorCuda, HalfPrecisionAndPackedRowsMatchTheCpu) {
  if (!torch::cuda::is_available()) GTEST_SKIP() << "no CUDA device";
  const VariantPtr v = variant("chess");
  const Encoder encoder(v);
  auto network = trained_looking_network(encoder);
  const torch::Tensor planes = planes_of(encoder, random_positions(v, 3, 30));
  torch::NoGradGuard no_grad;
  const NetworkOutput expected = network->forward(planes);
  for (Precision precision : {Precision::kFloat32, Precision::kFloat16, Precision::kBFloat16}) {
    const PreparedNetwork prepared(*network, {.device = torch::kCUDA,
                                              .precision = precision,
                                              .channels_last = precision != Precision::kFloat32});
    c10::InferenceMode inference;
    const double tolerance = precision == Precision::kFloat32   ? 1e-3
                             : precision == Precision::kFloat16 ? 1e-2
                                                                : 0.05;
    EXPECT_LT(largest_difference(prepared.forward(prepared.prepare_input(planes)), expected),
              tolerance)
        << precision_name(precision);
  }
  auto cpu = std::make_shared<NetworkEvaluator>(v, network);
  auto gpu = std::make_shared<NetworkEvaluator>(
      v, network, NetworkEvaluatorOptions{.device = "cuda", .precision = Precision::kFloat32});
  ASSERT_EQ(gpu->row_bytes(), encoder.packed_row_bytes());
  testing::Batch batch(v, 3, 12);
  InferenceServer server(gpu, {.max_batch = 8, .max_wait_us = 2000, .threads = 2});
  testing::run_clients(server, *cpu, batch, 4, 1e-3f);
}

}  // namespace
}  // namespace fairyzero
