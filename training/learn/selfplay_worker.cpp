// The self-play worker loop: wait for a checkpoint, play K games, publish them, look for a
// newer network, again, until the run has its last generation.
#include "training/learn/selfplay_worker.h"

#include <chrono>
#include <filesystem>
#include <iomanip>
#include <sstream>
#include <thread>

#include "core/temporary_file.h"
#include "nn/network_evaluator.h"
#include "training/cluster/lease.h"
#include "training/cluster/run_files.h"
#include "training/data/sample_store.h"
#include "training/learn/generation_player.h"
#include "training/learn/train_config.h"
#include "training/learn/train_run.h"
#include "training/learn/validation.h"

namespace fairyzero {
namespace fs = std::filesystem;
namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A seed of its own for every (run seed, worker, first file of this start): a restarted
// worker repeats none of its earlier games, and no two workers play the same ones.
uint64_t worker_seed(uint64_t run_seed, int worker, int64_t sequence) {
  uint64_t x = run_seed ^ (static_cast<uint64_t>(worker) << 40) ^
               (static_cast<uint64_t>(sequence) * 0x9E3779B97F4A7C15ull);
  // splitmix64's finaliser
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

bool bootstrap_generation_played(const std::string& run_dir, const TrainConfig& config,
                                 int generation) {
  if (worker_games_of_generation(run_dir, generation) < config.selfplay.games) return false;
  int64_t samples = 0;
  std::error_code ec;
  for (fs::directory_iterator it(fs::path(run_dir) / "samples", ec), end; !ec && it != end;
       it.increment(ec)) {
    const auto file = parse_worker_file(it->path().filename().string());
    if (file && file->generation == generation && it->path().extension() == ".h5")
      samples += read_sample_file_info(it->path().string()).samples;
  }
  return samples >= external_samples_per_generation(config);
}

SelfPlayWorker::SelfPlayWorker(std::string run_dir, const WorkerOptions& options)
    : run_dir_(std::move(run_dir)), options_(options) {
  run_ = std::make_unique<TrainingRun>(run_dir_);
  disable_hdf5_file_locking();
  lease_ = std::make_unique<Lease>(
      worker_lease_path(run_dir_, options_.worker),
      "self-play worker " + std::to_string(options_.worker) + " of " + run_dir_);
}

SelfPlayWorker::~SelfPlayWorker() = default;

void SelfPlayWorker::release_lease() { lease_.reset(); }

bool SelfPlayWorker::run(const std::function<void(const std::string&)>& log) {
  TrainConfig config = run_->config();
  const TrainConfig run_config = config;  // before the per-file games below
  if (!options_.device.empty()) config.run.device = options_.device;
  // By default a file holds as many games as the worker plays at once: small enough that it
  // looks for a newer network often, large enough that files stay few.
  config.selfplay.games = options_.games_per_file > 0
                              ? options_.games_per_file
                              : config.selfplay.workers * config.selfplay.games_per_worker;
  const std::string tag = "w" + std::to_string(options_.worker);
  const std::string samples = run_->path("samples"), games = run_->path("games");
  for (const std::string& folder : {samples, games, run_->path("validation")}) {
    fs::create_directories(folder);
    for (const std::string& removed : sweep_temporaries(folder, options_.sweep_after_seconds))
      log(tag + ": swept " + removed + " (left by a writer that was stopped mid-write)");
  }
  sequence_ = highest_worker_sequence(samples, options_.worker) + 1;
  GenerationPlayer player(
      run_->variant(), config, run_->agents(),
      [this](int g, const std::string& agent) { return run_->checkpoint_path(g, agent); },
      worker_seed(config.run.seed, options_.worker, sequence_));
  log(tag + ": self-play worker of " + run_dir_ + " (" + run_->variant()->title + "), " +
      std::to_string(config.selfplay.games) + " games per file, from file " +
      std::to_string(sequence_) + " on " + config.run.device + " (" +
      precision_name(
          precision_on_device(config.run.device, parse_precision(config.inference.precision))) +
      ")");

  double last_wait_line = -1e9;
  int loaded = -1;
  std::vector<std::shared_ptr<Evaluator>> networks;
  while (!stop_requested_) {
    const int newest = run_->finished_generations();
    if (newest >= config.run.generations) {
      // The run may have been extended (train RUN --generations N) since this worker read it.
      run_ = std::make_unique<TrainingRun>(run_dir_);
      config.run.generations = run_->config().run.generations;
    }
    if (newest >= config.run.generations) {
      log(tag + ": the run has its last generation (" + std::to_string(newest) + "); worker stops");
      return true;
    }
    if (newest < 0) {
      if (now_seconds() - last_wait_line >= 30) {
        last_wait_line = now_seconds();
        log(tag + ": waiting for the run's first checkpoint in " + run_->path("checkpoints"));
      }
      std::this_thread::sleep_for(std::chrono::duration<double>(options_.poll_seconds));
      continue;
    }
    if (newest != loaded) {
      networks.clear();
      for (size_t a = 0; a < run_->agents().size(); ++a)
        networks.push_back(player.load_network(newest, static_cast<int>(a)));
      log(tag + ": playing with " + generation_name(newest));
      loaded = newest;
    }
    if (loaded < config.agents.bootstrap_generations &&
        bootstrap_generation_played(run_dir_, run_config, loaded)) {
      if (now_seconds() - last_wait_line >= 30) {
        last_wait_line = now_seconds();
        log(tag + ": the material search has played " + generation_name(loaded) +
            "'s bootstrap games; waiting for the trainer's next checkpoint");
      }
      std::this_thread::sleep_for(std::chrono::duration<double>(options_.poll_seconds));
      continue;
    }
    const WorkerFile file{loaded, options_.worker, sequence_};
    const std::string stem = worker_file_stem(file);
    const PlayedGames played = player.play(networks, loaded, tag + " " + stem, log);
    {
      std::lock_guard publishing(publish_mutex_);
      if (!lease_ || !lease_->held())
        throw RunError(worker_lease_path(run_dir_, options_.worker) +
                       " was taken by another process while this worker stalled; not "
                       "publishing " +
                       stem);
      publish_played_games(run_->variant(), played, config, generation_name(loaded), run_dir_,
                           stem);
      ++sequence_;
    }
    std::ostringstream line;
    int held_out = 0;
    for (const GameRecord& game : played.games)
      held_out += is_validation_game(game, config.window.validation_fraction, config.run.seed);
    line << std::fixed << std::setprecision(1) << tag << ": published samples/" << stem
         << ".h5: " << played.games.size() << " games (" << held_out << " held out), "
         << played.samples.size() << " samples, " << played.stats.moves_per_second()
         << " positions/s";
    log(line.str());
  }
  log(tag + ": stopped as asked, after file " + std::to_string(sequence_ - 1));
  return false;
}

}  // namespace fairyzero
