// The internal players built from a spec: uniform and material in every build, networks only
// with LibTorch, engines never (they are the arena's).
#include "training/players/internal_player.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "core/variant_loader.h"
#include "tests/support/files.h"

namespace fairyzero {
namespace {

TEST(InternalPlayer, BuildsInternalPlayersAndRefusesTheRest) {
  const VariantPtr minichess = find_variant("minichess");
  InternalPlayer material = make_internal_player(parse_player_spec("material"), minichess, "cpu");
  ASSERT_NE(material.evaluator, nullptr);
  EXPECT_EQ(material.label, "material");
  EXPECT_EQ(material.variant, minichess);
  EXPECT_FALSE(material.bot_search);
  EXPECT_THROW(make_internal_player(parse_player_spec("uniform"), nullptr, "cpu"), PlayerError)
      << "uniform needs a variant";
  EXPECT_THROW(make_internal_player(parse_player_spec("uci:engine"), minichess, "cpu"), PlayerError)
      << "an engine is not an internal player";
}

TEST(InternalPlayer, ACheckpointNeedsLibTorch) {
  testing::TempDir dir("fairyzero-internal-");
  std::ofstream(dir / "net.pt") << "not a network";
  const VariantPtr minichess = find_variant("minichess");
  try {
    make_internal_player(parse_player_spec(dir / "net.pt"), minichess, "cpu");
    FAIL() << "a file that is not a network was accepted";
  } catch (const std::exception& e) {
    const std::string message = e.what();
#if FAIRYZERO_WITH_TORCH
    EXPECT_NE(message.find("net.pt"), std::string::npos) << message;
#else
    EXPECT_NE(message.find("no LibTorch"), std::string::npos) << message;
#endif
  }
}

}  // namespace
}  // namespace fairyzero
