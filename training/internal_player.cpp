// One factory for internal players, used by play, uci, xboard, arena and balance.
#include "training/internal_player.h"

#include <filesystem>
#include <stdexcept>

#include "core/rules_fingerprint.h"
#include "mcts/basic_evaluators.h"
#include "nn/network_evaluator.h"

namespace fairyzero {
namespace fs = std::filesystem;

namespace {

InternalPlayer bot_player(const PlayerSpec& spec, const VariantPtr& variant,
                          const std::string& device, const VariantOverrides& overrides) {
  BotBundle bundle = load_bot(spec.target);
  if (!overrides.empty())
    bundle.variant =
        load_variant_file((fs::path(spec.target) / "variant.toml").string(), overrides);
  if (variant && rules_fingerprint(*variant) != rules_fingerprint(*bundle.variant))
    throw std::invalid_argument(
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

}  // namespace

InternalPlayer make_internal_player(const PlayerSpec& spec, const VariantPtr& variant,
                                    const std::string& device, const VariantOverrides& overrides) {
  if (spec.is_engine())
    throw std::invalid_argument("player '" + spec.spec +
                                "' is an external engine; only the arena plays engines");
  if (spec.kind == PlayerKind::kBot) return bot_player(spec, variant, device, overrides);
  if (!variant)
    throw std::invalid_argument("player '" + spec.spec + "' needs a variant (--variant NAME)");
  InternalPlayer player;
  player.variant = variant;
  player.label = spec.spec;
  switch (spec.kind) {
    case PlayerKind::kUniform: player.evaluator = std::make_unique<UniformEvaluator>(); break;
    case PlayerKind::kMaterial:
      player.evaluator = std::make_unique<MaterialEvaluator>(*variant);
      break;
    default: {
      NetworkEvaluatorOptions options;
      options.device = device;
      player.evaluator = NetworkEvaluator::from_checkpoint(spec.target, variant, options);
      player.label = fs::path(spec.target).stem().string();
    }
  }
  return player;
}

}  // namespace fairyzero
