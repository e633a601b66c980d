// Tests for the Betza parser: exact atoms (vectors, order, modes, limits) for the pieces variants
// actually use, and error messages that point at the offending character.
#include "core/betza.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fairyzero {
namespace {

MoveAtom leap(int dx, int dy, MoveMode mode = kMoveOrCapture) {
  MoveAtom a;
  a.steps = {{dx, dy}};
  a.repeat = false;
  a.min_steps = 1;
  a.max_steps = 1;
  a.mode = mode;
  return a;
}

MoveAtom rider(int dx, int dy, int limit = 0, MoveMode mode = kMoveOrCapture) {
  MoveAtom a;
  a.steps = {{dx, dy}};
  a.repeat = true;
  a.min_steps = 1;
  a.max_steps = limit;
  a.mode = mode;
  return a;
}

// Counter-clockwise from forward, as documented in betza.h.
const std::vector<Offset> kWDirs = {{0, 1}, {-1, 0}, {0, -1}, {1, 0}};
const std::vector<Offset> kFDirs = {{-1, 1}, {-1, -1}, {1, -1}, {1, 1}};
const std::vector<Offset> kNDirs = {{-1, 2}, {-2, 1}, {-2, -1}, {-1, -2},
                                    {1, -2}, {2, -1}, {2, 1},   {1, 2}};

std::vector<MoveAtom> leaps(const std::vector<Offset>& dirs) {
  std::vector<MoveAtom> out;
  for (Offset d : dirs) out.push_back(leap(d.dx, d.dy));
  return out;
}

std::vector<MoveAtom> riders(const std::vector<Offset>& dirs, int limit = 0) {
  std::vector<MoveAtom> out;
  for (Offset d : dirs) out.push_back(rider(d.dx, d.dy, limit));
  return out;
}

std::vector<MoveAtom> concat(std::vector<MoveAtom> a, const std::vector<MoveAtom>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::string error_of(const std::string& text) {
  try {
    parse_betza(text);
  } catch (const BetzaError& e) {
    return e.what();
  }
  return "no error";
}

TEST(BetzaTest, BasicLeapers) {
  EXPECT_EQ(parse_betza("W"), leaps(kWDirs));
  EXPECT_EQ(parse_betza("F"), leaps(kFDirs));
  EXPECT_EQ(parse_betza("N"), leaps(kNDirs));
  EXPECT_EQ(parse_betza("D").size(), 4u);
  EXPECT_EQ(parse_betza("A").size(), 4u);
  EXPECT_EQ(parse_betza("C").size(), 8u);
  EXPECT_EQ(parse_betza("Z").size(), 8u);
  EXPECT_EQ(parse_betza("D")[0], leap(0, 2));
  EXPECT_EQ(parse_betza("G")[0], leap(-3, 3));
}

TEST(BetzaTest, KingIsWazirThenFerz) {
  EXPECT_EQ(parse_betza("K"), concat(leaps(kWDirs), leaps(kFDirs)));
}

TEST(BetzaTest, Sliders) {
  EXPECT_EQ(parse_betza("R"), riders(kWDirs));
  EXPECT_EQ(parse_betza("WW"), riders(kWDirs));
  EXPECT_EQ(parse_betza("B"), riders(kFDirs));
  EXPECT_EQ(parse_betza("FF"), riders(kFDirs));
  EXPECT_EQ(parse_betza("Q"), concat(riders(kWDirs), riders(kFDirs)));
  EXPECT_EQ(parse_betza("Q"), parse_betza("RB"));
}

TEST(BetzaTest, Compounds) {
  EXPECT_EQ(parse_betza("RN"), concat(riders(kWDirs), leaps(kNDirs)));
  EXPECT_EQ(parse_betza("KN").size(), 16u);
  EXPECT_EQ(parse_betza("QN").size(), 16u);
  EXPECT_EQ(parse_betza("BWN"), concat(concat(riders(kFDirs), leaps(kWDirs)), leaps(kNDirs)));
  EXPECT_EQ(parse_betza("RFN").size(), 16u);
  std::vector<MoveAtom> fh = parse_betza("FH");
  ASSERT_EQ(fh.size(), 8u);
  EXPECT_EQ(fh[4], leap(0, 3));
}

TEST(BetzaTest, Pawn) {
  EXPECT_EQ(parse_betza("fmWfcF"),
            (std::vector<MoveAtom>{leap(0, 1, kMoveOnly), leap(-1, 1, kCaptureOnly),
                                   leap(1, 1, kCaptureOnly)}));
}

TEST(BetzaTest, PawnDoubleStepIsLameInitialMoveOnly) {
  MoveAtom expected;
  expected.steps = {{0, 1}, {0, 1}};
  expected.repeat = false;
  expected.min_steps = 2;
  expected.max_steps = 2;
  expected.mode = kMoveOnly;
  expected.initial_only = true;
  EXPECT_EQ(parse_betza("ifmnD"), std::vector<MoveAtom>{expected});
  // Modifier order does not matter.
  EXPECT_EQ(parse_betza("nmfiD"), std::vector<MoveAtom>{expected});
}

TEST(BetzaTest, LameDiagonalAndUnitAtoms) {
  std::vector<MoveAtom> na = parse_betza("nA");
  ASSERT_EQ(na.size(), 4u);
  EXPECT_EQ(na[0].steps, (std::vector<Offset>{{-1, 1}, {-1, 1}}));
  EXPECT_EQ(na[0].min_steps, 2);
  EXPECT_EQ(na[0].max_steps, 2);
  EXPECT_EQ(parse_betza("nW"), parse_betza("W"));
}

TEST(BetzaTest, ForwardRookAndBishop) {
  EXPECT_EQ(parse_betza("fRfB"), (std::vector<MoveAtom>{rider(0, 1), rider(-1, 1), rider(1, 1)}));
}

TEST(BetzaTest, DoubledDirectionsOnDiagonalMeanPlainDirection) {
  EXPECT_EQ(parse_betza("ffA"), (std::vector<MoveAtom>{leap(-2, 2), leap(2, 2)}));
  EXPECT_EQ(parse_betza("ffA"), parse_betza("fA"));
}

TEST(BetzaTest, ObliqueNarrowAndWide) {
  EXPECT_EQ(parse_betza("ffN"), (std::vector<MoveAtom>{leap(-1, 2), leap(1, 2)}));
  EXPECT_EQ(parse_betza("fsN"), (std::vector<MoveAtom>{leap(-2, 1), leap(2, 1)}));
  EXPECT_EQ(parse_betza("bbN"), (std::vector<MoveAtom>{leap(-1, -2), leap(1, -2)}));
  EXPECT_EQ(parse_betza("bsN"), (std::vector<MoveAtom>{leap(-2, -1), leap(2, -1)}));
  EXPECT_EQ(parse_betza("fN"), leaps({{-1, 2}, {-2, 1}, {2, 1}, {1, 2}}));
  EXPECT_EQ(parse_betza("frN"), (std::vector<MoveAtom>{leap(2, 1), leap(1, 2)}));
  EXPECT_EQ(parse_betza("vN"), leaps({{-1, 2}, {-1, -2}, {1, -2}, {1, 2}}));
  EXPECT_EQ(parse_betza("sN"), leaps({{-2, 1}, {-2, -1}, {2, -1}, {2, 1}}));
}

TEST(BetzaTest, QuadrantAndSideFilters) {
  EXPECT_EQ(parse_betza("flF"), std::vector<MoveAtom>{leap(-1, 1)});
  EXPECT_EQ(parse_betza("flfrF"), (std::vector<MoveAtom>{leap(-1, 1), leap(1, 1)}));
  EXPECT_EQ(parse_betza("vR"), (std::vector<MoveAtom>{rider(0, 1), rider(0, -1)}));
  EXPECT_EQ(parse_betza("sW"), (std::vector<MoveAtom>{leap(-1, 0), leap(1, 0)}));
  EXPECT_EQ(parse_betza("lW"), std::vector<MoveAtom>{leap(-1, 0)});
  EXPECT_EQ(parse_betza("rbW"), (std::vector<MoveAtom>{leap(0, -1), leap(1, 0)}));
  // "fb" is not a pair token, so it is forward plus backward.
  EXPECT_EQ(parse_betza("fbW"), parse_betza("vW"));
  // Filters on a shorthand apply to every expanded vector.
  EXPECT_EQ(parse_betza("fK"), (std::vector<MoveAtom>{leap(0, 1), leap(-1, 1), leap(1, 1)}));
}

TEST(BetzaTest, Ranges) {
  EXPECT_EQ(parse_betza("R4"), riders(kWDirs, 4));
  EXPECT_EQ(parse_betza("W4"), riders(kWDirs, 4));
  EXPECT_EQ(parse_betza("N2"), riders(kNDirs, 2));
  EXPECT_EQ(parse_betza("WW12"), riders(kWDirs, 12));
}

TEST(BetzaTest, Nightrider) { EXPECT_EQ(parse_betza("NN"), riders(kNDirs)); }

TEST(BetzaTest, MoveWazirCaptureFerz) {
  std::vector<MoveAtom> expected;
  for (Offset d : kWDirs) expected.push_back(leap(d.dx, d.dy, kMoveOnly));
  for (Offset d : kFDirs) expected.push_back(leap(d.dx, d.dy, kCaptureOnly));
  EXPECT_EQ(parse_betza("mWcF"), expected);
}

TEST(BetzaTest, ModesCombineAndDuplicatesMerge) {
  EXPECT_EQ(parse_betza("mcW"), leaps(kWDirs));
  EXPECT_EQ(parse_betza("mWcW"), leaps(kWDirs));
  EXPECT_EQ(parse_betza("WW"), parse_betza("RWW"));
  EXPECT_EQ(parse_betza("KW"), parse_betza("K"));
}

TEST(BetzaTest, Errors) {
  EXPECT_EQ(error_of(""), "Betza notation \"\": empty notation at position 1");
  EXPECT_EQ(error_of("x"), "Betza notation \"x\": unknown letter 'x' at position 1");
  EXPECT_EQ(error_of("fmWx"), "Betza notation \"fmWx\": unknown letter 'x' at position 4");
  EXPECT_EQ(error_of("fm"),
            "Betza notation \"fm\": modifiers with no atom after them at position 1");
  EXPECT_EQ(error_of("Wfm"),
            "Betza notation \"Wfm\": modifiers with no atom after them at position 2");
  EXPECT_EQ(error_of("R0"), "Betza notation \"R0\": range 0 at position 2");
  EXPECT_EQ(error_of("nN"),
            "Betza notation \"nN\": lame 'n' on oblique atom 'N' is not supported at position 1");
  EXPECT_EQ(error_of("4"), "Betza notation \"4\": range with no atom before it at position 1");
  EXPECT_EQ(error_of("W W"), "Betza notation \"W W\": unexpected character ' ' at position 2");
  EXPECT_EQ(error_of("flW"),
            "Betza notation \"flW\": directions select no move of 'W' at position 3");
  EXPECT_EQ(error_of("nDD"), "Betza notation \"nDD\": lame riders are not supported at position 1");
  EXPECT_THROW(parse_betza("R1000"), BetzaError);
}

TEST(BetzaTest, ErrorCarriesNotationAndPosition) {
  try {
    parse_betza("fmWx");
    FAIL() << "expected BetzaError";
  } catch (const BetzaError& e) {
    EXPECT_EQ(e.notation(), "fmWx");
    EXPECT_EQ(e.position(), 4u);
  }
}

}  // namespace
}  // namespace fairyzero
