// The self-play game record line: written and read back, and what a malformed one says.
#include "training/play/self_play_record.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace fairyzero {
namespace {

TEST(SelfPlayRecord, RoundTripsWithAndWithoutTheNetworks) {
  SelfPlayRecord record{"checkmate", {{"white", 0}, {"black", 1}}, 3, "", {"e2e4", "e7e5", "d1h5"}};
  const std::string line = format_self_play_record(record);
  EXPECT_EQ(line, "checkmate | white=0 black=1 | 3 plies | e2e4 e7e5 d1h5");
  SelfPlayRecord back = parse_self_play_record(line);
  EXPECT_EQ(back.termination, "checkmate");
  EXPECT_EQ(back.scores, record.scores);
  EXPECT_EQ(back.plies, 3);
  EXPECT_EQ(back.moves, record.moves);
  EXPECT_TRUE(back.networks.empty());

  record.networks = "white=gen-0003 black=gen-0001";
  record.scores = {{"white", 0.5}, {"black", 0.5}};
  back = parse_self_play_record(format_self_play_record(record));
  EXPECT_EQ(back.networks, record.networks);
  EXPECT_EQ(back.scores, record.scores);
  EXPECT_EQ(back.moves, record.moves);

  // A game without moves (a start position that is already over).
  back = parse_self_play_record(format_self_play_record({"stalemate", {{"a", 0.5}}, 0, "", {}}));
  EXPECT_TRUE(back.moves.empty());
}

TEST(SelfPlayRecord, AMalformedLineSaysWhatIsWrong) {
  auto error_of = [](const std::string& line) {
    try {
      parse_self_play_record(line);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(error_of("white=1 | 3 plies | e2e3").find("3 fields"), std::string::npos);
  EXPECT_NE(error_of("checkmate | white=2 black=0 | 1 plies | e2e3").find("'white=2'"),
            std::string::npos);
  EXPECT_NE(error_of("checkmate | white black | 1 plies | e2e3").find("'white'"),
            std::string::npos);
  EXPECT_NE(error_of("checkmate | white=1 black=0 | one ply | e2e3").find("'one ply'"),
            std::string::npos);
  EXPECT_NE(error_of("checkmate | white=1 black=0 | 2 plies | e2e3").find("1 moves for 2 plies"),
            std::string::npos);
}

}  // namespace
}  // namespace fairyzero
