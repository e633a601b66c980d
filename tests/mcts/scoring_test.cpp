// Terminal values follow the variant's scoring (issue 9): a forced game end in Irwell backs up
// the team result under team scoring and the sources' individual ranking under individual
// scoring, seat by seat.
#include <gtest/gtest.h>

#include "core/position.h"
#include "core/variant_loader.h"
#include "mcts/basic_evaluators.h"
#include "mcts/search.h"

namespace fairyzero {
namespace {

int seat_of(const Variant& v, const char* token) {
  for (int s = 0; s < v.seat_count(); ++s)
    if (v.seats[s].fen == token) return s;
  return -1;
}

// White 0-4 mates Black's crowned King on h9 at once (h2h7, among others) with all four seats
// playing: White wins as a team; individually "the player whose move ends the game ranks first",
// the partner second, and the mated pair "joint third" (1/6 each).
SearchResult search_mate(const std::vector<std::string>& options) {
  VariantPtr v = find_variant("irwell", options);
  Position pos = Position::from_fen(v, "7k/X7/8/8/6M1/8/8/7M/8/x2X4 wl - - 0 1");
  UniformEvaluator uniform;
  Search search(pos, uniform);
  SearchResult r = search.run({.playouts = 3000});
  EXPECT_TRUE(r.proven);
  pos.play(r.best);
  EXPECT_EQ(pos.outcome().termination, Termination::kCheckmate) << pos.fen();
  return r;
}

TEST(TerminalScoring, TeamScoringBacksUpTheTeamResult) {
  VariantPtr v = find_variant("irwell");
  SearchResult r = search_mate({});
  EXPECT_FLOAT_EQ(r.value[seat_of(*v, "wl")], 1.0f);
  EXPECT_FLOAT_EQ(r.value[seat_of(*v, "wh")], 1.0f);
  EXPECT_FLOAT_EQ(r.value[seat_of(*v, "bh")], 0.0f);
  EXPECT_FLOAT_EQ(r.value[seat_of(*v, "bl")], 0.0f);
}

TEST(TerminalScoring, IndividualScoringBacksUpTheRanking) {
  VariantPtr v = find_variant("irwell");
  SearchResult r = search_mate({"rules.scoring=individual"});
  EXPECT_FLOAT_EQ(r.value[seat_of(*v, "wl")], 1.0f);
  EXPECT_FLOAT_EQ(r.value[seat_of(*v, "wh")], 2.0f / 3.0f);
  EXPECT_FLOAT_EQ(r.value[seat_of(*v, "bh")], 1.0f / 6.0f);
  EXPECT_FLOAT_EQ(r.value[seat_of(*v, "bl")], 1.0f / 6.0f);
}

}  // namespace
}  // namespace fairyzero
