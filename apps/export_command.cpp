// `fairyzero export RUN_DIR --out BOT_DIR [--checkpoint FILE] [--strength ARENA_DIR...]
// [--machine TEXT]`: a training run's network as a
// bot folder that `fairyzero uci` and `fairyzero xboard` play (training/bot_bundle.h).
#include <iomanip>
#include <iostream>

#include "apps/arguments.h"
#include "apps/commands.h"
#include "training/learn/bot_export.h"

namespace fairyzero {

int export_command(const Arguments& args) {
  if (args.positional().size() != 1 || !args.value("--out"))
    throw UsageError("give a training run folder and --out BOT_DIR");
  BotExportRecords records;
  records.strength_dirs = args.values("--strength");
  records.machine = args.value("--machine").value_or("");
  BotBundle bot =
      export_bot(args.positional()[0], *args.value("--out"), args.value("--checkpoint"), records);
  const BotManifest& m = bot.manifest;
  std::cout << "wrote " << bot.dir << ": " << m.variant << " bot, generation " << m.generation
            << ", " << m.training_steps << " training steps, from " << m.source_run << "\n";
  for (const std::string& option : m.variant_options)
    std::cout << "  variant option " << option << "\n";
  std::cout << std::fixed << std::setprecision(1);
  if (m.training)
    std::cout << "  trained on " << m.training->games << " games (" << m.training->samples
              << " samples) in " << m.training->minutes << " minutes, " << m.training->machine
              << "\n";
  for (const BotStrength& x : m.strength)
    std::cout << "  against " << x.opponent << ": " << 100 * x.score << "% of " << x.games
              << " games, Elo " << x.elo << " [" << x.elo_low << ", " << x.elo_high << "]\n";
  std::cout << "  manifest.toml variant.toml network.pt network.toml search.toml ("
            << bot.search.playouts << " playouts by default)\n"
            << "play it: fairyzero uci " << bot.dir << "   or   fairyzero xboard " << bot.dir
            << "\n";
  return 0;
}

}  // namespace fairyzero
