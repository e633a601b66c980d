// Random-game fuzz of every variant: invariants of move generation, play/undo, hashing and FEN.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/position.h"
#include "core/variant_loader.h"

namespace fairyzero {
namespace {

constexpr uint32_t kBaseSeed = 7001;

struct FuzzPlan {
  int games;
  int max_plies;
};

// Sized so each variant takes under 6 s on a 2-core machine (Release build): big boards have many
// moves per ply and long games, so they get fewer games; four-seat games with royal men check
// every move on a scratch board, and the legality oracle plays every move once more.
FuzzPlan plan_for(const Variant& v) {
  int cells = v.geometry.cell_count();
  if (v.seat_count() > 2 && v.coronation.piece >= 0) return {60, 400};
  if (cells <= 36) return {400, 400};
  if (cells <= 64) return {300, 400};
  if (cells <= 80) return {200, 400};
  return {30, 300};
}

// FAIRYZERO_FUZZ_SCALE (a positive fraction, default 1) scales the games of every plan: the
// sanitizer passes of scripts/test.sh, several times slower, play a quarter of them.
int scaled_games(int games) {
  const char* text = std::getenv("FAIRYZERO_FUZZ_SCALE");
  const double scale = text ? std::atof(text) : 1.0;
  return scale > 0 ? std::max(1, static_cast<int>(games * scale)) : games;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string out = info.param;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return out;
}

// Plays seeded random games and checks the position's invariants at every ply.
class GameFuzzer {
 public:
  GameFuzzer(VariantPtr v, std::string name) : v_(std::move(v)), name_(std::move(name)) {}

  // Plays one game; returns false after the first failed check so the report stays short.
  bool play_game(uint32_t seed, int max_plies) {
    seed_ = seed;
    std::mt19937 rng(seed);
    Position pos(v_);
    std::vector<std::string> fens;
    std::vector<uint64_t> hashes;
    for (ply_ = 0; ply_ < max_plies; ++ply_) {
      fen_ = pos.fen();
      fens.push_back(fen_);
      hashes.push_back(pos.hash());
      MoveList moves;
      pos.legal_moves(moves);
      if (!check_position(pos, moves)) return false;
      Outcome outcome = pos.outcome(moves);
      if (moves.empty()) {
        EXPECT_TRUE(outcome.over()) << where() << "no legal moves but the game is not over";
        // An ending the position decides (a captured set, a double Coronation, ...) comes first.
        if (!decided_by_position(outcome.termination)) {
          EXPECT_EQ(outcome.termination,
                    pos.in_check() ? Termination::kCheckmate : Termination::kStalemate)
              << where() << "no legal moves: termination " << termination_name(outcome.termination);
        }
      }
      // A decided game has no moves: perft and the search count the game's tree (issue 20).
      if (decided_by_position(outcome.termination)) {
        EXPECT_TRUE(moves.empty()) << where() << moves.size() << " legal moves after "
                                   << termination_name(outcome.termination);
      }
      if (::testing::Test::HasFailure()) return false;
      if (outcome.over()) break;
      pos.play(moves[static_cast<int>(rng() % static_cast<uint32_t>(moves.size()))]);
    }

    // Walk the whole game back: every earlier position must come back exactly.
    fen_ = pos.fen();
    EXPECT_EQ(pos.plies_played(), static_cast<int>(fens.size()) - (ply_ < max_plies ? 1 : 0))
        << where();
    while (pos.plies_played() > 0) {
      pos.undo();
      ply_ = pos.plies_played();
      fen_ = fens[ply_];
      EXPECT_EQ(pos.fen(), fens[ply_]) << where() << "undo while walking back";
      EXPECT_EQ(pos.hash(), hashes[ply_]) << where() << "undo while walking back";
      if (::testing::Test::HasFailure()) return false;
    }
    EXPECT_THROW(pos.undo(), std::logic_error) << where() << "undo at the start position";
    return !::testing::Test::HasFailure();
  }

 private:
  std::string where() const {
    return name_ + ", seed " + std::to_string(seed_) + ", ply " + std::to_string(ply_) +
           "\nFEN: " + fen_ + "\n";
  }

  // A royal piece of `army` attacked by an enemy army, as "e1 by army 1", or "" when none is.
  std::string attacked_royal(const Position& pos, int army) const {
    const Variant& v = *v_;
    for (Cell c = 0; c < v.geometry.cell_count(); ++c) {
      if (!v.geometry.exists(c)) continue;
      PieceCode p = pos.piece_at(c);
      if (p == kEmpty || army_of(p) != army || !v.pieces[type_of(p)].royal) continue;
      for (int enemy = 0; enemy < v.army_count(); ++enemy) {
        if (v.team_of_army[enemy] == v.team_of_army[army]) continue;
        if (pos.is_attacked(c, enemy)) {
          return v.geometry.cell_name(c) + " by army " + std::to_string(enemy);
        }
      }
    }
    return "";
  }

  static bool decided_by_position(Termination t) {
    return t == Termination::kCaptureSet || t == Termination::kCoronation ||
           t == Termination::kDropOut || t == Termination::kRoyalCapture ||
           t == Termination::kLastArmy;
  }

  // Is a castling's King safe on every cell the rule tests, standing there itself (A24)? The
  // King is moved onto each crossed cell by a plain move on the real board, not by a rule.
  bool castling_crossing_safe(Position& pos, Move m) const {
    const Variant& v = *v_;
    const CastlingRule& rule = v.castling[m.castling_rule()];
    const int army = pos.army_to_move();
    auto attacked = [&](Cell c) {
      for (int enemy = 0; enemy < v.army_count(); ++enemy)
        if (v.team_of_army[enemy] != v.team_of_army[army] && pos.is_attacked(c, enemy)) return true;
      return false;
    };
    for (Cell c : rule.must_not_be_attacked) {
      if (c == rule.king_from) {
        if (attacked(c)) return false;
        continue;
      }
      if (pos.piece_at(c) != kEmpty) {
        ADD_FAILURE() << where() << "castling " << pos.move_text(m) << " tests the occupied cell "
                      << v.geometry.cell_name(c) << ": the oracle cannot stand the King there";
        return false;
      }
      pos.play(Move::normal(rule.king_from, c, MoveKind::kNormal));
      const bool hit = attacked(c);
      pos.undo();
      if (hit) return false;
    }
    return true;
  }

  // The legality oracle: every move before the check rule is played on the board and kept only
  // if no royal man of the mover is then attacked; a seat left with none drops out or passes as
  // its variant says. It shares no check, pin or evasion logic with the generator.
  std::vector<Move> oracle_legal_moves(Position& pos) const {
    const Variant& v = *v_;
    const int army = pos.army_to_move();
    MoveList pseudo;
    pos.pseudo_legal_moves(pseudo);
    std::vector<Move> kept;
    for (Move m : pseudo) {
      if (m.kind() == MoveKind::kCastling && !castling_crossing_safe(pos, m)) continue;
      if (v.rules.check) {
        pos.play(m);
        const bool safe = attacked_royal(pos, army).empty();
        pos.undo();
        if (!safe) continue;
      }
      kept.push_back(m);
    }
    bool decided = false;
    {
      MoveList none;
      decided = decided_by_position(pos.outcome(none).termination);
    }
    if (kept.empty() && !decided && v.rules.drop_out) {
      bool royal = false;
      for (Cell c = 0; c < v.geometry.cell_count(); ++c)
        royal =
            royal || (v.geometry.exists(c) && pos.piece_at(c) != kEmpty &&
                      army_of(pos.piece_at(c)) == army && v.pieces[type_of(pos.piece_at(c))].royal);
      if (!royal || !v.rules.check) kept.push_back(Move::drop_out());
    }
    if (kept.empty() && !decided && v.rules.pass_when_no_move) kept.push_back(Move::pass());
    return kept;
  }

  bool check_position(Position& pos, const MoveList& moves) {
    const Variant& v = *v_;
    EXPECT_EQ(pos.hash(), pos.compute_hash()) << where() << "incremental hash is wrong";
    EXPECT_EQ(pos.consistency_problem(), "") << where();

    Position reparsed = Position::from_fen(v_, fen_);
    EXPECT_EQ(reparsed.fen(), fen_) << where() << "FEN does not round-trip";
    EXPECT_EQ(reparsed.hash(), pos.hash()) << where() << "hash differs after FEN round-trip";

    std::vector<Move> sorted(moves.begin(), moves.end());
    std::sort(sorted.begin(), sorted.end());
    auto dup = std::adjacent_find(sorted.begin(), sorted.end());
    EXPECT_TRUE(dup == sorted.end())
        << where() << "move " << pos.move_text(*dup) << " is generated twice";

    std::vector<Move> oracle = oracle_legal_moves(pos);
    std::sort(oracle.begin(), oracle.end());
    for (Move m : oracle)
      EXPECT_TRUE(std::binary_search(sorted.begin(), sorted.end(), m))
          << where() << "legal by the oracle but not generated: " << pos.move_text(m);
    for (Move m : sorted)
      EXPECT_TRUE(std::binary_search(oracle.begin(), oracle.end(), m))
          << where() << "generated but illegal by the oracle: " << pos.move_text(m);

    const int mover = pos.army_to_move();
    if (v.rules.check) {
      EXPECT_EQ(pos.in_check(), !attacked_royal(pos, mover).empty())
          << where() << "in_check() disagrees with is_attacked on the royal pieces";
    }
    if (::testing::Test::HasFailure()) return false;

    const uint64_t hash = pos.hash();
    for (Move m : moves) {
      const std::string text = pos.move_text(m);
      try {
        EXPECT_EQ(pos.parse_move(text), m) << where() << "parse_move('" << text << "')";
      } catch (const MoveError& error) {
        ADD_FAILURE() << where() << "parse_move('" << text << "') threw: " << error.what();
      }
      pos.play(m);
      EXPECT_EQ(pos.hash(), pos.compute_hash())
          << where() << "incremental hash wrong after " << text << ", FEN after: " << pos.fen();
      // A pass or a drop-out is a seat's only move when it has no other: it may leave its King
      // in check (Double Commedia: the next seat may then take it).
      if (v.rules.check && !m.moves_no_man()) {
        std::string attacked = attacked_royal(pos, mover);
        EXPECT_EQ(attacked, "") << where() << "legal move " << text
                                << " leaves a royal piece attacked: " << attacked
                                << ", FEN after: " << pos.fen();
      }
      EXPECT_EQ(pos.consistency_problem(), "") << where() << "after " << text;
      pos.undo();
      EXPECT_EQ(pos.hash(), hash) << where() << "hash not restored by undo of " << text;
      EXPECT_EQ(pos.fen(), fen_) << where() << "FEN not restored by undo of " << text;
      if (::testing::Test::HasFailure()) return false;
    }
    return true;
  }

  VariantPtr v_;
  std::string name_;
  uint32_t seed_ = 0;
  int ply_ = 0;
  std::string fen_;
};

class RandomGameFuzz : public ::testing::TestWithParam<std::string> {};

TEST_P(RandomGameFuzz, InvariantsHoldAtEveryPly) {
  const std::string& name = GetParam();
  VariantPtr v = find_variant(name);
  EXPECT_EQ(Position::from_fen(v, v->start_fen).fen(), Position(v).fen()) << name;
  const FuzzPlan plan = plan_for(*v);
  GameFuzzer fuzzer(v, name);
  const int games = scaled_games(plan.games);
  for (int game = 0; game < games; ++game) {
    if (!fuzzer.play_game(kBaseSeed + static_cast<uint32_t>(game), plan.max_plies)) break;
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, RandomGameFuzz, ::testing::ValuesIn(list_variants()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RandomGameFuzz);

}  // namespace
}  // namespace fairyzero
