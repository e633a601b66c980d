// The generation loop of `fairyzero train`: samples, training, checkpoint, validation, clock.
#include "training/learn/generation_loop.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <sstream>
#include <thread>

#include "core/temporary_file.h"
#include "nn/checkpoint.h"
#include "nn/network_evaluator.h"
#include "training/cluster/run_files.h"
#include "training/data/sample_store.h"
#include "training/learn/generation_player.h"
#include "training/learn/mirror_augmentation.h"
#include "training/learn/run_csv.h"
#include "training/learn/trainer_group.h"
#include "training/learn/validation.h"

namespace fairyzero {
namespace fs = std::filesystem;

namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
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

// Errors of the run's own files are the run's errors (their messages name the file).
template <typename Action>
auto as_run_error(Action action) {
  try {
    return action();
  } catch (const RunError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw RunError(e.what());
  }
}

}  // namespace

GenerationLoop::GenerationLoop(TrainingRun& run, const TrainingOptions& options, Log raw_log)
    : run_(run),
      config_(run.config()),
      options_(options),
      group_(options.group),
      leader_(!options.group || options.group->rank() == 0),
      raw_log_(std::move(raw_log)),
      encoder_(run.variant()),
      names_(run.agents()),
      per_seat_(run.config().agents.per_seat()),
      rng_(run.config().run.seed +
           (options.group ? 7919 * static_cast<uint64_t>(options.group->rank()) : 0)),
      budget_(run.config().run.minutes * 60) {
  if (group_ && group_->world_size() > 1 && !options_.external_selfplay)
    throw RunError("a data-parallel trainer (" + std::to_string(group_->world_size()) +
                   " ranks) trains on external self-play: add --selfplay external and start "
                   "fairyzero selfplay workers on " +
                   run_.dir());
  log_ = [this](const std::string& line) { this->log(line); };
  disable_hdf5_file_locking();
  // The ranks of one trainer are one trainer: rank 0 holds the run.
  if (leader_) lease_.emplace(trainer_lease_path(run_.dir()), "the trainer of " + run_.dir());
  for (const char* sub : {"checkpoints", "samples", "games", "validation"})
    fs::create_directories(run_.path(sub));
  make_trainers();
  generation_ = resume_or_start();
  join_ranks();
  if (leader_) truncate_unfinished_rows();
  window_.emplace(run_.path("samples"), sample_file_info(encoder_), config_.window.samples);
  // The time budget counts this run's generations over all its sessions (rank 0's clock).
  if (leader_) as_run_error([&] { clock_.emplace(run_.path("clock.csv"), generation_); });
  spent_ = synced_seconds("clock-start");
  if (budget_ > 0 && spent_ > 0) follow_the_clock();
}

GenerationLoop::~GenerationLoop() = default;

void GenerationLoop::log(const std::string& line) {
  if (!leader_) return;
  std::lock_guard lock(log_mutex_);
  raw_log_(line);
}

void GenerationLoop::make_trainers() {
  TrainerConfig trainer_config = config_.trainer;
  trainer_config.device = config_.run.device;
  // With steps from reuse, a first guess of the schedule's length (about 16 samples a game),
  // corrected after every generation from the steps it took.
  const int64_t guessed_steps =
      config_.window.steps_per_generation > 0
          ? config_.window.steps_per_generation
          : steps_for_generation(config_, static_cast<int64_t>(config_.selfplay.games) * 16);
  trainer_config.total_steps = static_cast<int64_t>(config_.run.generations) * guessed_steps;
  // One network and optimizer per agent: the shared one, or each seat's.
  for (size_t a = 0; a < names_.size(); ++a)
    trainers_.push_back(std::make_unique<Trainer>(encoder_, config_.network, trainer_config));
}

int GenerationLoop::resume_or_start() {
  if (!leader_) return -1;  // told by rank 0 in join_ranks
  const int generation = load_newest_good();
  if (generation >= 0) {
    log("resuming " + run_.dir() + " after generation " + std::to_string(generation) + " of " +
        std::to_string(config_.run.generations));
    return generation;
  }
  save_all(0);
  log("new run " + run_.dir() + ": " + run_.variant()->title + ", network " +
      describe(config_.network) + (per_seat_ ? " per seat" : "") + ", " +
      std::to_string(config_.run.generations) + " generations" +
      (options_.external_selfplay ? ", external self-play" : ""));
  return 0;
}

int GenerationLoop::load_newest_good() {
  for (int generation = run_.finished_generations(); generation >= 0;
       generation = run_.finished_generations()) {
    bool loaded = true;
    for (size_t a = 0; a < names_.size() && loaded; ++a) {
      const std::string checkpoint = run_.checkpoint_path(generation, names_[a]);
      try {
        trainers_[a]->load(checkpoint, "", names_[a]);
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
    for (size_t a = 0; a < names_.size(); ++a) {
      const std::string checkpoint = run_.checkpoint_path(generation, names_[a]);
      try {
        trainers_[a]->load(checkpoint, optimizer_path(names_[a]), names_[a]);
      } catch (const CheckpointError& e) {
        log("warning: " + std::string(e.what()) + "; training goes on with a fresh optimizer");
        trainers_[a]->load(checkpoint, "", names_[a]);
      }
    }
    return generation;
  }
  return -1;
}

void GenerationLoop::join_ranks() {
  if (!group_ || group_->world_size() <= 1) return;
  // The other ranks load the same files (for the optimizer's state), then take rank 0's
  // weights so that all start as one network.
  if (leader_) group_->publish("start", std::to_string(generation_));
  generation_ = std::stoi(group_->await("start"));
  for (size_t a = 0; a < names_.size(); ++a) {
    if (!leader_)
      trainers_[a]->load(run_.checkpoint_path(generation_, names_[a]), optimizer_path(names_[a]),
                         names_[a]);
    trainers_[a]->set_gradient_sync(group_);
  }
  log("data-parallel trainer: " + std::to_string(group_->world_size()) + " ranks, " +
      std::to_string(config_.trainer.batch_size / group_->world_size()) +
      " samples per rank and step");
}

void GenerationLoop::truncate_unfinished_rows() {
  // Rows of a generation that did not finish are redone.
  for (const char* file : {"training.csv", "external.csv", "validation.csv", "clock.csv"})
    truncate_csv(run_.path(file), generation_);
  if (!options_.external_selfplay &&
      !fs::exists(run_.path("samples/" + generation_name(generation_) + ".h5")))
    truncate_csv(run_.path("selfplay.csv"), generation_);
}

void GenerationLoop::save_all(int generation) {
  if (!leader_) return;
  if (!lease_->held())
    throw RunError("lost " + lease_->path() + " (another trainer broke it while this one " +
                   "stalled); not writing generation " + std::to_string(generation));
  for (size_t a = 0; a < names_.size(); ++a)
    trainers_[a]->save(run_.checkpoint_path(generation, names_[a]), optimizer_path(names_[a]),
                       names_[a]);
}

std::vector<std::shared_ptr<Evaluator>> GenerationLoop::snapshots() const {
  std::vector<std::shared_ptr<Evaluator>> networks;
  for (const auto& trainer : trainers_)
    networks.push_back(std::make_shared<NetworkEvaluator>(
        run_.variant(), trainer->network(),
        NetworkEvaluatorOptions{.device = config_.run.device,
                                .precision = parse_precision(config_.inference.precision)}));
  return networks;
}

std::string GenerationLoop::optimizer_path(const std::string& agent) const {
  return run_.path("checkpoints/optimizer" + (agent.empty() ? "" : "-" + agent) + ".pt");
}

double GenerationLoop::synced_seconds(const std::string& key) {
  double seconds = clock_ ? clock_->elapsed_seconds() : 0;
  if (group_ && group_->world_size() > 1) {
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", seconds);
    if (leader_) group_->publish(key, text);
    seconds = std::stod(group_->await(key));
  }
  return seconds;
}

void GenerationLoop::follow_the_clock() {
  for (const auto& trainer : trainers_)
    trainer->set_total_steps(schedule_steps_for_budget(trainer->step(), spent_, budget_));
}

bool GenerationLoop::budget_spent(int generation) {
  if (budget_ <= 0 || spent_ < budget_) return false;
  std::ostringstream line;
  line << std::fixed << std::setprecision(1) << "time budget spent: " << spent_ / 60 << " of "
       << config_.run.minutes << " minutes after generation " << generation;
  log(line.str());
  return true;
}

int GenerationLoop::run() {
  const double started = now_seconds();
  const int first = generation_;
  for (; generation_ < config_.run.generations && !budget_spent(generation_); ++generation_) {
    const double generation_start = now_seconds();
    const int64_t new_samples = gather_samples(generation_);
    const int steps = steps_for(generation_, new_samples);
    const std::vector<TrainingMetrics> rows = train_agents(generation_, steps);
    const std::string validation = finish_generation(generation_, steps, rows, generation_start);
    const double elapsed = now_seconds() - started;
    double eta = elapsed / (generation_ + 1 - first) * (config_.run.generations - generation_ - 1);
    if (budget_ > 0) eta = std::min(eta, std::max(0.0, budget_ - spent_));
    log(generation_progress(generation_, config_.run.generations, window_->size(), rows, validation,
                            now_seconds() - generation_start, eta));
    if (leader_) run_.plot();
  }
  if (next_games_.valid()) next_games_.get();
  return generation_;
}

int64_t GenerationLoop::gather_samples(int generation) {
  if (options_.external_selfplay) return gather_external_samples(generation);
  play_own_games(generation);
  if (config_.window.steps_per_generation > 0) return 0;
  const std::string file = run_.path("samples/" + generation_name(generation) + ".h5");
  return fs::exists(file) ? read_sample_file_info(file).samples : 0;
}

int64_t GenerationLoop::gather_external_samples(int generation) {
  const std::string name = generation_name(generation);
  int64_t new_samples = 0;
  if (leader_) {
    const std::string row = wait_for_samples(generation, new_samples);
    append_csv(run_.path("external.csv"), kExternalHeader, row);
    grow_window();
    // The other ranks train on the very files (and capacity) rank 0 chose.
    if (group_ && group_->world_size() > 1)
      group_->publish(name + "-files", window_choice(*window_));
  } else {
    take_window_choice(*window_, group_->await(name + "-files"));
  }
  return new_samples;
}

void GenerationLoop::play_own_games(int generation) {
  if (next_games_.valid()) next_games_.get();
  const std::string name = generation_name(generation);
  if (!fs::exists(run_.path("samples/" + name + ".h5")))
    run_.self_play_generation(generation, snapshots(), generation, log_);
  else
    log("  " + name + " self-play: samples on disk");
  const std::string next = generation_name(generation + 1);
  if (config_.run.overlap && generation + 1 < config_.run.generations &&
      !fs::exists(run_.path("samples/" + next + ".h5"))) {
    // Taken before training changes the networks.
    std::vector<std::shared_ptr<Evaluator>> networks = snapshots();
    next_games_ = std::async(std::launch::async, [this, generation, networks] {
      run_.self_play_generation(generation + 1, networks, generation, log_);
    });
  }
  window_->refresh();
  grow_window();
}

void GenerationLoop::grow_window() {
  const int64_t capacity = window_capacity(config_.window, window_->published());
  if (capacity == window_->capacity()) return;
  window_->set_capacity(capacity);
  window_->refresh();
}

int GenerationLoop::steps_for(int generation, int64_t new_samples) {
  // Fixed, or `reuse` passes over the generation's new samples.
  if (config_.window.steps_per_generation > 0) return config_.window.steps_per_generation;
  const std::string name = generation_name(generation);
  // The other ranks take rank 0's count.
  if (group_ && group_->world_size() > 1) {
    if (leader_) group_->publish(name + "-new", std::to_string(new_samples));
    new_samples = std::stoll(group_->await(name + "-new"));
  }
  const int steps = steps_for_generation(config_, new_samples);
  std::ostringstream line;
  line << "  " << name << ": " << steps << " steps for " << new_samples << " new samples (reuse "
       << config_.window.reuse << ")";
  log(line.str());
  return steps;
}

std::vector<TrainingMetrics> GenerationLoop::train_agents(int generation, int steps) {
  // Each agent trains on its seat's samples (the shared network on all). A seat without
  // samples in the window (possible in tiny runs) keeps its network for this generation.
  const std::string name = generation_name(generation);
  const bool soft = config_.network.soft_policy;
  std::vector<TrainingMetrics> rows;
  for (size_t a = 0; a < names_.size(); ++a) {
    const int seat = per_seat_ ? static_cast<int>(a) : -1;
    if (per_seat_ && window_->seat_size(seat) == 0) {
      log("  " + name + ": no samples of seat " + names_[a] + " in the window; not trained");
      continue;
    }
    std::vector<TrainingMetrics> agent_rows = trainers_[a]->train(
        [&](int batch) {
          TrainingBatch drawn = window_->sample_batch(batch, rng_, seat);
          if (config_.window.mirror_files) mirror_files_at_random(drawn, encoder_, rng_);
          return drawn;
        },
        steps);
    for (const TrainingMetrics& m : agent_rows) {
      if (!leader_) break;
      append_csv(run_.path("training.csv"), training_csv_header(per_seat_, soft),
                 training_csv_row(generation, m, per_seat_ ? names_[a] : "", soft));
    }
    rows.insert(rows.end(), agent_rows.begin(), agent_rows.end());
  }
  return rows;
}

std::string GenerationLoop::finish_generation(int generation, int steps,
                                              const std::vector<TrainingMetrics>& rows,
                                              double generation_start) {
  if (budget_ == 0 && config_.window.steps_per_generation == 0)
    for (const auto& trainer : trainers_)
      trainer->set_total_steps(
          trainer->step() + static_cast<int64_t>(config_.run.generations - generation - 1) * steps);
  save_all(generation + 1);
  const std::string validation = leader_ ? validate_generation(generation, rows) : "";
  if (clock_) as_run_error([&] { clock_->record(generation, now_seconds() - generation_start); });
  spent_ = synced_seconds(generation_name(generation) + "-clock");
  if (budget_ > 0) follow_the_clock();
  return validation;
}

std::string GenerationLoop::wait_for_samples(int generation, int64_t& new_samples) {
  // Samples published when the previous generation began training: those since are new. A
  // restarted trainer reads it back from external.csv.
  const std::string before = generation_field(run_.path("external.csv"), generation - 1, 1);
  const int64_t baseline = before.empty() ? 0 : std::stoll(before);
  const int64_t needed = external_samples_per_generation(config_);
  SampleWindow& window = *window_;
  const double started = now_seconds();
  double last_line = 0, last_sweep = 0;
  for (;;) {
    if (now_seconds() - last_sweep > 60) {
      last_sweep = now_seconds();
      for (const char* folder : {"samples", "games", "validation"})
        for (const std::string& removed :
             sweep_temporaries(run_.path(folder), options_.sweep_after_seconds))
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
    std::this_thread::sleep_for(std::chrono::duration<double>(options_.poll_seconds));
  }
}

std::string GenerationLoop::validate_generation(int generation,
                                                const std::vector<TrainingMetrics>& rows) {
  SampleWindow held_out(run_.path("validation"), sample_file_info(encoder_),
                        config_.window.validation_window);
  if (held_out.refresh() == 0) return "";
  const bool soft = config_.network.soft_policy;
  double train_policy = 0, train_value = 0;
  for (const TrainingMetrics& m : rows) {
    train_policy += m.policy_loss / static_cast<double>(rows.size());
    train_value += m.value_loss / static_cast<double>(rows.size());
  }
  const std::string header =
      std::string(
          "generation,samples,policy_loss,value_loss,calibration_error,predicted_score,"
          "observed_score,training_policy_loss,training_value_loss") +
      (per_seat_ ? ",seat" : "") + ",moves_left_loss" + (soft ? ",soft_policy_loss" : "");
  std::ostringstream summary;
  for (size_t a = 0; a < names_.size(); ++a) {
    const int seat = per_seat_ ? static_cast<int>(a) : -1;
    const ValidationMetrics v = validate(*trainers_[a], held_out, config_.trainer.batch_size, seat);
    if (v.samples == 0) continue;
    std::ostringstream row;
    row << generation << "," << v.samples << "," << v.policy_loss << "," << v.value_loss << ","
        << v.calibration_error << "," << v.predicted_score << "," << v.observed_score << ","
        << train_policy << "," << train_value;
    if (per_seat_) row << "," << names_[a];
    row << "," << v.moves_left_loss;  // last, as in training.csv
    if (soft) row << "," << v.soft_policy_loss;
    append_csv(run_.path("validation.csv"), header, row.str());
    if (a == 0)
      summary << std::fixed << std::setprecision(3) << "; held out " << v.samples
              << ": policy loss " << v.policy_loss << ", value loss " << v.value_loss
              << ", calibration error " << v.calibration_error;
  }
  return summary.str();
}

}  // namespace fairyzero
