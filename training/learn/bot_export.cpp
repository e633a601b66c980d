// A training run exported as a bot: which checkpoint, which rules, and where it came from.
#include "training/learn/bot_export.h"

#include <cstdio>
#include <filesystem>

#include "core/variant.h"
#include "training/learn/train_config.h"
#include "training/learn/train_run.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;

std::string join(const std::string& dir, const std::string& name) {
  return (fs::path(dir) / name).string();
}

// The newest RUN_DIR/checkpoints/gen-NNNN.pt, or the one the user named (as given, else under
// RUN_DIR/checkpoints or RUN_DIR).
std::string pick_checkpoint(const std::string& run_dir, const std::optional<std::string>& given) {
  std::error_code ec;
  if (given) {
    for (const fs::path& candidate :
         {fs::path(*given), fs::path(run_dir) / "checkpoints" / *given, fs::path(run_dir) / *given})
      if (fs::is_regular_file(candidate, ec)) return candidate.string();
    throw BotBundleError("--checkpoint " + *given + ": no such file (also looked in " +
                         join(run_dir, "checkpoints") + ")");
  }
  int newest = -1;
  std::string path;
  for (const auto& entry : fs::directory_iterator(join(run_dir, "checkpoints"), ec)) {
    int g = -1;
    std::string name = entry.path().filename().string();
    if (std::sscanf(name.c_str(), "gen-%d.pt", &g) == 1 && entry.path().extension() == ".pt" &&
        g > newest) {
      newest = g;
      path = entry.path().string();
    }
  }
  if (newest < 0)
    throw BotBundleError(join(run_dir, "checkpoints") + ": no gen-NNNN.pt checkpoint");
  return path;
}

int generation_of(const std::string& checkpoint) {
  int g = 0;
  std::string name = fs::path(checkpoint).filename().string();
  return std::sscanf(name.c_str(), "gen-%d.pt", &g) == 1 ? g : 0;
}

RunSettings read_run_settings(const std::string& run_dir) {
  const std::string path = join(run_dir, "config.toml");
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw BotBundleError(path + ": missing (is " + run_dir + " a training run folder?)");
  try {
    return load_train_config(path).run;
  } catch (const std::runtime_error& e) {
    throw BotBundleError(e.what());
  }
}

}  // namespace

BotBundle export_bot(const std::string& run_dir, const std::string& bot_dir,
                     const std::optional<std::string>& checkpoint) {
  const RunSettings run = read_run_settings(run_dir);
  const std::string source = pick_checkpoint(run_dir, checkpoint);
  VariantPtr variant;
  try {
    variant = load_run_variant(run_dir);
  } catch (const VariantError& e) {
    throw BotBundleError(e.what());
  }
  BotOrigin origin;
  origin.variant_options = variant_overrides(run);
  origin.generation = generation_of(source);
  origin.source_run = fs::absolute(run_dir).lexically_normal().string();
  return write_bot(bot_dir, source, variant, origin);
}

}  // namespace fairyzero
