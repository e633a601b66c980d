// Variant files and FENs that cannot be used: errors must name the file, line and field.
#include "core/variant_loader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/position.h"

namespace fairyzero {
namespace {

constexpr const char* kSource = "broken.toml";

std::string chess_text() {
  std::ifstream in("configs/variants/chess.toml");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The chess file with the first occurrence of `from` replaced by `to`.
std::string chess_with(const std::string& from, const std::string& to) {
  std::string text = chess_text();
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// The 1-based line of the first occurrence of `needle`.
int line_of(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
}

std::string load_error(const std::string& text) {
  try {
    load_variant_text(text, kSource);
  } catch (const VariantError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no VariantError for:\n" << text;
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The message names the source and line ("broken.toml:12:") and the field.
void expect_names(const std::string& message, int line, const std::string& field) {
  EXPECT_TRUE(contains(message, std::string(kSource) + ":" + std::to_string(line) + ":"))
      << "line " << line << " not named: " << message;
  EXPECT_TRUE(contains(message, field)) << "field " << field << " not named: " << message;
}

TEST(VariantLoader, ChessTextLoads) {
  VariantPtr v = load_variant_text(chess_text(), "chess-copy.toml");
  EXPECT_EQ(v->name, "chess");
  EXPECT_EQ(v->source_file, "chess-copy.toml");
  EXPECT_EQ(v->piece_count(), 6);
  EXPECT_EQ(v->castling.size(), 4u);
  EXPECT_EQ(Position(v).fen(), v->start_fen);
}

TEST(VariantLoader, TomlSyntaxError) {
  std::string text = chess_with("files = 8", "files = = 8");
  std::string message = load_error(text);
  EXPECT_TRUE(contains(
      message, std::string(kSource) + ":" + std::to_string(line_of(text, "files = = 8")) + ":"))
      << message;
}

TEST(VariantLoader, UnknownKey) {
  std::string text = chess_with("files = 8", "filez = 8");
  expect_names(load_error(text), line_of(text, "filez"), "board.filez");
  text = chess_with("royal = true", "royal = true\nroyalty = true");
  expect_names(load_error(text), line_of(text, "royalty"), "pieces.king.royalty");
  text = chess_with("[setup]", "[setpu]");
  expect_names(load_error(text), line_of(text, "[setpu]"), "setpu");
}

TEST(VariantLoader, WrongType) {
  std::string text = chess_with("files = 8", "files = \"eight\"");
  std::string message = load_error(text);
  expect_names(message, line_of(text, "files = \"eight\""), "board.files");
  EXPECT_TRUE(contains(message, "whole number")) << message;
  text = chess_with("royal = true", "royal = \"yes\"");
  expect_names(load_error(text), line_of(text, "royal = \"yes\""), "pieces.king.royal");
}

TEST(VariantLoader, BoardTooLarge) {
  std::string text = chess_with("files = 8", "files = 17");
  std::string message = load_error(text);
  expect_names(message, line_of(text, "files = 17"), "board.files");
  EXPECT_TRUE(contains(message, "16")) << message;
  text = chess_with("ranks = 8", "ranks = 0");
  expect_names(load_error(text), line_of(text, "ranks = 0"), "board.ranks");
}

TEST(VariantLoader, MissingSetup) {
  std::string text = chess_text();
  text = text.substr(0, text.find("[setup]"));
  std::string message = load_error(text);
  EXPECT_TRUE(contains(message, kSource)) << message;
  EXPECT_TRUE(contains(message, "setup")) << message;
  EXPECT_TRUE(contains(message, "missing")) << message;
}

TEST(VariantLoader, BadBetza) {
  std::string text = chess_with("betza = \"N\"", "betza = \"N?\"");
  std::string message = load_error(text);
  expect_names(message, line_of(text, "betza = \"N?\""), "pieces.knight.betza");
  EXPECT_TRUE(contains(message, "N?")) << message;
  text = chess_with("betza = \"N\"", "betza = \"\"");
  expect_names(load_error(text), line_of(text, "betza = \"\""), "pieces.knight.betza");
}

TEST(VariantLoader, TwoPiecesShareALetter) {
  std::string text = chess_with("letter = \"K\"", "letter = \"R\"");
  std::string message = load_error(text);
  EXPECT_TRUE(contains(message, kSource)) << message;
  EXPECT_TRUE(contains(message, "rook")) << message;
  EXPECT_TRUE(contains(message, "king")) << message;
  // Either letter's line will do, as will the field of either letter.
  int rook_line = line_of(text, "letter = \"R\"");
  int king_line = line_of(text.substr(text.find("[pieces.king]")), "letter") +
                  line_of(text, "[pieces.king]") - 1;
  EXPECT_TRUE(contains(message, std::string(kSource) + ":" + std::to_string(rook_line) + ":") ||
              contains(message, std::string(kSource) + ":" + std::to_string(king_line) + ":"))
      << "no line named: " << message;
  EXPECT_TRUE(contains(message, "pieces.rook.letter") || contains(message, "pieces.king.letter"))
      << "no field named: " << message;
}

TEST(VariantLoader, PromotionToUnknownLetter) {
  std::string text = chess_with("promotion = [\"Q\", \"R\", \"B\", \"N\"]",
                                "promotion = [\"Q\", \"R\", \"B\", \"X\"]");
  std::string message = load_error(text);
  expect_names(message, line_of(text, "promotion = "), "pieces.pawn.promotion");
  EXPECT_TRUE(contains(message, "'X'")) << message;
}

TEST(VariantLoader, PromotionWithoutZone) {
  std::string text = chess_with("promotion_zone = { white = \"a8-h8\", black = \"a1-h1\" }\n", "");
  expect_names(load_error(text), line_of(text, "[pieces.pawn]"), "pieces.pawn.promotion_zone");
  text = chess_with("white = \"a8-h8\"", "white = \"a8-i8\"");
  expect_names(load_error(text), line_of(text, "promotion_zone"), "pieces.pawn.promotion_zone");
}

TEST(VariantLoader, CastlingCellNotOnTheBoard) {
  std::string text = chess_with("king = [\"e1\", \"g1\"]", "king = [\"e1\", \"i1\"]");
  expect_names(load_error(text), line_of(text, "\"i1\""), "castling.king");
  text = chess_with("rook = [\"h1\", \"f1\"]", "rook = [\"h9\", \"f1\"]");
  expect_names(load_error(text), line_of(text, "\"h9\""), "castling.rook");
  text = chess_with("army = \"white\"", "army = \"red\"");
  expect_names(load_error(text), line_of(text, "\"red\""), "castling.army");
}

TEST(VariantLoader, StartFenWrongRankCountOrUnknownLetter) {
  std::string text = chess_with("/8/8/8/8/", "/8/8/8/");
  std::string message = load_error(text);
  expect_names(message, line_of(text, "fen = \"rnbq"), "setup.fen");
  EXPECT_TRUE(contains(message, "ranks")) << message;
  text = chess_with("RNBQKBNR w", "RNBQKBNX w");
  message = load_error(text);
  expect_names(message, line_of(text, "fen = \"rnbq"), "setup.fen");
  EXPECT_TRUE(contains(message, "'X'")) << message;
}

TEST(VariantLoader, MissingCellInTheStartFen) {
  // A piece stands on the missing e2.
  std::string text = chess_with("ranks = 8\n", "ranks = 8\nmissing = [\"e2\"]\n");
  std::string message = load_error(text);
  expect_names(message, line_of(text, "fen = \"rnbq"), "setup.fen");
  EXPECT_TRUE(contains(message, "e2")) << message;
  // An empty run covers the missing e4.
  text = chess_with("ranks = 8\n", "ranks = 8\nmissing = [\"e4\"]\n");
  message = load_error(text);
  expect_names(message, line_of(text, "fen = \"rnbq"), "setup.fen");
  EXPECT_TRUE(contains(message, "e4")) << message;
  // A castling rook on a missing cell.
  text = chess_with("ranks = 8\n", "ranks = 8\nmissing = [\"f1\"]\n");
  expect_names(load_error(text), line_of(text, "rook = [\"h1\", \"f1\"]"), "castling.rook");
}

TEST(VariantLoader, EveryShippedVariantLoads) {
  std::vector<std::string> names = list_variants();
  EXPECT_NE(std::find(names.begin(), names.end(), "chess"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "very-heavy-chess"), names.end());
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (const std::string& name : names) {
    VariantPtr v;
    ASSERT_NO_THROW(v = find_variant(name)) << name;
    EXPECT_EQ(v->name, name);
    Position start(v);
    EXPECT_EQ(start.fen(), v->start_fen) << name;
    MoveList moves;
    start.legal_moves(moves);
    EXPECT_FALSE(moves.empty()) << name;
  }
}

TEST(VariantLoader, UnknownVariantNamesTheName) {
  try {
    find_variant("no-such-variant");
    ADD_FAILURE() << "no VariantError";
  } catch (const VariantError& e) {
    EXPECT_TRUE(contains(e.what(), "no-such-variant")) << e.what();
  }
  try {
    find_variant("no/such/file.toml");
    ADD_FAILURE() << "no VariantError";
  } catch (const VariantError& e) {
    EXPECT_TRUE(contains(e.what(), "no/such/file.toml")) << e.what();
  }
}

// FenError for chess FENs, each message naming what is wrong.
class ChessFenError : public ::testing::Test {
 protected:
  std::string error_of(const std::string& fen) {
    try {
      Position::from_fen(find_variant("chess"), fen);
    } catch (const FenError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no FenError for " << fen;
    return "";
  }
  void expect_error(const std::string& fen, const std::string& part) {
    std::string message = error_of(fen);
    EXPECT_TRUE(contains(message, part)) << fen << ": " << message;
  }
};

TEST_F(ChessFenError, WrongRankCount) {
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "ranks");
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "ranks");
  expect_error("", "empty");
}

TEST_F(ChessFenError, WrongFileCount) {
  expect_error("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7");
  expect_error("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6");
  expect_error("rnbqkbnrp/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 8");
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "rank 1");
}

TEST_F(ChessFenError, UnknownLetter) {
  expect_error("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'x'");
}

TEST_F(ChessFenError, BadSideToMove) {
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move 'x'");
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "side to move 'W'");
}

TEST_F(ChessFenError, BadCastlingLetter) {
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkZ - 0 1", "castling right 'Z'");
}

TEST_F(ChessFenError, CastlingRightWithoutRookOrKing) {
  expect_error("rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "castling right 'k'");
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w KQkq - 0 1", "castling right 'Q'");
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", "castling right 'K'");
  // A black rook in white's corner does not give white the right.
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNr w KQkq - 0 1", "castling right 'K'");
}

TEST_F(ChessFenError, BadEnPassantCell) {
  expect_error("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq z9 0 1", "'z9'");
  expect_error("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1", "'e9'");
  expect_error("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e 0 1", "'e'");
}

TEST_F(ChessFenError, NonNumericClocks) {
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "clocks");
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 y", "clocks");
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "negative");
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "six fields");
}

// Digits followed by other characters are not numbers either.
TEST_F(ChessFenError, ClocksWithTrailingCharacters) {
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0x 1", "clocks");
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1.5", "clocks");
}

}  // namespace
}  // namespace fairyzero
