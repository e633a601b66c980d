// A bot: a folder holding a trained network with everything needed to play it
// anywhere — the variant definition it was trained on, default search settings and a manifest.
//
//   BOT_DIR/manifest.toml   format version, variant name, rules fingerprint, variant options
//                           (--set), training steps, generation, source run, export date,
//                           [training] (games, samples, minutes, machine) and [[strength]]
//                           (measured matches)
//   BOT_DIR/variant.toml    the run's resolved variant (RUN_DIR/variant.toml, options applied)
//   BOT_DIR/network.pt      the checkpoint (weights + network config + shapes, nn/checkpoint.h)
//   BOT_DIR/network.toml    the network config, readable without LibTorch
//   BOT_DIR/search.toml     default search settings (playouts, threads, cpuct, ...)
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/variant.h"
#include "mcts/evaluator.h"
#include "mcts/tree.h"

namespace fairyzero {

// A bundle that cannot be used: a missing part, a malformed file, or parts that disagree (the
// checkpoint made for another variant, a manifest naming another network). The message names the
// file and the problem.
class BotBundleError : public UserError {
 public:
  using UserError::UserError;
};

// How the bot's network was trained, as far as its run folder tells.
struct BotTraining {
  int64_t games = 0;    // self-play games of the generations before its checkpoint
  int64_t samples = 0;  // training samples those games gave
  double minutes = 0;   // wall clock from the run's first checkpoint to this one
  std::string machine;  // where it trained, e.g. "2 cores (AMD EPYC 7B13), cpu"
};

// One measured match of the bot (the first player) against an opponent, from an arena folder.
struct BotStrength {
  std::string opponent;     // the opponent's name in the match (its spec unless renamed)
  std::string description;  // the opponent's settings: "MCTS over material, 800 playouts..."
  int visits = 0;           // the bot's playouts per move in the match; 0: its default
  int games = 0, wins = 0, draws = 0, losses = 0;
  double score = 0, elo = 0, elo_low = 0, elo_high = 0;  // docs/ARENA.md, 95% interval
};

struct BotManifest {
  int format = 1;
  std::string variant;  // Variant::name
  // The run's --set overrides, for the record: variant.toml already has them applied.
  std::vector<std::string> variant_options;
  std::string rules_fingerprint;  // of variant.toml, network.pt and the run's samples
  int64_t training_steps = 0;
  int generation = 0;
  std::string source_run;                // the RUN_DIR it came from
  std::string exported;                  // ISO date and time of export
  std::optional<double> elo_vs_uniform;  // strength estimate when known (arena), else unset
  std::optional<BotTraining> training;   // unset in bots exported before it was recorded
  std::vector<BotStrength> strength;
};

struct BotSearchDefaults {
  int playouts = 800;
  int threads = 1;
  SearchParams params;  // cpuct, fpu, ... (root_noise off)
};

struct BotBundle {
  std::string dir;
  BotManifest manifest;
  VariantPtr variant;
  std::string checkpoint;  // BOT_DIR/network.pt
  BotSearchDefaults search;
};

// Is `path` a bot folder (it has a manifest.toml)?
bool is_bot_bundle(const std::string& path);

// Where a bot came from, for its manifest.
struct BotOrigin {
  std::vector<std::string> variant_options;  // the run's --set overrides
  int generation = 0;
  std::string source_run;  // absolute RUN_DIR
  std::optional<BotTraining> training;
  std::vector<BotStrength> strength;
};

// Writes BOT_DIR from `checkpoint`, which must fit `variant` (the rules it was trained on), and
// checks it as load_bot will. Refuses to overwrite a non-empty BOT_DIR that is not a bot; a
// failure leaves BOT_DIR as it was. Throws BotBundleError. (A training run's export:
// training/learn/bot_export.h.)
BotBundle write_bot(const std::string& bot_dir, const std::string& checkpoint,
                    const VariantPtr& variant, const BotOrigin& origin);

// Reads and cross-checks a bundle: the variant loads, the manifest's and the checkpoint's rules
// fingerprints are the variant's, the encoder version and shapes fit it. Throws BotBundleError.
BotBundle load_bot(const std::string& bot_dir);

// The bundle's network as an evaluator on `device` ("cpu" or "cuda").
std::unique_ptr<Evaluator> make_bot_evaluator(const BotBundle& bot, const std::string& device);

}  // namespace fairyzero
