// The encoder on four-seat team games: seats in game, partner and Rose-lock planes, and value
// targets / seat values under team and individual scoring on real Irwell game ends.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "nn/encoder.h"
#include "nn/network.h"
#include "tests/core/team_games_support.h"
#include "tests/support/test_positions.h"

namespace fairyzero {
namespace {

using team_test::play;
using team_test::seat;

// Irwell's start array with a seat to move and a team-state field.
std::string irwell_fen(const std::string& mover, const std::string& team_state = "") {
  return "MM1bo1IS/XMm1q1XS/PPbpppPP/8/8/8/8/ppBPPPpp/xmM1Q1xs/mm1BO1is " + mover + " - - 0 1" +
         (team_state.empty() ? "" : " " + team_state);
}

class TeamPlanes : public ::testing::Test {
 protected:
  VariantPtr v = testing::variant("irwell");
  Encoder enc{v};
  std::vector<float> planes = std::vector<float>(enc.plane_floats());
  float constant(int plane) {
    for (int c = 1; c < enc.cells(); ++c)
      EXPECT_EQ(planes[plane * enc.cells() + c], planes[plane * enc.cells()]) << plane;
    return planes[plane * enc.cells()];
  }
  float sum(int plane) {
    float total = 0;
    for (int c = 0; c < enc.cells(); ++c) total += planes[plane * enc.cells() + c];
    return total;
  }
};

TEST_F(TeamPlanes, SeatsInGameAndThePartnerOfTheSeatToMove) {
  Position pos = Position::from_fen(v, irwell_fen("bh", "out:wl"));
  enc.encode(pos, planes.data());
  const int wl = seat(pos, "wl"), bh = seat(pos, "bh"), wh = seat(pos, "wh"), bl = seat(pos, "bl");
  EXPECT_EQ(constant(enc.in_game_plane(wl)), 0);
  EXPECT_EQ(constant(enc.in_game_plane(bh)), 1);
  EXPECT_EQ(constant(enc.in_game_plane(wh)), 1);
  EXPECT_EQ(constant(enc.in_game_plane(bl)), 1);
  EXPECT_EQ(constant(enc.partner_plane(bl)), 1);  // Black's other seat
  for (int s : {wl, bh, wh}) EXPECT_EQ(constant(enc.partner_plane(s)), 0);
  EXPECT_EQ(sum(enc.lock_plane()), 0);

  // White high's partner is White low, shown even though it is out.
  Position white = Position::from_fen(v, irwell_fen("wh", "out:wl"));
  enc.encode(white, planes.data());
  EXPECT_EQ(constant(enc.partner_plane(wl)), 1);
  EXPECT_EQ(constant(enc.partner_plane(bl)), 0);
  EXPECT_EQ(constant(enc.in_game_plane(wl)), 0);
}

TEST_F(TeamPlanes, LockPlaneMarksTheMoversLockedMan) {
  // White's Rose on e0 is locked until both White seats have moved another man.
  Position pos = Position::from_fen(v, irwell_fen("wl", "lock:e0=wl+wh"));
  ASSERT_NE(pos.locked_cell(pos.army_to_move()), kNoCell);
  enc.encode(pos, planes.data());
  const Cell e0 = *v->geometry.parse_cell("e0");
  EXPECT_EQ(planes[enc.lock_plane() * enc.cells() + enc.frame_cell(e0, enc.mirrored(pos))], 1);
  EXPECT_EQ(sum(enc.lock_plane()), 1);
  // The same lock seen by Black: not the mover's army, so no lock plane.
  Position black = Position::from_fen(v, irwell_fen("bh", "lock:e0=wl+wh"));
  enc.encode(black, planes.data());
  EXPECT_EQ(sum(enc.lock_plane()), 0);
}

TEST(TeamPlanesTwoSeats, BothSeatsInGameAndNoPartner) {
  VariantPtr v = testing::variant("chess");
  Encoder enc(v);
  Position pos(v);
  std::vector<float> planes(enc.plane_floats());
  enc.encode(pos, planes.data());
  for (int s = 0; s < 2; ++s) {
    EXPECT_EQ(planes[enc.in_game_plane(s) * enc.cells()], 1);
    EXPECT_EQ(planes[enc.partner_plane(s) * enc.cells()], 0);
  }
}

// Game ends with known team and individual scores (tests/core/coronation_ranking_test.cpp).
struct GameEnd {
  const char* name;
  const char* fen;
  std::vector<std::string> moves;
  Termination termination;
};

const std::vector<GameEnd> kEnds = {
    // Black low is out; White low moves, Black high has no move and drops out.
    {"DropOut", "7X/8/8/8/8/8/8/8/8/s6X wl - - 0 1 out:bl", {"h0g0", "out"}, Termination::kDropOut},
    // Black's crowned King h9 is mated by White low's Marshal.
    {"CheckmateOfACrownedKing",
     "7k/X7/8/8/6M1/8/8/7M/8/x2X4 wl - - 0 1",
     {"h2h7"},
     Termination::kCheckmate},
    // White, already crowned once, crowns its second Prince: White is defeated.
    {"DoubleCoronation",
     "x6K/8/8/8/8/4S3/8/3X4/1B6/7x wl - - 0 1",
     {"d2d3"},
     Termination::kCoronation},
};

Outcome end_of(const VariantPtr& v, const GameEnd& end) {
  Position pos = Position::from_fen(v, end.fen);
  for (const std::string& m : end.moves) play(pos, m);
  Outcome o = pos.outcome();
  EXPECT_EQ(o.termination, end.termination) << end.name;
  return o;
}

class ValueTargets : public ::testing::TestWithParam<GameEnd> {};

TEST_P(ValueTargets, TeamScoringKeepsOneTeamHead) {
  VariantPtr v = testing::variant("irwell");
  Encoder enc(v);
  ASSERT_EQ(enc.value_heads(), 1);
  const Outcome o = end_of(v, GetParam());
  for (int mover = 0; mover < 4; ++mover) {
    float target[3];
    enc.value_target(mover, o, target);
    const float score = static_cast<float>(o.score[mover]);
    EXPECT_FLOAT_EQ(target[0], std::max(0.0f, 2 * score - 1)) << mover;
    EXPECT_FLOAT_EQ(target[2], std::max(0.0f, 1 - 2 * score)) << mover;
    EXPECT_FLOAT_EQ(target[0] + target[1] + target[2], 1) << mover;
    // A perfect prediction gives every seat its team score back.
    const std::string token = v->seats[mover].fen;
    const auto values = enc.seat_values(Position::from_fen(v, irwell_fen(token)), target);
    for (int s = 0; s < 4; ++s) EXPECT_FLOAT_EQ(values[s], o.score[s]) << mover << " " << s;
  }
}

TEST_P(ValueTargets, IndividualScoringHasOneHeadPerSeat) {
  VariantPtr v = find_variant("irwell", {"rules.scoring=individual"});
  Encoder enc(v);
  ASSERT_EQ(enc.value_heads(), 4);
  const Outcome o = end_of(v, GetParam());
  // The individual scores differ from the team scores in every one of these ends.
  EXPECT_NE(o.individual, o.score);
  for (int mover = 0; mover < 4; ++mover) {
    float target[4 * 3];
    enc.value_target(mover, o, target);
    for (int h = 0; h < 4; ++h) {
      const float x = static_cast<float>(o.individual[(mover + h) % 4]);
      EXPECT_FLOAT_EQ(target[3 * h], x) << mover << " " << h;
      EXPECT_EQ(target[3 * h + 1], 0) << mover << " " << h;
      EXPECT_FLOAT_EQ(target[3 * h + 2], 1 - x) << mover << " " << h;
    }
    const std::string token = v->seats[mover].fen;
    const auto values = enc.seat_values(Position::from_fen(v, irwell_fen(token)), target);
    for (int s = 0; s < 4; ++s) EXPECT_FLOAT_EQ(values[s], o.individual[s]) << mover << " " << s;
  }
}

INSTANTIATE_TEST_SUITE_P(Irwell, ValueTargets, ::testing::ValuesIn(kEnds),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ValueTargetsIndividual, DropOutEndingByHand) {
  // Spelled out for one mover: White low ends the game (1), White high 2/3, Black high out
  // second (1/3), Black low out first (0). Heads from Black high: bh, wh, bl, wl.
  VariantPtr v = find_variant("irwell", {"rules.scoring=individual"});
  Encoder enc(v);
  const Outcome o = end_of(v, kEnds[0]);
  float target[12];
  enc.value_target(/*bh*/ 1, o, target);
  const float expected[12] = {1.0f / 3, 0, 2.0f / 3, 2.0f / 3, 0, 1.0f / 3, 0, 0, 1, 1, 0, 0};
  for (int k = 0; k < 12; ++k) EXPECT_FLOAT_EQ(target[k], expected[k]) << k;
}

TEST(ValueTargetsIndividual, NetworkForwardHasOneHeadPerSeat) {
  VariantPtr v = find_variant("irwell", {"rules.scoring=individual"});
  Encoder enc(v);
  Network net(NetworkConfig{.blocks = 1, .filters = 8, .policy_dim = 8, .value_hidden = 16},
              enc.network_shape());
  net->eval();
  std::vector<Position> positions = testing::random_positions(v, 1, 3);
  torch::Tensor planes = torch::empty(
      {static_cast<int64_t>(positions.size()), enc.plane_count(), enc.ranks(), enc.files()});
  for (size_t i = 0; i < positions.size(); ++i)
    enc.encode(positions[i], planes.data_ptr<float>() + i * enc.plane_floats());
  torch::NoGradGuard no_grad;
  NetworkOutput out = net->forward(planes);
  EXPECT_EQ(out.value.sizes().vec(),
            (std::vector<int64_t>{static_cast<int64_t>(positions.size()), 4, 3}));
  torch::Tensor wdl = torch::softmax(out.value, 2).contiguous();
  const auto values = enc.seat_values(positions[0], wdl.data_ptr<float>());
  for (int s = 0; s < 4; ++s) {
    EXPECT_GT(values[s], 0);
    EXPECT_LT(values[s], 1);
  }
}

}  // namespace
}  // namespace fairyzero
