// The generation loop: self-play with the newest network, samples to HDF5, training on the
// window, a checkpoint; progress lines, CSV metrics and the learning-curve plot.
#include "training/learn/train_run.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <iomanip>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "core/temporary_file.h"
#include "core/variant_loader.h"
#include "nn/checkpoint.h"
#include "nn/encoder.h"
#include "nn/network_evaluator.h"
#include "training/cluster/lease.h"
#include "training/cluster/run_files.h"
#include "training/data/sample_store.h"
#include "training/data/sample_window.h"
#include "training/learn/generation_player.h"
#include "training/learn/run_clock.h"
#include "training/learn/run_csv.h"
#include "training/learn/trainer.h"
#include "training/learn/trainer_group.h"
#include "training/learn/validation.h"
#include "training/play/run_program.h"

namespace fairyzero {
namespace fs = std::filesystem;

namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Writes a whole text file atomically; a failure is a RunError naming it.
void write_file_atomically(const std::string& path, const std::string& text) {
  try {
    write_text_atomically(path, text);
  } catch (const std::runtime_error& e) {
    throw RunError(e.what());
  }
}

constexpr const char* kExternalHeader =
    "generation,published_samples,new_samples,files,waited_seconds";

// Rank 0's choice of window for a generation (its capacity, then its files, a line each), which
// the other ranks of a data-parallel trainer take so that all train on the same samples.
std::string window_choice(const SampleWindow& window) {
  std::string text = std::to_string(window.capacity()) + "\n";
  for (const std::string& file : window.files()) text += file + "\n";
  return text;
}

void take_window_choice(SampleWindow& window, const std::string& choice) {
  std::stringstream lines(choice);
  std::string capacity;
  std::getline(lines, capacity);
  window.set_capacity(std::stoll(capacity));
  std::vector<std::string> files;
  for (std::string file; std::getline(lines, file);) files.push_back(file);
  window.refresh_from(files);
}

// The log line of a finished generation: window, the last training chunk's metrics, the
// validation summary, time taken and the ETA.
std::string generation_progress(int generation, int generations, int64_t window_samples,
                                const std::vector<TrainingMetrics>& rows,
                                const std::string& validation, double seconds, double eta) {
  std::ostringstream line;
  line << std::fixed << std::setprecision(3) << "generation " << generation + 1 << "/"
       << generations << ": window " << window_samples << " samples";
  if (!rows.empty())
    line << ", policy loss " << rows.back().policy_loss << ", value loss " << rows.back().value_loss
         << ", value accuracy " << std::setprecision(2) << rows.back().value_accuracy << ", "
         << std::setprecision(0) << rows.back().samples_per_second << " samples/s";
  line << validation << ", " << format_seconds(seconds) << ", ETA " << format_seconds(eta);
  return line.str();
}

}  // namespace

std::string generation_name(int generation) {
  char name[32];
  std::snprintf(name, sizeof name, "gen-%04d", generation);
  return name;
}

VariantPtr load_run_variant(const std::string& run_dir) {
  const std::string file = (fs::path(run_dir) / "variant.toml").string();
  if (!fs::exists(file))
    throw VariantError(run_dir +
                       " has no variant.toml: it is not a run, or was made before runs "
                       "kept their rules (start it again with fairyzero train)");
  return load_variant_file(file);
}

bool is_training_run(const std::string& run_dir) {
  return fs::exists(fs::path(run_dir) / "config.toml");
}

TrainingRun::TrainingRun(std::string run_dir, const TrainConfig& config, VariantPtr variant)
    : dir_(std::move(run_dir)), config_(config), variant_(std::move(variant)) {
  if (is_training_run(dir_))
    throw RunError(dir_ + " already holds a run; continue it with fairyzero train " + dir_);
  if (!variant_) throw std::invalid_argument("a new training run needs a variant");
  config_.run.variant = variant_->name;
  validate_agents(config_, path("config.toml"));
  fs::create_directories(dir_);
  write_file_atomically(path("variant.toml"), variant_->resolved_toml);
  write_file_atomically(path("config.toml"), train_config_to_toml(config_));
}

TrainingRun::TrainingRun(std::string run_dir) : dir_(std::move(run_dir)) {
  if (!is_training_run(dir_)) throw RunError(dir_ + " holds no run (no config.toml)");
  config_ = load_train_config(path("config.toml"));
  variant_ = load_run_variant(dir_);
  validate_agents(config_, path("config.toml"));
}

TrainingRun::~TrainingRun() = default;

void TrainingRun::update_settings(const TrainConfig& config) {
  std::string refused;
  for (const SettingChange& c : changed_settings(config_, config))
    if (!c.allowed_mid_run)
      refused += "\n  " + c.key + ": " + c.before + " in the run, " + c.after + " asked";
  if (!refused.empty())
    throw RunError(
        "cannot change these settings of " + dir_ +
        " mid-run (they define its games, network or training; start a new run instead):" +
        refused);
  if (config.run.generations < finished_generations())
    throw RunError(dir_ + " has already finished " + std::to_string(finished_generations()) +
                   " generations; --generations " + std::to_string(config.run.generations) +
                   " would undo them");
  validate_agents(config, path("config.toml"));
  config_ = config;
  write_file_atomically(path("config.toml"), train_config_to_toml(config_));
}

std::vector<std::string> TrainingRun::agents() const {
  if (!config_.agents.per_seat()) return {""};
  std::vector<std::string> names;
  for (const Seat& seat : variant_->seats) names.push_back(seat.name);
  return names;
}

std::string TrainingRun::checkpoint_path(int generation, const std::string& agent) const {
  return path("checkpoints/" + generation_name(generation) + (agent.empty() ? "" : "-" + agent) +
              ".pt");
}

std::string TrainingRun::path(const std::string& name) const {
  return (fs::path(dir_) / name).string();
}

void TrainingRun::plot() const {
  fs::path script = "scripts/plot_learning.py";
#ifdef FAIRYZERO_SOURCE_DIR
  if (!fs::exists(script)) script = fs::path(FAIRYZERO_SOURCE_DIR) / "scripts" / "plot_learning.py";
#endif
  const char* python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  if (run_program({python, script.string(), dir_}, path("plot.log")) != 0)
    std::fprintf(stderr, "note: no learning-curve plot (see %s)\n", path("plot.log").c_str());
}

int TrainingRun::finished_generations() const {
  int newest = -1;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(path("checkpoints"), ec)) {
    std::string name = entry.path().filename().string();
    int g = -1;
    if (std::sscanf(name.c_str(), "gen-%d", &g) == 1 && entry.path().extension() == ".pt")
      newest = std::max(newest, g);
  }
  // A generation counts once every agent's checkpoint of it is written.
  const std::vector<std::string> names = agents();
  for (; newest >= 0; --newest) {
    bool complete = true;
    for (const std::string& agent : names)
      complete = complete && fs::exists(checkpoint_path(newest, agent));
    if (complete) break;
  }
  return newest;
}

int TrainingRun::load_newest_good(const std::vector<std::unique_ptr<Trainer>>& trainers,
                                  const std::function<void(const std::string&)>& log) {
  const std::vector<std::string> names = agents();
  auto optimizer_path = [&](const std::string& agent) {
    return path("checkpoints/optimizer" + (agent.empty() ? "" : "-" + agent) + ".pt");
  };
  for (int generation = finished_generations(); generation >= 0;
       generation = finished_generations()) {
    bool loaded = true;
    for (size_t a = 0; a < names.size() && loaded; ++a) {
      const std::string checkpoint = checkpoint_path(generation, names[a]);
      try {
        trainers[a]->load(checkpoint, "", names[a]);
      } catch (const CheckpointMismatchError&) {
        throw;  // a sound file for another config: the run cannot go on as set, nothing moved
      } catch (const CheckpointError& e) {
        // Kept beside the others for inspection, never read again.
        fs::rename(checkpoint, checkpoint + ".damaged");
        log("warning: " + std::string(e.what()) + "; renamed it " + checkpoint +
            ".damaged and going back to the generation before it");
        loaded = false;
      }
    }
    if (!loaded) continue;
    // The optimizer state belongs to the newest checkpoint; any other is ignored by load().
    for (size_t a = 0; a < names.size(); ++a) {
      try {
        trainers[a]->load(checkpoint_path(generation, names[a]), optimizer_path(names[a]),
                          names[a]);
      } catch (const CheckpointError& e) {
        log("warning: " + std::string(e.what()) + "; training goes on with a fresh optimizer");
        trainers[a]->load(checkpoint_path(generation, names[a]), "", names[a]);
      }
    }
    return generation;
  }
  return -1;
}

std::shared_ptr<Evaluator> TrainingRun::snapshot(const Trainer& trainer) const {
  return std::make_shared<NetworkEvaluator>(
      variant_, trainer.network(),
      NetworkEvaluatorOptions{.device = config_.run.device,
                              .precision = parse_precision(config_.inference.precision)});
}

int TrainingRun::league_games() const { return player_ ? player_->league_games() : 0; }

void TrainingRun::self_play_generation(int generation,
                                       const std::vector<std::shared_ptr<Evaluator>>& networks,
                                       int network_generation,
                                       const std::function<void(const std::string&)>& log) {
  // The first generation of this process makes the games' slots; later ones hand their new
  // players to the games carried over.
  if (!player_)
    player_ = std::make_unique<GenerationPlayer>(
        variant_, config_, agents(),
        [this](int g, const std::string& agent) { return checkpoint_path(g, agent); },
        config_.run.seed * 1000 + static_cast<uint64_t>(generation));
  const std::string name = generation_name(generation);
  const PlayedGames played = player_->play(networks, network_generation, name, log);
  publish_played_games(variant_, played, config_, generation_name(network_generation), dir_, name);
  append_csv(path("selfplay.csv"), selfplay_csv_header(*variant_),
             selfplay_csv_row(*variant_, generation, played));
  const SelfPlayStats& stats = played.stats;
  std::ostringstream done;
  done << std::fixed << std::setprecision(1) << "  " << name << " self-play done: " << stats.games
       << " games in " << format_seconds(stats.seconds) << ", " << stats.moves_per_second()
       << " positions/s, " << std::setprecision(0)
       << (stats.seconds > 0 ? stats.evaluated / stats.seconds : 0) << " evaluations/s, "
       << std::setprecision(1) << stats.samples << " samples, mean length " << stats.mean_plies()
       << " plies, draws " << 100 * draw_rate(played) << "%";
  log(done.str());
}

std::string TrainingRun::wait_for_samples(int generation, SampleWindow& window,
                                          const TrainingOptions& options, int64_t& new_samples,
                                          const std::function<void(const std::string&)>& log) {
  const TrainConfig& c = config_;
  // Samples published when the previous generation began training: those since are new. A
  // restarted trainer reads it back from external.csv.
  const std::string before = generation_field(path("external.csv"), generation - 1, 1);
  const int64_t baseline = before.empty() ? 0 : std::stoll(before);
  const int64_t needed = external_samples_per_generation(c);
  const double started = now_seconds();
  double last_line = 0, last_sweep = 0;
  for (;;) {
    if (now_seconds() - last_sweep > 60) {
      last_sweep = now_seconds();
      for (const char* folder : {"samples", "games", "validation"})
        for (const std::string& removed :
             sweep_temporaries(path(folder), options.sweep_after_seconds))
          log("  swept " + removed + " (left by a writer that was stopped mid-write)");
    }
    window.refresh();
    const int64_t arrived = window.published() - baseline;
    if (arrived >= needed && window.size() > 0) {
      new_samples = arrived;
      std::ostringstream row;
      row << generation << "," << window.published() << "," << arrived << ","
          << window.published_files() << "," << now_seconds() - started;
      return row.str();
    }
    if (now_seconds() - last_line >= 10) {
      last_line = now_seconds();
      log("  " + generation_name(generation) + ": waiting for self-play workers, " +
          std::to_string(std::max<int64_t>(arrived, 0)) + "/" + std::to_string(needed) +
          " new samples (" + std::to_string(window.published_files()) + " files published), " +
          format_seconds(now_seconds() - started));
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(options.poll_seconds));
  }
}

std::string TrainingRun::validate_generation(int generation,
                                             const std::vector<std::unique_ptr<Trainer>>& trainers,
                                             const std::vector<TrainingMetrics>& rows) {
  const TrainConfig& c = config_;
  SampleWindow held_out(path("validation"), sample_file_info(Encoder(variant_)),
                        c.window.validation_window);
  if (held_out.refresh() == 0) return "";
  const std::vector<std::string> names = agents();
  const bool per_seat = c.agents.per_seat();
  const bool soft = c.network.soft_policy;
  const std::string soft_column = soft ? ",soft_policy_loss" : "";
  double train_policy = 0, train_value = 0;
  for (const TrainingMetrics& m : rows) {
    train_policy += m.policy_loss / static_cast<double>(rows.size());
    train_value += m.value_loss / static_cast<double>(rows.size());
  }
  std::ostringstream summary;
  for (size_t a = 0; a < names.size(); ++a) {
    const int seat = per_seat ? static_cast<int>(a) : -1;
    const ValidationMetrics v = validate(*trainers[a], held_out, c.trainer.batch_size, seat);
    if (v.samples == 0) continue;
    std::ostringstream row;
    row << generation << "," << v.samples << "," << v.policy_loss << "," << v.value_loss << ","
        << v.calibration_error << "," << v.predicted_score << "," << v.observed_score << ","
        << train_policy << "," << train_value;
    if (per_seat) row << "," << names[a];
    row << "," << v.moves_left_loss;  // last, as in training.csv
    if (soft) row << "," << v.soft_policy_loss;
    append_csv(path("validation.csv"),
               std::string("generation,samples,policy_loss,value_loss,calibration_error,"
                           "predicted_score,observed_score,training_policy_loss,"
                           "training_value_loss") +
                   (per_seat ? ",seat" : "") + ",moves_left_loss" + soft_column,
               row.str());
    if (a == 0)
      summary << std::fixed << std::setprecision(3) << "; held out " << v.samples
              << ": policy loss " << v.policy_loss << ", value loss " << v.value_loss
              << ", calibration error " << v.calibration_error;
  }
  return summary.str();
}

void TrainingRun::run(const std::function<void(const std::string&)>& raw_log,
                      const TrainingOptions& options) {
  const TrainConfig& c = config_;
  TrainerGroup* group = options.group;
  const bool leader = !group || group->rank() == 0;  // the rank that writes files and logs
  if (group && group->world_size() > 1 && !options.external_selfplay)
    throw RunError("a data-parallel trainer (" + std::to_string(group->world_size()) +
                   " ranks) trains on external self-play: add --selfplay external and start "
                   "fairyzero selfplay workers on " +
                   dir_);
  std::mutex log_mutex;  // self-play may report from another thread (overlap)
  auto log = [&](const std::string& line) {
    if (!leader) return;
    std::lock_guard lock(log_mutex);
    raw_log(line);
  };
  const VariantPtr& variant = variant_;
  disable_hdf5_file_locking();
  // The ranks of one trainer are one trainer: rank 0 holds the run.
  std::optional<Lease> lease;
  if (leader) lease.emplace(trainer_lease_path(dir_), "the trainer of " + dir_);
  for (const char* sub : {"checkpoints", "samples", "games", "validation"})
    fs::create_directories(path(sub));
  Encoder encoder(variant);
  TrainerConfig trainer_config = c.trainer;
  trainer_config.device = c.run.device;
  // With steps from reuse, a first guess of the schedule's length (about 16 samples a game),
  // corrected after every generation from the steps it took.
  const int64_t guessed_steps =
      c.window.steps_per_generation > 0
          ? c.window.steps_per_generation
          : steps_for_generation(c, static_cast<int64_t>(c.selfplay.games) * 16);
  trainer_config.total_steps = static_cast<int64_t>(c.run.generations) * guessed_steps;
  // One network and optimizer per agent: the shared one, or each seat's.
  const std::vector<std::string> names = agents();
  const bool per_seat = c.agents.per_seat();
  auto optimizer_path = [&](const std::string& agent) {
    return path("checkpoints/optimizer" + (agent.empty() ? "" : "-" + agent) + ".pt");
  };
  std::vector<std::unique_ptr<Trainer>> trainers;
  for (size_t a = 0; a < names.size(); ++a)
    trainers.push_back(std::make_unique<Trainer>(encoder, c.network, trainer_config));
  auto save_all = [&](int g) {
    if (!leader) return;
    if (!lease->held())
      throw RunError("lost " + lease->path() + " (another trainer broke it while this one " +
                     "stalled); not writing generation " + std::to_string(g));
    for (size_t a = 0; a < names.size(); ++a)
      trainers[a]->save(checkpoint_path(g, names[a]), optimizer_path(names[a]), names[a]);
  };
  auto snapshots = [&] {
    std::vector<std::shared_ptr<Evaluator>> out;
    for (const auto& trainer : trainers) out.push_back(snapshot(*trainer));
    return out;
  };
  int generation = -1;
  if (leader) {
    generation = load_newest_good(trainers, log);
    if (generation >= 0) {
      log("resuming " + dir_ + " after generation " + std::to_string(generation) + " of " +
          std::to_string(c.run.generations));
    } else {
      generation = 0;
      save_all(0);
      log("new run " + dir_ + ": " + variant->title + ", network " + describe(c.network) +
          (per_seat ? " per seat" : "") + ", " + std::to_string(c.run.generations) +
          " generations" + (options.external_selfplay ? ", external self-play" : ""));
    }
  }
  if (group && group->world_size() > 1) {
    // The other ranks load the same files (for the optimizer's state), then take rank 0's
    // weights so that all start as one network.
    if (leader) group->publish("start", std::to_string(generation));
    generation = std::stoi(group->await("start"));
    for (size_t a = 0; a < names.size(); ++a) {
      if (!leader)
        trainers[a]->load(checkpoint_path(generation, names[a]), optimizer_path(names[a]),
                          names[a]);
      trainers[a]->set_gradient_sync(group);
    }
    log("data-parallel trainer: " + std::to_string(group->world_size()) + " ranks, " +
        std::to_string(c.trainer.batch_size / group->world_size()) + " samples per rank and step");
  }
  if (leader) {
    // Rows of a generation that did not finish are redone.
    truncate_csv(path("training.csv"), generation);
    truncate_csv(path("external.csv"), generation);
    truncate_csv(path("validation.csv"), generation);
    truncate_csv(path("clock.csv"), generation);
    if (!options.external_selfplay &&
        !fs::exists(path("samples/" + generation_name(generation) + ".h5")))
      truncate_csv(path("selfplay.csv"), generation);
  }
  SampleWindow window(path("samples"), sample_file_info(encoder), c.window.samples);
  // The power-law window grows with the samples published (window_exponent).
  auto grow_window = [&](SampleWindow& w) {
    const int64_t capacity = window_capacity(c.window, w.published());
    if (capacity == w.capacity()) return;
    w.set_capacity(capacity);
    w.refresh();
  };
  // Each rank draws its own share of every batch.
  std::mt19937_64 rng(c.run.seed + (group ? 7919 * static_cast<uint64_t>(group->rank()) : 0));
  const double started = now_seconds();
  const int first = generation;
  // The time budget counts this run's generations over all its sessions (rank 0's clock).
  const double budget = c.run.minutes * 60;
  std::optional<RunClock> clock;
  try {
    if (leader) clock.emplace(path("clock.csv"), generation);
  } catch (const std::runtime_error& e) {
    throw RunError(e.what());
  }
  auto synced_seconds = [&](const std::string& key) {
    double seconds = clock ? clock->elapsed_seconds() : 0;
    if (group && group->world_size() > 1) {
      char text[64];
      std::snprintf(text, sizeof text, "%.17g", seconds);
      if (leader) group->publish(key, text);
      seconds = std::stod(group->await(key));
    }
    return seconds;
  };
  double spent = synced_seconds("clock-start");
  // The schedule's length from the clock: the rate at each generation is where the budget's
  // elapsed share puts it, so it anneals by the budget's end however fast the steps come.
  auto follow_the_clock = [&] {
    for (const auto& trainer : trainers)
      trainer->set_total_steps(schedule_steps_for_budget(trainer->step(), spent, budget));
  };
  if (budget > 0 && spent > 0) follow_the_clock();
  // With `overlap`, the games of generation g+1 are played by a snapshot of the network that
  // played generation g while the trainer turns it into g+1 (one generation of lag, as in
  // KataGo): the GPU is busy with both. The sample file records which network played.
  std::future<void> next_games;
  auto wait_for_games = [&] {
    if (next_games.valid()) next_games.get();
  };
  for (; generation < c.run.generations; ++generation) {
    if (budget > 0 && spent >= budget) {
      std::ostringstream line;
      line << std::fixed << std::setprecision(1) << "time budget spent: " << spent / 60 << " of "
           << c.run.minutes << " minutes after generation " << generation;
      log(line.str());
      break;
    }
    const double generation_start = now_seconds();
    const std::string name = generation_name(generation);
    int64_t new_samples = 0;  // what this generation brought
    if (options.external_selfplay) {
      if (leader) {
        const std::string row = wait_for_samples(generation, window, options, new_samples, log);
        append_csv(path("external.csv"), kExternalHeader, row);
        grow_window(window);
        // The other ranks train on the very files (and capacity) rank 0 chose.
        if (group && group->world_size() > 1)
          group->publish(name + "-files", window_choice(window));
      } else {
        take_window_choice(window, group->await(name + "-files"));
      }
    } else {
      wait_for_games();
      if (!fs::exists(path("samples/" + name + ".h5")))
        self_play_generation(generation, snapshots(), generation, log);
      else
        log("  " + name + " self-play: samples on disk");
      const std::string next = generation_name(generation + 1);
      if (c.run.overlap && generation + 1 < c.run.generations &&
          !fs::exists(path("samples/" + next + ".h5"))) {
        // Taken before training changes the networks.
        std::vector<std::shared_ptr<Evaluator>> networks = snapshots();
        next_games = std::async(std::launch::async, [this, generation, networks, &log] {
          self_play_generation(generation + 1, networks, generation, log);
        });
      }
      window.refresh();
      grow_window(window);
    }
    // Steps of this generation: fixed, or `reuse` passes over its new samples.
    int steps = c.window.steps_per_generation;
    if (steps == 0) {
      if (!options.external_selfplay) {
        const std::string file = path("samples/" + name + ".h5");
        new_samples = fs::exists(file) ? read_sample_file_info(file).samples : 0;
      }
      // The other ranks take rank 0's count.
      if (group && group->world_size() > 1) {
        if (leader) group->publish(name + "-new", std::to_string(new_samples));
        new_samples = std::stoll(group->await(name + "-new"));
      }
      steps = steps_for_generation(c, new_samples);
      std::ostringstream line;
      line << "  " << name << ": " << steps << " steps for " << new_samples
           << " new samples (reuse " << c.window.reuse << ")";
      log(line.str());
    }
    // Each agent trains on its seat's samples (the shared network on all). A seat without
    // samples in the window (possible in tiny runs) keeps its network for this generation.
    std::vector<TrainingMetrics> rows;
    for (size_t a = 0; a < names.size(); ++a) {
      const int seat = per_seat ? static_cast<int>(a) : -1;
      if (per_seat && window.seat_size(seat) == 0) {
        log("  " + name + ": no samples of seat " + names[a] + " in the window; not trained");
        continue;
      }
      std::vector<TrainingMetrics> agent_rows = trainers[a]->train(
          [&](int batch) { return window.sample_batch(batch, rng, seat); }, steps);
      for (const TrainingMetrics& m : agent_rows) {
        if (!leader) break;
        append_csv(
            path("training.csv"), training_csv_header(per_seat, c.network.soft_policy),
            training_csv_row(generation, m, per_seat ? names[a] : "", c.network.soft_policy));
      }
      rows.insert(rows.end(), agent_rows.begin(), agent_rows.end());
    }
    if (budget == 0 && c.window.steps_per_generation == 0)
      for (const auto& trainer : trainers)
        trainer->set_total_steps(trainer->step() +
                                 static_cast<int64_t>(c.run.generations - generation - 1) * steps);
    save_all(generation + 1);
    const std::string validation = leader ? validate_generation(generation, trainers, rows) : "";
    try {
      if (clock) clock->record(generation, now_seconds() - generation_start);
    } catch (const std::runtime_error& e) {
      throw RunError(e.what());
    }
    spent = synced_seconds(name + "-clock");
    if (budget > 0) follow_the_clock();
    const double elapsed = now_seconds() - started;
    const int done = generation + 1 - first;
    double eta = elapsed / done * (c.run.generations - generation - 1);
    if (budget > 0) eta = std::min(eta, std::max(0.0, budget - spent));
    log(generation_progress(generation, c.run.generations, window.size(), rows, validation,
                            now_seconds() - generation_start, eta));
    if (leader) plot();
  }
  wait_for_games();
  log("finished: " + checkpoint_path(generation, names.front()) +
      (per_seat ? " (and the other seats')" : ""));
}

}  // namespace fairyzero
