// One factory for internal players, used by play, uci, xboard, arena and balance.
#include "training/players/internal_player.h"

#include <filesystem>
#include <stdexcept>

#include "core/rules_fingerprint.h"
#include "mcts/basic_evaluators.h"
#if FAIRYZERO_WITH_TORCH
#include "nn/network_evaluator.h"
#endif

namespace fairyzero {
namespace fs = std::filesystem;

namespace {

#if FAIRYZERO_WITH_TORCH

InternalPlayer bot_player(const PlayerSpec& spec, const VariantPtr& variant,
                          const std::string& device, const VariantOverrides& overrides) {
  BotBundle bundle = load_bot(spec.target);
  if (!overrides.empty())
    bundle.variant =
        load_variant_file((fs::path(spec.target) / "variant.toml").string(), overrides);
  if (variant && rules_fingerprint(*variant) != rules_fingerprint(*bundle.variant))
    throw PlayerError(
        "bot '" + spec.target + "' plays " + bundle.variant->name + ", not " + variant->name +
        " (rules " + rules_fingerprint(*bundle.variant) + " and " + rules_fingerprint(*variant) +
        "; first difference: " +
        first_rules_difference(rules_fields(*bundle.variant), rules_fields(*variant)) + ")");
  InternalPlayer player;
  player.variant = bundle.variant;
  player.evaluator = make_bot_evaluator(bundle, device);
  player.bot_search = bundle.search;
  player.bot_generation = bundle.manifest.generation;
  const fs::path folder(spec.target);
  player.label = folder.filename().empty() ? folder.parent_path().filename().string()
                                           : folder.filename().string();
  return player;
}

std::unique_ptr<Evaluator> checkpoint_evaluator(const PlayerSpec& spec, const VariantPtr& variant,
                                                const std::string& device) {
  NetworkEvaluatorOptions options;
  options.device = device;
  return NetworkEvaluator::from_checkpoint(spec.target, variant, options);
}
#else
[[noreturn]] void no_networks(const PlayerSpec& spec) {
  throw PlayerError("player '" + spec.spec +
                    "': this build has no LibTorch (FAIRYZERO_WITH_TORCH=OFF), so it "
                    "plays uniform, material and engines only");
}
InternalPlayer bot_player(const PlayerSpec& spec, const VariantPtr&, const std::string&,
                          const VariantOverrides&) {
  no_networks(spec);
}
std::unique_ptr<Evaluator> checkpoint_evaluator(const PlayerSpec& spec, const VariantPtr&,
                                                const std::string&) {
  no_networks(spec);
}
#endif

}  // namespace

InternalPlayer make_internal_player(const PlayerSpec& spec, const VariantPtr& variant,
                                    const std::string& device, const VariantOverrides& overrides) {
  if (spec.is_engine())
    throw PlayerError("player '" + spec.spec +
                      "' is an external engine; only the arena plays engines");
  if (spec.kind == PlayerKind::kBot) return bot_player(spec, variant, device, overrides);
  if (!variant) throw PlayerError("player '" + spec.spec + "' needs a variant (--variant NAME)");
  InternalPlayer player;
  player.variant = variant;
  player.label = spec.spec;
  switch (spec.kind) {
    case PlayerKind::kUniform: player.evaluator = std::make_unique<UniformEvaluator>(); break;
    case PlayerKind::kMaterial:
      player.evaluator = std::make_unique<MaterialEvaluator>(*variant);
      break;
    default:
      player.evaluator = checkpoint_evaluator(spec, variant, device);
      player.label = fs::path(spec.target).stem().string();
  }
  return player;
}

}  // namespace fairyzero
