// `fairyzero train VARIANT --config configs/train/NAME.toml --out RUN_DIR`: a new run, and
// `fairyzero train RUN_DIR [--generations N]`: the continuation or extension of an existing one.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>

#include "apps/arguments.h"
#include "apps/commands.h"
#include "core/rules_fingerprint.h"
#include "training/learn/train_run.h"
#include "training/learn/trainer_group.h"

namespace fairyzero {

void require_run_rules(const TrainingRun& run, const std::string& run_dir,
                       const VariantPtr& asked) {
  const RulesFields mine = rules_fields(*run.variant());
  const RulesFields theirs = rules_fields(*asked);
  if (rules_fingerprint(mine) == rules_fingerprint(theirs)) return;
  throw UsageError(run_dir + " is a run of other rules than " + asked->source_file +
                   " (fingerprints " + rules_fingerprint(mine) + " and " +
                   rules_fingerprint(theirs) +
                   "; first difference: " + first_rules_difference(theirs, mine) +
                   "). A run keeps the rules it was created with (" + run_dir +
                   "/variant.toml); train other rules in a new run folder.");
}

void wait_for_run(const std::string& run_dir, double seconds) {
  const auto start = std::chrono::steady_clock::now();
  const auto waited = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  double last_line = -1e9;
  while (!is_training_run(run_dir)) {
    if (waited() > seconds)
      throw UsageError(run_dir + " is not a run folder (no config.toml) after waiting " +
                       std::to_string(static_cast<int>(seconds)) +
                       " s; create it with fairyzero train VARIANT --config FILE --out " + run_dir +
                       " --selfplay external");
    if (waited() - last_line >= 30) {
      last_line = waited();
      std::cout << "waiting for " << run_dir << " to become a run (its trainer creates it)"
                << std::endl;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
}

namespace {

// How the run is trained: --selfplay external, and the ranks of a data-parallel trainer.
void train(TrainingRun& run, const Arguments& args) {
  TrainingOptions options;
  if (auto mode = args.value("--selfplay")) {
    if (*mode != "external" && *mode != "internal")
      throw UsageError(
          "--selfplay is internal (the default: this process plays) or external "
          "(fairyzero selfplay workers play), not '" +
          *mode + "'");
    options.external_selfplay = *mode == "external";
  }
  const RankInfo ranks = rank_from_environment();
  std::unique_ptr<TrainerGroup> group;
  if (ranks.world_size > 1) group = std::make_unique<TrainerGroup>(ranks);
  options.group = group.get();
  run.run([](const std::string& line) { std::cout << line << std::endl; }, options);
}

// The run settings the command line gives (--generations, --minutes, --device), over `config`.
void apply_run_options(TrainConfig& config, const Arguments& args) {
  if (auto g = args.value("--generations"))
    config.run.generations = static_cast<int>(Arguments::parse_integer(*g, "--generations"));
  if (auto m = args.value("--minutes")) config.run.minutes = std::stod(*m);
  if (auto d = args.value("--device")) config.run.device = *d;
  config.trainer.device = config.run.device;
}

// Settings asked for on the command line, applied to an existing run where that is safe.
void apply_requested_settings(TrainingRun& run, const Arguments& args) {
  TrainConfig wanted = run.config();
  if (auto file = args.value("--config")) {
    const TrainConfig stored = run.config();
    wanted = load_train_config(*file);
    // The run's own records, not settings a config file carries.
    wanted.run.variant = stored.run.variant;
    wanted.run.variant_options = stored.run.variant_options;
  }
  apply_run_options(wanted, args);
  const std::vector<SettingChange> changes = changed_settings(run.config(), wanted);
  if (changes.empty()) return;
  run.update_settings(wanted);
  for (const SettingChange& c : changes)
    std::cerr << "note: " << c.key << " changed from " << c.before << " to " << c.after << "\n";
}

}  // namespace

int train_command(const Arguments& args) {
  if (args.positional().size() != 1)
    throw UsageError("give a variant and --out RUN_DIR (a new run), or a RUN_DIR to continue");
  const std::string& target = args.positional()[0];
  const bool target_is_run = !args.value("--out") && is_training_run(target);
  if (!args.value("--out") && !target_is_run)
    throw UsageError(target + " is not a run folder; a new run needs --out RUN_DIR");
  const std::string run_dir = target_is_run ? target : *args.value("--out");
  // The ranks of a data-parallel trainer all run this command: rank 0 creates a new run, the
  // others wait for it and join.
  if (!is_training_run(run_dir) && rank_from_environment().rank != 0) wait_for_run(run_dir, 600);

  if (is_training_run(run_dir)) {
    TrainingRun run(run_dir);
    if (!target_is_run)
      require_run_rules(run, run_dir, load_variant_for_user(target, args.values("--set")));
    else if (!args.values("--set").empty())
      throw UsageError("--set cannot change the rules of an existing run (" + run_dir +
                       "/variant.toml); train the new rules in a new run folder");
    // Only rank 0 writes the run's settings; the others read what it wrote.
    if (rank_from_environment().rank == 0) apply_requested_settings(run, args);
    train(run, args);
    return 0;
  }
  if (!args.value("--config"))
    throw UsageError("a new run needs --config (e.g. configs/train/tiny.toml)");
  TrainConfig config = load_train_config(*args.value("--config"));
  const std::vector<std::string> overrides = args.values("--set");
  VariantPtr variant = load_variant_for_user(target, overrides);
  for (const std::string& o : overrides)
    config.run.variant_options += (config.run.variant_options.empty() ? "" : "; ") + o;
  apply_run_options(config, args);
  TrainingRun run(run_dir, config, variant);
  train(run, args);
  return 0;
}

}  // namespace fairyzero
