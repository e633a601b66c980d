// The bots shipped in bots/ (docs/STUDY.md): each loads with every check a user's load makes
// (manifest, variant file and network agree), was trained on the rules its variant's config
// file gives today, and plays a legal move from the start of its variant.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/rules_fingerprint.h"
#include "core/variant_loader.h"
#include "mcts/search.h"
#include "training/players/bot_bundle.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;

TEST(ShippedBots, EachLoadsFitsTodaysRulesAndPlaysALegalMove) {
  if (!fs::is_directory("bots")) GTEST_SKIP() << "no bots/ folder";
  int count = 0;
  for (const auto& entry : fs::directory_iterator("bots")) {
    if (!is_bot_bundle(entry.path().string())) continue;
    const std::string dir = entry.path().string();
    SCOPED_TRACE(dir);
    const BotBundle bot = load_bot(dir);
    const VariantPtr today = find_variant(bot.manifest.variant, bot.manifest.variant_options);
    EXPECT_EQ(rules_fingerprint(*today), bot.manifest.rules_fingerprint)
        << dir << " was trained on other rules than configs/variants/" << bot.manifest.variant
        << ".toml gives now: train it again (scripts/study.sh)";
    ASSERT_TRUE(bot.manifest.training.has_value()) << "its manifest records its training";
    EXPECT_FALSE(bot.manifest.strength.empty()) << "its manifest records its strength";
    std::unique_ptr<Evaluator> evaluator = make_bot_evaluator(bot, "cpu");
    Position start(bot.variant);
    SearchParams params = bot.search.params;
    params.seed = 3;
    Search search(start, *evaluator, params);
    const SearchResult result = search.run({.playouts = 16});
    const LegalMoves legal(start);
    EXPECT_TRUE(std::find(legal.begin(), legal.end(), result.best) != legal.end())
        << "the bot's move is not legal at the start";
    ++count;
  }
  if (count == 0) GTEST_SKIP() << "no bot in bots/ yet";
}

}  // namespace
}  // namespace fairyzero
