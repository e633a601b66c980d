// The search finds forced mates in chess and Very Heavy Chess with the uniform and the material
// evaluators, single- and multithreaded. Each position is first proven a mate by brute force.
#include <gtest/gtest.h>

#include <set>

#include "core/variant_loader.h"
#include "mcts/basic_evaluators.h"
#include "mcts/search.h"

namespace fairyzero {
namespace {

bool forces_mate(Position& pos, int moves);

// Does playing `m` force checkmate within `moves` moves of the side playing it?
bool move_forces_mate(Position& pos, Move m, int moves) {
  pos.play(m);
  LegalMoves replies(pos);
  bool mates = replies.empty() && pos.in_check();
  if (!mates && !replies.empty() && moves > 1) {
    mates = true;
    for (Move r : replies) {
      pos.play(r);
      bool forced = forces_mate(pos, moves - 1);
      pos.undo();
      if (!forced) {
        mates = false;
        break;
      }
    }
  }
  pos.undo();
  return mates;
}

// Can the side to move force checkmate within `moves` of its own moves?
bool forces_mate(Position& pos, int moves) {
  if (moves == 0) return false;
  for (Move m : LegalMoves(pos))
    if (move_forces_mate(pos, m, moves)) return true;
  return false;
}

// The first moves that force mate in `moves`, and a check that none forces it sooner.
std::set<std::string> mating_moves(Position pos, int moves) {
  std::set<std::string> out;
  EXPECT_FALSE(moves > 1 && forces_mate(pos, moves - 1)) << pos.fen() << " mates sooner";
  for (Move m : LegalMoves(pos))
    if (move_forces_mate(pos, m, moves)) out.insert(pos.move_text(m));
  return out;
}

struct MateCase {
  const char* variant;
  const char* fen;
  int moves;
};

std::string case_name(
    const ::testing::TestParamInfo<std::tuple<MateCase, const char*, int>>& info) {
  const auto& [c, evaluator, threads] = info.param;
  std::string name = std::string(c.variant) + "_mate_in_" + std::to_string(c.moves) + "_" +
                     evaluator + "_" + std::to_string(threads) + "threads_" +
                     std::to_string(info.index);
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

class FindsMate : public ::testing::TestWithParam<std::tuple<MateCase, const char*, int>> {};

TEST_P(FindsMate, BestMoveForcesMate) {
  const auto& [c, evaluator_name, threads] = GetParam();
  VariantPtr v = find_variant(c.variant);
  Position pos = Position::from_fen(v, c.fen);
  std::set<std::string> expected = mating_moves(pos, c.moves);
  ASSERT_FALSE(expected.empty()) << c.fen << " is not a mate in " << c.moves;
  UniformEvaluator uniform;
  MaterialEvaluator material(*v);
  Evaluator& evaluator =
      std::string(evaluator_name) == "uniform" ? static_cast<Evaluator&>(uniform) : material;
  SearchParams params;
  params.threads = threads;
  params.leaves_per_batch = 4;
  Search search(pos, evaluator, params);
  SearchResult result = search.run({.playouts = 20000});
  EXPECT_TRUE(expected.count(pos.move_text(result.best)))
      << c.fen << ": played " << pos.move_text(result.best) << " after " << result.playouts
      << " playouts";
  EXPECT_TRUE(result.proven) << "the mate should be proven, value "
                             << result.value[pos.seat_to_move()];
  EXPECT_FLOAT_EQ(result.value[pos.seat_to_move()], 1.0f);
  // The solver's distance: the mover's own ply ends the game, no sooner than the shortest mate
  // (and a mate in one is exactly one ply).
  const int plies = static_cast<int>(result.moves_left);
  EXPECT_EQ(plies % 2, 1) << plies;
  EXPECT_GE(plies, 2 * c.moves - 1);
  if (c.moves == 1) {
    EXPECT_EQ(plies, 1);
  }
}

const MateCase kMates[] = {
    {"chess", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 1},
    {"chess", "7k/8/5K2/8/8/8/8/6R1 w - - 0 1", 2},
    {"chess", "6k1/8/8/8/8/8/5R2/Q5K1 w - - 0 1", 2},
    {"very-heavy-chess", "k11/12/1K10/12/12/12/12/12/12/11R w - - 0 1", 1},
    {"very-heavy-chess", "11k/12/9K2/12/12/12/12/12/12/10R1 w - - 0 1", 2},
};

INSTANTIATE_TEST_SUITE_P(Mates, FindsMate,
                         ::testing::Combine(::testing::ValuesIn(kMates),
                                            ::testing::Values("uniform", "material"),
                                            ::testing::Values(1, 2, 4)),
                         case_name);

}  // namespace
}  // namespace fairyzero
