// The solver under individual scoring and with distances: a tied first place (5/6 of four
// seats) proves nothing alone but beats a proven draw however the visits fell; a sole first
// proves at once; of two proven wins the quicker is played. And the moves-left utility: with
// predicted plies left, the search hurries a win and drags out a loss.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/variant_loader.h"
#include "mcts/search.h"

namespace fairyzero {
namespace {

// Leaves built by hand (no virtual loss, so a leaf needs no select()).
class HandTree {
 public:
  HandTree(VariantPtr variant, SearchParams params = no_virtual_loss())
      : root_(variant), tree_(params, variant->seat_count()) {
    tree_.reset(root_);
    PendingLeaf leaf(root_);
    EXPECT_TRUE(tree_.select(leaf));
    root_.legal_moves(leaf.legal);
    Evaluation e;
    e.policy_logits.assign(leaf.legal.size(), 0.0f);
    e.value.fill(0.5f);
    tree_.complete(leaf, &e);
  }
  static SearchParams no_virtual_loss() {
    SearchParams p;
    p.virtual_loss = 0;
    return p;
  }
  SearchTree& tree() { return tree_; }
  int32_t child(int k) { return tree_.make_child(0, k); }
  int children() const { return tree_.edge_count(0); }
  // Ends the game at root child k with these individual scores (as a checkmate), `times` visits.
  void finish(int k, std::array<double, kMaxSeats> individual, int times = 1) {
    for (int t = 0; t < times; ++t) {
      PendingLeaf leaf(root_);
      leaf.path = {0, child(k)};
      leaf.node = child(k);
      leaf.position.play(tree_.node(child(k)).move);
      leaf.outcome.termination = Termination::kCheckmate;
      leaf.outcome.individual = individual;
      leaf.outcome.score = individual;
      leaf.known = tree_.node(child(k)).proven;
      tree_.complete(leaf, nullptr);
    }
  }

 private:
  Position root_;
  SearchTree tree_;
};

VariantPtr individual_four_seats() {
  return load_variant_file("tests/data/four-seats.toml", {"rules.scoring=individual"});
}

TEST(SolverIndividualScoring, ATiedFirstDoesNotProveThePositionAlone) {
  HandTree hand(individual_four_seats());
  ASSERT_GE(hand.children(), 3);
  ASSERT_EQ(hand.tree().root().seat, 0);
  hand.finish(0, {5.0 / 6, 1.0 / 6, 5.0 / 6, 1.0 / 6});
  EXPECT_TRUE(hand.tree().node(hand.child(0)).proven);
  EXPECT_FALSE(hand.tree().root().proven) << "another move may still make white-low sole first";
  hand.finish(1, {1.0, 1.0 / 3, 2.0 / 3, 0.0});
  EXPECT_TRUE(hand.tree().root().proven) << "the sole first is the best there is";
  EXPECT_FLOAT_EQ(hand.tree().root().exact[0], 1.0f);
  EXPECT_EQ(hand.tree().best_edge(0), 1);
}

TEST(SolverIndividualScoring, AProvenTiedFirstBeatsAMoreVisitedProvenDraw) {
  HandTree hand(individual_four_seats());
  hand.finish(0, {5.0 / 6, 1.0 / 6, 5.0 / 6, 1.0 / 6});
  hand.finish(1, {0.5, 0.5, 0.5, 0.5}, 20);
  EXPECT_EQ(hand.tree().best_edge(0), 0)
      << "proven outcomes are compared by their worth to the mover, not by visits";
  for (int k = 2; k < hand.children(); ++k) hand.finish(k, {1.0 / 6, 5.0 / 6, 1.0 / 6, 5.0 / 6});
  ASSERT_TRUE(hand.tree().root().proven) << "every child proven";
  EXPECT_FLOAT_EQ(hand.tree().root().exact[0], 5.0f / 6);
  EXPECT_FLOAT_EQ(hand.tree().root().exact[1], 1.0f / 6);
  EXPECT_EQ(hand.tree().best_edge(0), 0);
}

TEST(SolverIndividualScoring, AProvenLastPlaceComesAfterAnUnknownMove) {
  HandTree hand(individual_four_seats());
  hand.finish(0, {0.0, 1.0, 1.0 / 3, 2.0 / 3}, 30);
  EXPECT_NE(hand.tree().best_edge(0), 0);
  EXPECT_FALSE(hand.tree().root().proven);
}

// White's move into a position where every Black reply loses (a win in 2 plies) against a
// move that mates at once: both are proven wins; the quicker is played and counted.
TEST(Solver, OfTwoProvenWinsTheQuickerIsPlayed) {
  VariantPtr chess = find_variant("chess");
  HandTree hand(chess);
  SearchTree& tree = hand.tree();
  // Expand root child 0 (Black to move) and lose every Black reply.
  Position root(chess);
  Position after = root;
  after.play(tree.node(hand.child(0)).move);
  {
    PendingLeaf leaf(root);
    leaf.path = {0, hand.child(0)};
    leaf.node = hand.child(0);
    leaf.position = after;
    after.legal_moves(leaf.legal);
    Evaluation e;
    e.policy_logits.assign(leaf.legal.size(), 0.0f);
    e.value = {0.9f, 0.1f};
    tree.complete(leaf, &e);
  }
  for (int k = 0; k < tree.edge_count(hand.child(0)); ++k) {
    PendingLeaf leaf(root);
    leaf.node = tree.make_child(hand.child(0), k);
    leaf.path = {0, hand.child(0), leaf.node};
    leaf.position = after;
    leaf.position.play(tree.node(leaf.node).move);
    leaf.outcome.termination = Termination::kCheckmate;
    leaf.outcome.score = leaf.outcome.individual = {1.0, 0.0};
    tree.complete(leaf, nullptr);
  }
  ASSERT_TRUE(tree.node(hand.child(0)).proven);
  EXPECT_EQ(tree.node(hand.child(0)).proof_plies, 1);
  ASSERT_TRUE(tree.root().proven);
  EXPECT_EQ(tree.root().proof_plies, 2);
  hand.finish(5, {1.0, 0.0});
  EXPECT_EQ(tree.best_edge(0), 5) << "the win in one ply";
  EXPECT_EQ(tree.best_edge(hand.child(0)), 0) << "a lost side's replies all end at once: any";
}

// An evaluator that predicts few plies left below 1. e4, many below 1. d4 and 30 elsewhere (a
// constant value), so that only the moves-left utility tells the moves apart.
class MovesLeftEvaluator : public Evaluator {
 public:
  float white_value = 0.8f;
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override {
    for (size_t i = 0; i < batch.size(); ++i) {
      const Position& p = *batch[i].position;
      const Geometry& g = p.variant().geometry;
      auto moved = [&](const char* from, const char* to) {
        return p.piece_at(*g.parse_cell(from)) == kEmpty && p.piece_at(*g.parse_cell(to)) != kEmpty;
      };
      const bool e4 = moved("e2", "e4"), d4 = moved("d2", "d4");
      const float base = e4 && !d4 ? 10 : d4 && !e4 ? 60 : 30;
      out[i].policy_logits.assign(batch[i].legal->size(), 0.0f);
      out[i].value = {white_value, 1 - white_value};
      out[i].moves_left = std::max(0.0f, base - std::max(0, p.plies_played() - 1));
    }
  }
  std::string name() const override { return "moves-left"; }
};

std::string best_move(MovesLeftEvaluator& evaluator, float slope) {
  Position root(find_variant("chess"));
  SearchParams params;
  params.moves_left_slope = slope;
  Search search(root, evaluator, params);
  return root.move_text(search.run({.playouts = 3000}).best);
}

TEST(MovesLeftUtility, TheSearchHurriesAWinAndDragsOutALoss) {
  MovesLeftEvaluator evaluator;
  evaluator.white_value = 0.8f;
  EXPECT_EQ(best_move(evaluator, 0.0014f), "e2e4") << "ahead: the shorter game";
  evaluator.white_value = 0.2f;
  EXPECT_EQ(best_move(evaluator, 0.0014f), "d2d4") << "behind: the longer game";
}

}  // namespace
}  // namespace fairyzero
