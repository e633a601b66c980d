// Search behaviour: priors steer visits, values back up per seat for 2 and 4 seats, threads agree
// with one thread, tree reuse, root noise, temperature, and batched search across games.
#include "mcts/search.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "core/variant_loader.h"
#include "mcts/basic_evaluators.h"
#include "mcts/batched_search.h"

namespace fairyzero {
namespace {

// An evaluator whose answers a test writes: a logit per move text, a value per seat computed from
// the position.
class ScriptedEvaluator : public Evaluator {
 public:
  std::map<std::string, float> logits;  // move text -> logit (others 0)
  std::function<std::array<float, kMaxSeats>(const Position&)> value_of = [](const Position&) {
    std::array<float, kMaxSeats> v{};
    v.fill(0.5f);
    return v;
  };
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override {
    for (size_t i = 0; i < batch.size(); ++i) {
      const MoveList& legal = *batch[i].legal;
      out[i].policy_logits.resize(legal.size());
      for (int k = 0; k < legal.size(); ++k) {
        auto it = logits.find(batch[i].position->move_text(legal[k]));
        out[i].policy_logits[k] = it == logits.end() ? 0.0f : it->second;
      }
      out[i].value = value_of(*batch[i].position);
    }
  }
  std::string name() const override { return "scripted"; }
};

int visits_of(const SearchResult& r, const Position& pos, const std::string& move) {
  for (const ChildStats& c : r.children)
    if (pos.move_text(c.move) == move) return c.visits;
  return -1;
}

TEST(Search, VisitsFollowThePriorWhenValuesAreEqual) {
  Position pos(find_variant("chess"));
  ScriptedEvaluator stub;
  stub.logits["g1f3"] = 5.0f;
  Search search(pos, stub);
  SearchResult r = search.run({.playouts = 2000});
  EXPECT_EQ(pos.move_text(r.best), "g1f3");
  EXPECT_GT(visits_of(r, pos, "g1f3"), 0.7 * r.root_visits);
  // Uniform priors and equal values spread visits evenly.
  UniformEvaluator uniform;
  Search even(pos, uniform);
  SearchResult u = even.run({.playouts = 2001});
  int lo = u.root_visits, hi = 0;
  for (const ChildStats& c : u.children) lo = std::min(lo, c.visits), hi = std::max(hi, c.visits);
  EXPECT_LE(hi - lo, 2) << "20 moves, 2000 visits: about 100 each";
}

// Backup on a hand-made tree: expand the root, then one child, with chosen values (and plies
// left).
TEST(SearchTree, BackupAddsEachSeatsValueAlongThePath) {
  Position root(find_variant("chess"));
  SearchParams params;
  SearchTree tree(params, 2);
  tree.reset(root);
  PendingLeaf leaf(root);
  ASSERT_TRUE(tree.select(leaf));
  EXPECT_EQ(leaf.node, 0);
  leaf.position.legal_moves(leaf.legal);
  Evaluation e;
  e.policy_logits.assign(leaf.legal.size(), 0.0f);
  e.value = {0.6f, 0.4f};
  e.moves_left = 10;
  tree.complete(leaf, &e);
  EXPECT_EQ(tree.root().visits, 1);
  EXPECT_EQ(tree.edge_count(0), 20);
  ASSERT_TRUE(tree.select(leaf));
  ASSERT_EQ(leaf.path.size(), 2u);
  EXPECT_EQ(tree.root().in_flight, 1) << "virtual loss while the leaf is pending";
  leaf.position = root;
  leaf.position.play(leaf.moves[0]);
  leaf.position.legal_moves(leaf.legal);
  e.policy_logits.assign(leaf.legal.size(), 0.0f);
  e.value = {0.2f, 0.8f};
  e.moves_left = 20;
  tree.complete(leaf, &e);
  EXPECT_EQ(tree.root().in_flight, 0);
  EXPECT_EQ(tree.root().visits, 2);
  EXPECT_FLOAT_EQ(tree.root().value_sum[0], 0.8f);
  EXPECT_FLOAT_EQ(tree.root().value_sum[1], 1.2f);
  const Node& child = tree.node(leaf.node);
  EXPECT_EQ(child.visits, 1);
  EXPECT_FLOAT_EQ(tree.value_of(child, 0), 0.2f);
  EXPECT_FLOAT_EQ(tree.value_of(child, 1), 0.8f);
  EXPECT_EQ(child.seat, 1) << "Black moves in the child";
  // Plies left back up with the distance to the leaf: the root had 10, then 20 + 1.
  EXPECT_FLOAT_EQ(tree.moves_left_of(child), 20.0f);
  EXPECT_FLOAT_EQ(tree.moves_left_of(tree.root()), (10.0f + 21.0f) / 2);
}

// The same on a four-seat tree, individual and team values: each seat's sum is its own.
TEST(SearchTree, FourSeatBackupKeepsOneSumPerSeat) {
  VariantPtr v = load_variant_file("tests/data/four-seats.toml");
  Position root(v);
  SearchTree tree(SearchParams{}, 4);
  tree.reset(root);
  PendingLeaf leaf(root);
  auto expand = [&](std::array<float, kMaxSeats> value) {
    ASSERT_TRUE(tree.select(leaf));
    leaf.position = root;
    for (Move m : leaf.moves) leaf.position.play(m);
    leaf.position.legal_moves(leaf.legal);
    Evaluation e;
    e.policy_logits.assign(leaf.legal.size(), 0.0f);
    e.value = value;
    tree.complete(leaf, &e);
  };
  expand({0.1f, 0.2f, 0.3f, 0.4f});  // the root, individual values
  expand({0.4f, 0.3f, 0.2f, 0.1f});  // a child (white-low's best so far: it is revisited)
  expand({0.7f, 0.3f, 0.7f, 0.3f});  // below it: team values, partners equal
  ASSERT_EQ(leaf.path.size(), 3u) << "the visited child scores 0.4 for white-low, above FPU";
  const Node& r = tree.root();
  EXPECT_EQ(r.visits, 3);
  const std::array<float, 4> root_sum = {1.2f, 0.8f, 1.2f, 0.8f};
  for (int s = 0; s < 4; ++s) EXPECT_NEAR(r.value_sum[s], root_sum[s], 1e-6) << "seat " << s;
  const Node& child = tree.node(leaf.path[1]);
  EXPECT_EQ(child.visits, 2);
  EXPECT_EQ(child.seat, 1) << "black-high moves after white-low";
  const std::array<float, 4> child_sum = {1.1f, 0.6f, 0.9f, 0.4f};
  for (int s = 0; s < 4; ++s) EXPECT_NEAR(child.value_sum[s], child_sum[s], 1e-6) << "seat " << s;
  const Node& last = tree.node(leaf.node);
  EXPECT_EQ(last.seat, 2) << "then white-high";
  EXPECT_FLOAT_EQ(tree.value_of(last, 0), 0.7f);
  EXPECT_FLOAT_EQ(tree.value_of(last, 1), 0.3f);
  EXPECT_EQ(tree.value_of(last, 0), tree.value_of(last, 2)) << "partners share a team value";
}

// Four seats, individual scoring: each seat maximises its own expected score, so the seat to
// move at the root prefers the move that is best for itself even when it is bad for the others
// (including its partner). Under team scoring partners share one value and agree.
TEST(SearchTree, FourSeatsEachSeatMaximisesItsOwnValue) {
  VariantPtr v = load_variant_file("tests/data/four-seats.toml");
  Position root(v);
  ASSERT_EQ(v->seats[root.seat_to_move()].name, "white-low");
  ScriptedEvaluator scripted;
  // After a0a1 white-low scores 0.9 and its partner white-high 0.1; after f0f1 the reverse.
  scripted.value_of = [](const Position& p) {
    std::array<float, kMaxSeats> value{0.5f, 0.5f, 0.5f, 0.5f};
    const Geometry& g = p.variant().geometry;
    if (p.piece_at(*g.parse_cell("a1")) != kEmpty) value = {0.9f, 0.4f, 0.1f, 0.6f};
    if (p.piece_at(*g.parse_cell("f1")) != kEmpty) value = {0.1f, 0.4f, 0.9f, 0.6f};
    return value;
  };
  Search individual(root, scripted);
  SearchResult r = individual.run({.playouts = 600});
  EXPECT_EQ(root.move_text(r.best), "a0a1");
  // The other move is backed up with white-low's own (bad) value.
  for (const ChildStats& c : r.children) {
    if (root.move_text(c.move) == "f0f1") {
      EXPECT_LT(c.value, 0.2f) << "bad for white-low";
    }
  }
  // Team scoring: the evaluator gives partners the mean of their two individual values.
  scripted.value_of = [](const Position& p) {
    std::array<float, kMaxSeats> value{0.5f, 0.5f, 0.5f, 0.5f};
    const Geometry& g = p.variant().geometry;
    if (p.piece_at(*g.parse_cell("a1")) != kEmpty) value = {0.3f, 0.7f, 0.3f, 0.7f};
    if (p.piece_at(*g.parse_cell("f1")) != kEmpty) value = {0.8f, 0.2f, 0.8f, 0.2f};
    return value;
  };
  Search team(root, scripted);
  EXPECT_EQ(root.move_text(team.run({.playouts = 600}).best), "f0f1");
}

TEST(Search, ThreadsAgreeWithOneThreadOnTactics) {
  VariantPtr v = find_variant("chess");
  MaterialEvaluator material(*v);
  // A hanging queen, and a fork-free capture of a rook.
  for (const char* fen : {"rnb1kbnr/pppp1ppp/8/4q3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1",
                          "4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1"}) {
    Position pos = Position::from_fen(v, fen);
    SearchParams one;
    Search single(pos, material, one);
    Move best = single.run({.playouts = 3000}).best;
    SearchParams two = one;
    two.threads = 2;
    Search multi(pos, material, two);
    SearchResult r = multi.run({.playouts = 3000});
    EXPECT_EQ(pos.move_text(r.best), pos.move_text(best)) << fen;
    EXPECT_GE(r.playouts, 3000);
    EXPECT_EQ(multi.result().root_visits, r.root_visits) << "no visit lost or left in flight";
  }
}

TEST(Search, TreeReuseKeepsTheSubtree) {
  Position pos(find_variant("chess"));
  MaterialEvaluator material(pos.variant());
  Search search(pos, material);
  SearchResult r = search.run({.playouts = 1000});
  int kept = 0;
  for (const ChildStats& c : r.children)
    if (c.move == r.best) kept = c.visits;
  search.play(r.best);
  EXPECT_EQ(search.result().root_visits, kept);
  EXPECT_EQ(search.position().fen(), [&] {
    Position p = pos;
    p.play(r.best);
    return p.fen();
  }());
  SearchResult next = search.run({.playouts = 200});
  EXPECT_EQ(next.root_visits, kept + 200);
}

TEST(Search, RootNoiseChangesPriorsButKeepsThemADistribution) {
  Position pos(find_variant("chess"));
  UniformEvaluator uniform;
  SearchParams params;
  params.root_noise = true;
  params.seed = 7;
  Search search(pos, uniform, params);
  SearchResult r = search.run({.playouts = 50});
  float sum = 0, lo = 1, hi = 0;
  for (const ChildStats& c : r.children)
    sum += c.prior, lo = std::min(lo, c.prior), hi = std::max(hi, c.prior);
  EXPECT_NEAR(sum, 1.0f, 1e-4);
  EXPECT_GT(hi - lo, 0.005f) << "uniform priors with noise are no longer equal";
}

TEST(Search, TotalDirichletAlphaIsSpreadOverTheLegalMoves) {
  SearchParams params;
  params.dirichlet_alpha = 0.3f;
  EXPECT_FLOAT_EQ(root_noise_alpha(params, 20), 0.3f);
  params.dirichlet_total_alpha = 10;
  EXPECT_FLOAT_EQ(root_noise_alpha(params, 20), 0.5f);
  EXPECT_FLOAT_EQ(root_noise_alpha(params, 5), 2.0f);

  // The search uses it: a large total (alpha 10 per move over chess's 20) gives nearly even
  // noise, a tiny fixed alpha puts most of it on one move.
  Position pos(find_variant("chess"));
  UniformEvaluator uniform;
  // The mean over 20 seeds of the largest noisy prior.
  const auto largest_prior = [&](float alpha, float total) {
    SearchParams p;
    p.root_noise = true;
    p.dirichlet_epsilon = 1.0f;  // noise only
    p.dirichlet_alpha = alpha;
    p.dirichlet_total_alpha = total;
    float sum = 0;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      p.seed = seed;
      Search search(pos, uniform, p);
      float largest = 0;
      for (const ChildStats& c : search.run({.playouts = 2}).children)
        largest = std::max(largest, c.prior);
      sum += largest;
    }
    return sum / 20;
  };
  EXPECT_LT(largest_prior(0.01f, 200), 0.12f);
  EXPECT_GT(largest_prior(0.01f, 0), 0.5f);
}

// A search of the chess start that strongly prefers e2e4, with noise and forced playouts k.
SearchResult forced_search(float k, int playouts, SearchParams* used = nullptr) {
  Position pos(find_variant("chess"));
  static ScriptedEvaluator stub;
  stub.logits["e2e4"] = 4.0f;
  // Every other first move looks bad for White, so PUCT alone visits them little.
  stub.value_of = [](const Position& p) {
    std::array<float, kMaxSeats> v{};
    const bool e4 = p.fen().find("/4P3/") != std::string::npos;
    v[0] = e4 ? 0.5f : 0.1f;
    v[1] = 1 - v[0];
    return v;
  };
  SearchParams params;
  params.root_noise = true;
  params.forced_playouts = k;
  params.seed = 11;
  if (used) *used = params;
  Search search(pos, stub, params);
  return search.run({.playouts = playouts});
}

TEST(Search, ForcedPlayoutsGiveEveryRootChildItsShare) {
  SearchParams params;
  const SearchResult forced = forced_search(2, 800, &params);
  const float n = static_cast<float>(forced.root_visits);
  for (const ChildStats& c : forced.children)
    EXPECT_GE(c.visits + 1, static_cast<int>(forced_playouts(params, c.prior, n)) - 1)
        << "prior " << c.prior << " visits " << c.visits;
  // Without them the least likely moves get fewer visits.
  const SearchResult plain = forced_search(0, 800);
  int forced_least = 1 << 30, plain_least = 1 << 30;
  for (const ChildStats& c : forced.children) forced_least = std::min(forced_least, c.visits);
  for (const ChildStats& c : plain.children) plain_least = std::min(plain_least, c.visits);
  EXPECT_GT(forced_least, plain_least);
}

TEST(Search, PrunedPolicyTargetsNeverRaiseAChildAndDropForcedVisits) {
  SearchParams params;
  const SearchResult r = forced_search(2, 800, &params);
  const std::vector<int> target = policy_target_visits(r, params);
  ASSERT_EQ(target.size(), r.children.size());
  int raw = 0, kept = 0;
  for (size_t i = 0; i < target.size(); ++i) {
    EXPECT_LE(target[i], r.children[i].visits);
    EXPECT_NE(target[i], 1) << "a child left with one visit is dropped";
    raw += r.children[i].visits;
    kept += target[i];
  }
  EXPECT_EQ(target[0], r.children[0].visits) << "the most visited child keeps its visits";
  EXPECT_LT(kept, raw) << "forced visits come back out";
  EXPECT_GT(kept, 0);
  // Without forced playouts the target is the visits.
  params.forced_playouts = 0;
  const std::vector<int> same = policy_target_visits(r, params);
  for (size_t i = 0; i < same.size(); ++i) EXPECT_EQ(same[i], r.children[i].visits);
}

TEST(Search, ProvenLostChildrenAreKeptOutOfPolicyTargets) {
  SearchResult r;
  r.root_visits = 31;
  r.children = {{Move{}, 20, 0.6f, 0.5f, false},
                {Move{}, 6, 0.0f, 0.3f, true},   // proven lost for the mover
                {Move{}, 4, 1.0f, 0.2f, true}};  // proven won: kept
  const std::vector<int> target = policy_target_visits(r, SearchParams{});
  EXPECT_EQ(target, (std::vector<int>{20, 0, 4}));
  // Every move lost: the visits stay (the sample still says which loss the search preferred).
  for (ChildStats& c : r.children) c.proven = true, c.value = 0;
  EXPECT_EQ(policy_target_visits(r, SearchParams{}), (std::vector<int>{20, 6, 4}));
}

TEST(Search, TheLengthCapIsADrawInTheSearchAsInTheGame) {
  Position pos(find_variant("chess"));
  for (const char* move : {"e2e4", "e7e5", "g1f3"}) {
    LegalMoves legal(pos);
    for (int k = 0; k < legal.size(); ++k)
      if (pos.move_text(legal[k]) == move) pos.play(legal[k]);
  }
  ASSERT_EQ(pos.plies_played(), 3);
  ScriptedEvaluator stub;  // every position good for White
  stub.value_of = [](const Position&) {
    std::array<float, kMaxSeats> v{};
    v[0] = 0.9f;
    v[1] = 0.1f;
    return v;
  };
  SearchParams capped;
  capped.max_plies = 4;  // Black's reply ends the game: a draw whatever it is
  Search search(pos, stub, capped);
  const SearchResult r = search.run({.playouts = 200});
  EXPECT_TRUE(r.proven);
  EXPECT_NEAR(r.value[0], 0.5f, 1e-6);
  // Without the cap the search believes the evaluator.
  Search free(pos, stub);
  EXPECT_GT(free.run({.playouts = 200}).value[0], 0.8f);
}

TEST(Search, TemperatureSamplesInProportionToVisits) {
  Position pos(find_variant("chess"));
  ScriptedEvaluator stub;
  stub.logits["e2e4"] = 1.5f;
  Search search(pos, stub);
  SearchResult r = search.run({.playouts = 3000});
  std::mt19937_64 rng(3);
  int e4 = 0;
  const int kDraws = 4000;
  for (int i = 0; i < kDraws; ++i) e4 += pos.move_text(search.choose_move(1.0f, rng)) == "e2e4";
  double expected = static_cast<double>(visits_of(r, pos, "e2e4")) / r.root_visits;
  EXPECT_NEAR(static_cast<double>(e4) / kDraws, expected, 0.03);
  EXPECT_EQ(pos.move_text(search.choose_move(0.0f, rng)), "e2e4");
}

TEST(BatchedSearch, ManyGamesInOneBatchMatchSeparateSearches) {
  VariantPtr v = find_variant("chess");
  MaterialEvaluator material(*v);
  std::vector<Position> starts = {
      Position::from_fen(v, "rnb1kbnr/pppp1ppp/8/4q3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1"),
      Position::from_fen(v, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"), Position(v)};
  std::vector<std::unique_ptr<Search>> searches;
  std::vector<Search*> pointers;
  for (const Position& p : starts) {
    searches.push_back(std::make_unique<Search>(p, material));
    pointers.push_back(searches.back().get());
  }
  BatchedSearchStats stats = run_batched(pointers, {.playouts = 800}, material, 8);
  EXPECT_GT(static_cast<double>(stats.evaluated) / stats.rounds, 8.0) << "batches span games";
  EXPECT_EQ(starts[0].move_text(searches[0]->result().best), "f3e5");
  EXPECT_EQ(starts[1].move_text(searches[1]->result().best), "a1a8");
  EXPECT_GE(searches[2]->result().playouts, 800);
}

}  // namespace
}  // namespace fairyzero

namespace fairyzero {
namespace {

// MultiPV: the lines are distinct root moves, the first the move the search plays, in its
// order of preference (visits, for unproven moves).
TEST(SearchLines, AreTheBestRootMovesInTheOrderTheSearchPrefersThem) {
  Position pos(find_variant("chess"));
  MaterialEvaluator material(pos.variant());
  Search search(pos, material);
  SearchResult r = search.run({.playouts = 2000, .lines = 4});
  ASSERT_EQ(r.lines.size(), 4u);
  EXPECT_EQ(r.lines[0].move, r.best);
  EXPECT_EQ(r.lines[0].pv, r.principal_variation);
  for (size_t i = 0; i < r.lines.size(); ++i) {
    EXPECT_EQ(r.lines[i].pv.front(), r.lines[i].move);
    EXPECT_NEAR(r.lines[i].wdl[0] + r.lines[i].wdl[1] + r.lines[i].wdl[2], 1.0f, 1e-5);
    for (size_t j = 0; j < i; ++j) EXPECT_NE(r.lines[i].move, r.lines[j].move);
    if (i > 0) {
      EXPECT_LE(r.lines[i].visits, r.lines[i - 1].visits);
    }
  }
}

// searchmoves: only the given root moves are searched; a proof under the restriction (here
// none: the mate is left out) does not outlive the search, and the next finds the mate.
TEST(SearchLines, RootMovesRestrictOneSearchOnly) {
  VariantPtr chess = find_variant("chess");
  Position pos = Position::from_fen(chess, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
  UniformEvaluator uniform;
  Search search(pos, uniform);
  const Move quiet = pos.parse_move("h2h3"), rook = pos.parse_move("a1b1");
  SearchResult r = search.run({.playouts = 3000, .root_moves = {quiet, rook}, .lines = 5});
  EXPECT_TRUE(r.best == quiet || r.best == rook) << pos.move_text(r.best);
  EXPECT_FALSE(r.proven) << "a1a8 mates, but it was not to be searched";
  ASSERT_EQ(r.lines.size(), 2u) << "only the allowed moves have lines";
  for (const ChildStats& c : r.children)
    if (c.move != quiet && c.move != rook) {
      EXPECT_EQ(c.visits, 0) << pos.move_text(c.move);
    }
  SearchResult next = search.run({.playouts = 3000});
  EXPECT_EQ(pos.move_text(next.best), "a1a8");
  EXPECT_TRUE(next.proven);
  EXPECT_EQ(next.root_visits, next.playouts) << "the restricted tree was dropped";
}

}  // namespace
}  // namespace fairyzero

namespace fairyzero {
namespace {

// lc0's smart pruning: with a move the prior makes certain, the search stops once no other
// root move could catch up in the playouts left, and plays it.
TEST(SearchLimits, StopWhenDecidedEndsOnceTheBestMoveCannotChange) {
  Position pos(find_variant("chess"));
  ScriptedEvaluator scripted;
  scripted.logits["e2e4"] = 8.0f;
  Search search(pos, scripted);
  SearchResult r = search.run({.playouts = 20000, .stop_when_decided = true});
  EXPECT_EQ(pos.move_text(r.best), "e2e4");
  EXPECT_LT(r.playouts, 20000);
  ASSERT_GE(r.children.size(), 2u);
  EXPECT_GT(r.children[0].visits - r.children[1].visits, 20000 - r.playouts)
      << "it stopped only when the lead could not be caught";
  Search full(pos, scripted);
  EXPECT_EQ(full.run({.playouts = 20000}).playouts, 20000) << "without it, every playout";
}

}  // namespace
}  // namespace fairyzero
