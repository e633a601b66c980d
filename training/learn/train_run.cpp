// The generation loop: self-play with the newest network, samples to HDF5, training on the
// window, a checkpoint; progress lines, CSV metrics and the learning-curve plot.
#include "training/learn/train_run.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <iomanip>
#include <mutex>
#include <sstream>

#include "core/rules_fingerprint.h"
#include "core/variant_loader.h"
#include "mcts/inference_server.h"
#include "nn/checkpoint.h"
#include "nn/encoder.h"
#include "nn/network_evaluator.h"
#include "training/data/sample_store.h"
#include "training/learn/league.h"
#include "training/learn/self_play.h"
#include "training/learn/trainer.h"
#include "training/play/run_program.h"

namespace fairyzero {
namespace fs = std::filesystem;

namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Writes a whole text file under a temporary name and renames it, so readers see all or nothing.
void write_file_atomically(const std::string& path, const std::string& text) {
  std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << text;
    if (!out.flush()) throw RunError("cannot write " + temporary);
  }
  fs::rename(temporary, path);
}

// Keeps the header and the rows whose first column (the generation) is below `limit`: rows of
// an interrupted generation are dropped before it is redone.
void truncate_csv(const std::string& path, int limit) {
  std::ifstream in(path);
  if (!in) return;
  std::string line, kept;
  bool header = true;
  while (std::getline(in, line)) {
    if (header || std::stoi(line.substr(0, line.find(','))) < limit) kept += line + "\n";
    header = false;
  }
  in.close();
  write_file_atomically(path, kept);
}

void append_csv(const std::string& path, const std::string& header, const std::string& row) {
  bool fresh = !fs::exists(path);
  std::ofstream out(path, std::ios::app);
  if (fresh) out << header << "\n";
  out << row << "\n";
  if (!out.flush()) throw RunError("cannot append to " + path);
}

std::string format_seconds(double s) {
  char text[32];
  if (s >= 3600)
    std::snprintf(text, sizeof text, "%dh%02dm", int(s / 3600), int(s / 60) % 60);
  else if (s >= 60)
    std::snprintf(text, sizeof text, "%dm%02ds", int(s / 60), int(s) % 60);
  else
    std::snprintf(text, sizeof text, "%.0fs", s);
  return text;
}

// What this run's sample files say about themselves (the network is filled in per file).
SampleFileInfo sample_file_info(const Encoder& encoder) {
  const Variant& variant = encoder.variant();
  SampleFileInfo info;
  info.schema_version = kSampleSchemaVersion;
  info.variant = variant.name;
  const RulesFields rules = rules_fields(variant);
  info.rules_fingerprint = rules_fingerprint(rules);
  info.rules = rules_fields_text(rules);
  info.encoder_version = Encoder::kVersion;
  info.planes = encoder.plane_count();
  info.cells = encoder.cells();
  info.value_heads = encoder.value_heads();
  info.seats = variant.seat_count();
  return info;
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

std::shared_ptr<Evaluator> TrainingRun::earlier_network(int generation, int agent) {
  std::lock_guard lock(earlier_mutex_);
  std::shared_ptr<Evaluator>& network = earlier_[{generation, agent}];
  if (!network) {
    const std::string seat = agents().at(agent);
    network = std::make_shared<NetworkEvaluator>(
        variant_, load_checkpoint(checkpoint_path(generation, seat), variant_, seat),
        NetworkEvaluatorOptions{.device = config_.run.device,
                                .precision = parse_precision(config_.inference.precision)});
  }
  return network;
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

void TrainingRun::self_play_generation(int generation,
                                       const std::vector<std::shared_ptr<Evaluator>>& networks,
                                       int network_generation,
                                       const std::function<void(const std::string&)>& log) {
  const TrainConfig& c = config_;
  const std::string network_name = generation_name(network_generation);
  const VariantPtr& variant = variant_;
  // Each self-play worker keeps `batches_in_flight` requests waiting at most: with all of them
  // queued the batch can grow no more, so it goes without waiting out the deadline. Every
  // server of the generation (league lineups, per-seat networks) takes turns on the one device:
  // one batch at a time on the CPU, one per server thread (each its own stream) on CUDA.
  const bool cuda = c.run.device.rfind("cuda", 0) == 0;
  const InferenceServerConfig server_config{
      .max_batch = c.inference.max_batch,
      .max_wait_us = c.inference.max_wait_us,
      .clients = c.selfplay.workers * c.selfplay.batches_in_flight,
      .threads = c.inference.server_threads,
      .gate = std::make_shared<DeviceGate>(cuda ? c.inference.server_threads : 1)};
  InferenceServer server(networks.front(), server_config);
  const SelfPlayConfig& selfplay = c.selfplay;
  // One shared network without league play: every game through one server, as always.
  // Otherwise each game draws its lineup.
  std::unique_ptr<League> league;
  Matchmaker matchmaker;
  if (c.agents.per_seat() || c.agents.league_probability > 0) {
    league = std::make_unique<League>(
        variant, networks, network_generation, c.agents.league_probability,
        [this](int g, int agent) { return earlier_network(g, agent); }, server_config);
    matchmaker = [&league](std::mt19937_64& rng) { return league->draw(rng); };
  }
  // The first generation of this process makes the games' slots; later ones hand their new
  // players to the games carried over.
  if (!self_play_) {
    SelfPlayConfig first = selfplay;
    first.seed = c.run.seed * 1000 + static_cast<uint64_t>(generation);
    self_play_ = std::make_unique<SelfPlay>(variant, server, first, matchmaker);
  } else {
    self_play_->set_players(server, matchmaker);
  }
  SelfPlay& play = *self_play_;
  std::vector<Sample> samples;
  std::vector<GameRecord> games;
  double last_line = now_seconds();
  const std::string name = generation_name(generation);
  SelfPlayStats stats = play.run(samples, games, [&](const SelfPlayStats& s) {
    if (now_seconds() - last_line < 2.0 && s.games < selfplay.games) return;
    last_line = now_seconds();
    double eta = s.games > 0 ? s.seconds * (selfplay.games - s.games) / s.games : 0;
    std::ostringstream line;
    line << std::fixed << std::setprecision(0) << "  " << name << " self-play: " << s.games << "/"
         << selfplay.games << " games, " << s.moves << " positions (" << s.moves_per_second()
         << "/s, " << (s.seconds > 0 ? s.evaluated / s.seconds : 0) << " evaluations/s), "
         << s.samples << " samples, ETA " << format_seconds(eta);
    log(line.str());
  });
  server.shutdown();
  if (league) {
    league->shutdown();
    league_games_ += league->league_games();
  }
  SampleFileInfo info = sample_file_info(Encoder(variant));
  info.network = network_name;
  write_sample_file(path("samples/" + name + ".h5"), info, samples);
  std::string text;
  for (const GameRecord& g : games) {
    std::ostringstream line;
    line << g.termination << " |";
    for (int s = 0; s < variant->seat_count(); ++s)
      line << " " << variant->seats[s].name << "=" << g.score[s];
    line << " | " << g.plies << " plies | ";
    if (!g.networks.empty()) line << g.networks << " | ";
    line << g.moves << "\n";
    text += line.str();
  }
  write_file_atomically(path("games/" + name + ".txt"), text);
  std::ostringstream row;
  row << generation << "," << stats.games << "," << stats.moves << "," << stats.samples << ","
      << stats.seconds << "," << stats.moves_per_second() << ","
      << (stats.seconds > 0 ? stats.evaluated / stats.seconds : 0) << "," << stats.mean_plies()
      << "," << stats.terminations["resignation"] << "," << stats.resign_checks << ","
      << stats.false_resigns;
  double draws = 0;
  for (const GameRecord& g : games) draws += g.score[0] == 0.5;
  row << "," << (stats.games ? draws / stats.games : 0);
  for (int s = 0; s < variant->seat_count(); ++s)
    row << "," << (stats.games ? stats.score_sum[s] / stats.games : 0);
  std::string header =
      "generation,games,positions,samples,seconds,positions_per_second,evaluations_per_second,"
      "mean_plies,resignations,resign_checks,false_resigns,draw_rate";
  for (int s = 0; s < variant->seat_count(); ++s) header += ",score_" + variant->seats[s].name;
  append_csv(path("selfplay.csv"), header, row.str());
  std::ostringstream done;
  done << std::fixed << std::setprecision(1) << "  " << name << " self-play done: " << stats.games
       << " games in " << format_seconds(stats.seconds) << ", " << stats.moves_per_second()
       << " positions/s, " << stats.samples << " samples, mean length " << stats.mean_plies()
       << " plies, draws " << 100 * (stats.games ? draws / stats.games : 0) << "%";
  log(done.str());
}

void TrainingRun::run(const std::function<void(const std::string&)>& raw_log) {
  const TrainConfig& c = config_;
  std::mutex log_mutex;  // self-play may report from another thread (overlap)
  auto log = [&](const std::string& line) {
    std::lock_guard lock(log_mutex);
    raw_log(line);
  };
  const VariantPtr& variant = variant_;
  for (const char* sub : {"checkpoints", "samples", "games"}) fs::create_directories(path(sub));
  Encoder encoder(variant);
  TrainerConfig trainer_config = c.trainer;
  trainer_config.device = c.run.device;
  trainer_config.total_steps =
      static_cast<int64_t>(c.run.generations) * c.window.steps_per_generation;
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
    for (size_t a = 0; a < names.size(); ++a)
      trainers[a]->save(checkpoint_path(g, names[a]), optimizer_path(names[a]), names[a]);
  };
  auto snapshots = [&] {
    std::vector<std::shared_ptr<Evaluator>> out;
    for (const auto& trainer : trainers) out.push_back(snapshot(*trainer));
    return out;
  };
  int generation = load_newest_good(trainers, log);
  if (generation >= 0) {
    log("resuming " + dir_ + " after generation " + std::to_string(generation) + " of " +
        std::to_string(c.run.generations));
  } else {
    generation = 0;
    save_all(0);
    log("new run " + dir_ + ": " + variant->title + ", network " + describe(c.network) +
        (per_seat ? " per seat" : "") + ", " + std::to_string(c.run.generations) + " generations");
  }
  // Rows of a generation that did not finish are redone.
  truncate_csv(path("training.csv"), generation);
  if (!fs::exists(path("samples/" + generation_name(generation) + ".h5")))
    truncate_csv(path("selfplay.csv"), generation);
  SampleWindow window(path("samples"), sample_file_info(encoder), c.window.samples);
  std::mt19937_64 rng(c.run.seed);
  const double started = now_seconds();
  const int first = generation;
  // With `overlap`, the games of generation g+1 are played by a snapshot of the network that
  // played generation g while the trainer turns it into g+1 (one generation of lag, as in
  // KataGo): the GPU is busy with both. The sample file records which network played.
  std::future<void> next_games;
  auto wait_for_games = [&] {
    if (next_games.valid()) next_games.get();
  };
  for (; generation < c.run.generations; ++generation) {
    const double generation_start = now_seconds();
    const std::string name = generation_name(generation);
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
    // Each agent trains on its seat's samples (the shared network on all). A seat without
    // samples in the window (possible in tiny runs) keeps its network for this generation.
    std::vector<TrainingMetrics> rows;
    for (size_t a = 0; a < names.size(); ++a) {
      const int seat = per_seat ? static_cast<int>(a) : -1;
      if (per_seat && window.seat_size(seat) == 0) {
        log("  " + name + ": no samples of seat " + names[a] + " in the window; not trained");
        continue;
      }
      std::vector<TrainingMetrics> agent_rows =
          trainers[a]->train([&](int batch) { return window.sample_batch(batch, rng, seat); },
                             c.window.steps_per_generation);
      for (const TrainingMetrics& m : agent_rows) {
        std::ostringstream row;
        row << generation << "," << m.step << "," << m.learning_rate << "," << m.policy_loss << ","
            << m.value_loss << "," << m.total_loss << "," << m.policy_entropy << ","
            << m.value_accuracy << "," << m.samples_per_second;
        if (per_seat) row << "," << names[a];
        append_csv(path("training.csv"),
                   std::string("generation,step,learning_rate,policy_loss,value_loss,total_loss,"
                               "policy_entropy,value_accuracy,samples_per_second") +
                       (per_seat ? ",seat" : ""),
                   row.str());
      }
      rows.insert(rows.end(), agent_rows.begin(), agent_rows.end());
    }
    save_all(generation + 1);
    const double elapsed = now_seconds() - started;
    const int done = generation + 1 - first;
    std::ostringstream line;
    line << std::fixed << std::setprecision(3) << "generation " << generation + 1 << "/"
         << c.run.generations << ": window " << window.size() << " samples";
    if (!rows.empty())
      line << ", policy loss " << rows.back().policy_loss << ", value loss "
           << rows.back().value_loss << ", value accuracy " << std::setprecision(2)
           << rows.back().value_accuracy << ", " << std::setprecision(0)
           << rows.back().samples_per_second << " samples/s";
    line << ", " << format_seconds(now_seconds() - generation_start) << ", ETA "
         << format_seconds(elapsed / done * (c.run.generations - generation - 1));
    log(line.str());
    plot();
  }
  log("finished: " + checkpoint_path(c.run.generations, names.front()) +
      (per_seat ? " (and the other seats')" : ""));
}

}  // namespace fairyzero
