// `fairyzero train VARIANT --config configs/train/NAME.toml --out RUN_DIR`: a new run, or the
// continuation of an interrupted one in the same folder.
#include <filesystem>
#include <iostream>

#include "apps/arguments.h"
#include "apps/commands.h"
#include "training/train_run.h"

namespace fairyzero {

int train_command(const CommandArgs& raw) {
  Arguments args(raw, {"--config", "--out", "--generations", "--device", "--set"}, {});
  if (args.positional().size() != 1 || !args.value("--out"))
    throw UsageError("give a variant and --out RUN_DIR (and --config for a new run)");
  const std::string run_dir = *args.value("--out");
  const bool resuming = std::filesystem::exists(std::filesystem::path(run_dir) / "config.toml");
  TrainConfig config;
  if (!resuming) {
    if (!args.value("--config"))
      throw UsageError("a new run needs --config (e.g. configs/train/tiny.toml)");
    config = load_train_config(*args.value("--config"));
  }
  std::vector<std::string> overrides = args.values("--set");
  TrainConfig stored =
      resuming ? load_train_config((std::filesystem::path(run_dir) / "config.toml").string())
               : config;
  if (resuming) overrides = variant_overrides(stored.run);
  VariantPtr variant = load_variant_for_user(args.positional()[0], overrides);
  config.run.variant = variant->name;
  for (const std::string& o : overrides)
    config.run.variant_options += (config.run.variant_options.empty() ? "" : "; ") + o;
  if (auto g = args.value("--generations"))
    config.run.generations = static_cast<int>(Arguments::parse_integer(*g, "--generations"));
  if (auto d = args.value("--device")) config.run.device = *d;
  TrainingRun run(run_dir, config);
  if (resuming && run.config().run.variant != variant->name)
    throw UsageError(run_dir + " is a run of " + run.config().run.variant + ", not " +
                     variant->name);
  if (resuming && (args.value("--config") || args.value("--generations") ||
                   args.value("--device") || args.value("--set")))
    std::cerr << "note: " << run_dir << " exists; continuing with its own config.toml\n";
  run.run([](const std::string& line) { std::cout << line << std::endl; });
  return 0;
}

}  // namespace fairyzero
