// One table declares every training setting: where it lives in the TOML file, its range and
// what it means. Reading, validation and writing all walk that table.
#include "training/learn/train_config.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <variant>

#include "core/file_mirror.h"
#include "core/strict_toml.h"
#include "mcts/search_settings.h"

namespace fairyzero {
namespace {

using Field = std::variant<int*, int64_t*, uint64_t*, double*, float*, bool*, std::string*,
                           std::vector<int64_t>*>;

// Whether a run may change a setting between generations (`train RUN --generations N` with
// another config): speed and placement settings may, what defines the games or the network not.
enum Change { kFixed, kMidRun };

struct Setting {
  const char* section;
  const char* key;
  Field field;
  double min, max;  // for numbers (each element of a list)
  const char* help;
  Change change = kFixed;
};

std::vector<Setting> settings(TrainConfig& c) {
  RunSettings& r = c.run;
  SelfPlayConfig& s = c.selfplay;
  TrainerConfig& t = c.trainer;
  std::vector<Setting> all = {
      {"run", "variant", &r.variant, 0, 0, "variant name (configs/variants/NAME.toml)"},
      {"run", "variant_options", &r.variant_options, 0, 0, "--set overrides, joined by '; '"},
      {"run", "generations", &r.generations, 1, 1e6, "self-play + training rounds", kMidRun},
      {"run", "minutes", &r.minutes, 0, 1e8,
       "time budget: stop after this many minutes of training, the schedule spread over them "
       "(0: none)",
       kMidRun},
      {"run", "seed", &r.seed, 0, 1e18, "seed of self-play and training"},
      {"run", "device", &r.device, 0, 0, "cpu, cuda or cuda:N", kMidRun},
      {"run", "overlap", &r.overlap, 0, 0, "play the next generation while training (GPU)",
       kMidRun},
      {"agents", "networks", &c.agents.networks, 0, 0,
       "shared (one network for all seats) or per-seat (one network per seat)"},
      {"agents", "league_probability", &c.agents.league_probability, 0, 1,
       "chance that a seat plays a game with a random earlier generation"},
      {"agents", "bootstrap_generations", &c.agents.bootstrap_generations, 0, 1e6,
       "the first N generations' games are played by the material search, not the networks"},
      {"network", "blocks", &c.network.blocks, 0, 64, "residual blocks"},
      {"network", "filters", &c.network.filters, 1, 1024, "trunk channels"},
      {"network", "policy_dim", &c.network.policy_dim, 1, 1024, "policy head query/key width"},
      {"network", "value_hidden", &c.network.value_hidden, 1, 4096, "value head hidden width"},
      {"network", "moves_left", &c.network.moves_left, 0, 0,
       "a moves-left head (plies to the end; false in runs from before it existed)"},
      {"network", "soft_policy", &c.network.soft_policy, 0, 0,
       "KataGo's auxiliary soft policy head (the visit target to the power 1/4)"},
      {"selfplay", "games", &s.games, 1, 1e7, "games per generation"},
      {"selfplay", "workers", &s.workers, 1, 256, "worker threads, each playing a group of games",
       kMidRun},
      {"selfplay", "games_per_worker", &s.games_per_worker, 1, 4096, "games at once per worker",
       kMidRun},
      {"selfplay", "carry_over", &s.carry_over, 0, 0,
       "games still going when a generation's quota is reached continue in the next one", kMidRun},
      {"selfplay", "batches_in_flight", &s.batches_in_flight, 1, 8,
       "evaluator calls each worker keeps in flight (its games in this many lanes)", kMidRun},
      {"selfplay", "leaves_per_game", &s.leaves_per_game, 1, 64, "leaves per game per batch",
       kMidRun},
      {"selfplay", "full_playouts", &s.full_playouts, 1, 1e6, "playouts of a full search"},
      {"selfplay", "fast_playouts", &s.fast_playouts, 1, 1e6, "playouts of a fast search"},
      {"selfplay", "full_search_probability", &s.full_search_probability, 0, 1,
       "share of moves searched fully (these become samples)"},
      {"selfplay", "temperature_start", &s.temperature_start, 0, 10, "move temperature early"},
      {"selfplay", "temperature_plies", &s.temperature_plies, 0, 1e6,
       "plies at the start temperature"},
      {"selfplay", "temperature_end", &s.temperature_end, 0, 10, "move temperature afterwards"},
      {"selfplay", "resign_threshold", &s.resign_threshold, -1, 0.5,
       "resign below this expected score (negative: never)"},
      {"selfplay", "resign_consecutive", &s.resign_consecutive, 1, 1000, "moves below it in a row"},
      {"selfplay", "no_resign_fraction", &s.no_resign_fraction, 0, 1,
       "games played out to check resigns"},
      {"selfplay", "max_plies", &s.max_plies, 0, 1e6, "games longer than this are draws (0: off)"},
      {"selfplay", "root_value_weight", &s.root_value_weight, 0, 1,
       "value target: this share from the search's root value, the rest from the game's result"},
      {"inference", "max_batch", &c.inference.max_batch, 1, 65536, "positions per forward pass",
       kMidRun},
      {"inference", "max_wait_us", &c.inference.max_wait_us, 0, 1e7, "wait for a fuller batch",
       kMidRun},
      {"inference", "precision", &c.inference.precision, 0, 0,
       "fp32, fp16 or bf16 inference (the CPU runs fp16 as fp32)", kMidRun},
      {"inference", "server_threads", &c.inference.server_threads, 1, 16,
       "server threads, each with its own stream on CUDA", kMidRun},
      {"training", "window", &c.window.samples, 1, 1e10, "newest samples trained on"},
      {"training", "validation_fraction", &c.window.validation_fraction, 0, 0.5,
       "share of each generation's games held out for validation, never trained on", kMidRun},
      {"training", "validation_window", &c.window.validation_window, 1, 1e9,
       "newest held-out samples the network is measured on after each generation", kMidRun},
      {"training", "steps_per_generation", &c.window.steps_per_generation, 0, 1e8,
       "optimizer steps (0: reuse x new samples / batch_size)"},
      {"training", "window_exponent", &c.window.window_exponent, 0, 1,
       "power-law window: exponent a (0: a fixed window)"},
      {"training", "window_growth", &c.window.window_growth, 0, 10, "power-law window: growth b"},
      {"training", "reuse", &c.window.reuse, 0.01, 1e6,
       "external self-play: samples trained per new sample (the trainer waits for "
       "steps_per_generation x batch_size / reuse new ones before a generation)",
       kMidRun},
      {"training", "mirror_files", &c.window.mirror_files, 0, 0,
       "train each sample mirrored left-right half the time (symmetric rules only)", kMidRun},
      {"training", "batch_size", &t.batch_size, 1, 65536,
       "samples per step (split among the ranks of a data-parallel trainer)"},
      {"training", "optimizer", &t.optimizer, 0, 0, "sgd or adamw"},
      {"training", "learning_rate", &t.learning_rate, 0, 10, "peak learning rate"},
      {"training", "momentum", &t.momentum, 0, 1, "SGD momentum"},
      {"training", "weight_decay", &t.weight_decay, 0, 1, "weight decay"},
      {"training", "schedule", &t.schedule, 0, 0, "constant, cosine or step"},
      {"training", "milestones", &t.milestones, 1, 1e12,
       "step schedule: optimizer steps at which the rate is multiplied by 0.1"},
      {"training", "final_fraction", &t.final_fraction, 0, 1, "cosine: final rate / peak"},
      {"training", "value_loss_weight", &t.value_loss_weight, 0, 100, "weight of the value loss"},
      {"training", "moves_left_loss_weight", &t.moves_left_loss_weight, 0, 100,
       "weight of the moves-left head's loss"},
      {"training", "soft_policy_loss_weight", &t.soft_policy_loss_weight, 0, 100,
       "weight of the soft policy head's loss"},
      {"training", "metrics_every", &t.metrics_every, 1, 1e6, "steps per metrics row", kMidRun},
      {"training", "mixed_precision", &t.mixed_precision, 0, 0, "autocast + loss scaling on CUDA"},
  };
  // The self-play search parameters, declared in mcts/search_settings.h, after the playouts.
  auto at = std::find_if(all.begin(), all.end(), [](const Setting& x) {
    return std::string_view(x.key) == "full_search_probability";
  });
  std::vector<Setting> search;
  for (const SearchSetting& p : search_settings()) {
    if (!p.in_self_play) continue;
    std::visit(
        [&](auto member) {
          using T = std::remove_reference_t<decltype(s.search.*member)>;
          if constexpr (std::is_same_v<T, float>)
            search.push_back({"selfplay", p.key, &(s.search.*member), p.min, p.max, p.help});
        },
        p.field);
  }
  all.insert(at + 1, search.begin(), search.end());
  return all;
}

const std::map<std::string, std::set<std::string>> kChoices = {
    {"optimizer", {"sgd", "adamw"}},
    {"schedule", {"constant", "cosine", "step"}},
    {"networks", {"shared", "per-seat"}},
    {"precision", {"fp32", "fp16", "bf16"}}};

using ConfigReader = StrictToml<TrainConfigError>;

void read_setting(const ConfigReader& reader, const Setting& s, const toml::node& n) {
  const std::string key = std::string(s.section) + "." + s.key;
  auto in_range = [&](double x) {
    if (x < s.min || x > s.max)
      reader.fail(n.source(), key,
                  "must be between " + std::to_string(s.min) + " and " + std::to_string(s.max));
    return x;
  };
  std::visit(
      [&](auto* field) {
        using T = std::remove_pointer_t<decltype(field)>;
        if constexpr (std::is_same_v<T, std::string>) {
          const std::string v = reader.value<std::string>(n, key);
          auto choices = kChoices.find(s.key);
          if (choices != kChoices.end() && !choices->second.count(v)) {
            std::string list;
            for (const std::string& c : choices->second) list += (list.empty() ? "" : ", ") + c;
            reader.fail(n.source(), key, "'" + v + "' is not one of " + list);
          }
          *field = v;
        } else if constexpr (std::is_same_v<T, bool>) {
          *field = reader.value<bool>(n, key);
        } else if constexpr (std::is_same_v<T, double>) {
          *field = in_range(reader.value<double>(n, key));
        } else if constexpr (std::is_same_v<T, float>) {
          *field = static_cast<float>(in_range(reader.value<double>(n, key)));
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          const toml::array* list = n.as_array();
          if (!list)
            reader.fail(n.source(), key, "must be a list of whole numbers, e.g. [1000, 2000]");
          field->clear();
          for (const toml::node& item : *list) {
            const int64_t v = reader.value<int64_t>(item, key);
            if (v < s.min || v > s.max)
              reader.fail(
                  item.source(), key,
                  "each entry must be at least " + std::to_string(static_cast<int64_t>(s.min)));
            if (!field->empty() && v <= field->back())
              reader.fail(item.source(), key, "entries must increase");
            field->push_back(v);
          }
        } else {
          double x = in_range(reader.value<double>(n, key));
          if (x != static_cast<double>(static_cast<int64_t>(x)))
            reader.fail(n.source(), key, "must be a whole number");
          *field = static_cast<T>(x);
        }
      },
      s.field);
}

// The setting's value as TOML writes it.
std::string value_text(const Setting& s) {
  std::ostringstream out;
  std::visit(
      [&](auto* field) {
        using T = std::remove_pointer_t<decltype(field)>;
        if constexpr (std::is_same_v<T, std::string>) {
          out << toml::value<std::string>(*field);
        } else if constexpr (std::is_same_v<T, bool>) {
          out << (*field ? "true" : "false");
        } else if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
          out << toml::value<double>(*field);
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          out << "[";
          for (size_t i = 0; i < field->size(); ++i) out << (i ? ", " : "") << (*field)[i];
          out << "]";
        } else {
          out << *field;
        }
      },
      s.field);
  return out.str();
}

}  // namespace

std::vector<SettingChange> changed_settings(const TrainConfig& before, const TrainConfig& after) {
  TrainConfig a = before, b = after;
  std::vector<Setting> old_settings = settings(a), new_settings = settings(b);
  std::vector<SettingChange> out;
  for (size_t i = 0; i < old_settings.size(); ++i) {
    std::string was = value_text(old_settings[i]), now = value_text(new_settings[i]);
    if (was != now)
      out.push_back({std::string(old_settings[i].section) + "." + old_settings[i].key, was, now,
                     old_settings[i].change == kMidRun});
  }
  return out;
}

void validate_agents(const TrainConfig& config, const std::string& where) {
  const AgentSettings& a = config.agents;
  if (a.networks != "shared" && a.networks != "per-seat")
    throw TrainConfigError(where + ": agents.networks: '" + a.networks +
                           "' is not one of shared, per-seat");
  if (!(a.league_probability >= 0 && a.league_probability <= 1))
    throw TrainConfigError(where + ": agents.league_probability must be between 0 and 1");
  if (config.window.steps_per_generation == 0 && config.trainer.schedule == "step")
    throw TrainConfigError(where +
                           ": training.schedule = \"step\" needs a fixed "
                           "training.steps_per_generation (its milestones count steps)");
  // Overlap plays the next games from a snapshot of one trainer; per-seat has several.
  if (a.per_seat() && config.run.overlap)
    throw TrainConfigError(where +
                           ": agents.networks = \"per-seat\" cannot be combined with "
                           "run.overlap = true (not supported yet)");
}

void validate_for_variant(const TrainConfig& config, const Variant& variant,
                          const std::string& where) {
  if (!config.window.mirror_files) return;
  const std::string why = file_mirror_asymmetry(variant);
  if (!why.empty())
    throw TrainConfigError(where + ": training.mirror_files = true, but the rules of '" +
                           variant.name + "' are not left-right symmetric (" + why +
                           "); set training.mirror_files = false");
}

int64_t window_capacity(const TrainingWindow& window, int64_t published) {
  const double c = static_cast<double>(window.samples);
  const double a = window.window_exponent, n = static_cast<double>(published);
  if (a <= 0 || n <= c) return window.samples;
  return static_cast<int64_t>(c * (1 + window.window_growth * (std::pow(n / c, a) - 1) / a));
}

int steps_for_generation(const TrainConfig& config, int64_t new_samples) {
  if (config.window.steps_per_generation > 0) return config.window.steps_per_generation;
  const double steps =
      std::ceil(config.window.reuse * static_cast<double>(new_samples) / config.trainer.batch_size);
  return static_cast<int>(std::max(1.0, steps));
}

int64_t external_samples_per_generation(const TrainConfig& config) {
  constexpr int kMinimumExternalSteps = 16;
  const int steps = config.window.steps_per_generation > 0 ? config.window.steps_per_generation
                                                           : kMinimumExternalSteps;
  return static_cast<int64_t>(
      std::ceil(steps * static_cast<double>(config.trainer.batch_size) / config.window.reuse));
}

std::vector<std::string> variant_overrides(const RunSettings& run) {
  std::vector<std::string> out;
  const std::string& text = run.variant_options;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find("; ", start);
    if (end == std::string::npos) end = text.size();
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 2;
  }
  return out;
}

TrainConfig load_train_config(const std::string& path) {
  const ConfigReader reader(path);
  const toml::table root = reader.parse_file();
  TrainConfig config;
  std::vector<Setting> all = settings(config);
  for (auto&& [section, node] : root) {
    const toml::table* table = node.as_table();
    if (!table) reader.fail(node.source(), std::string(section.str()), "must be a [section]");
    for (auto&& [key, value] : *table) {
      auto it = std::find_if(all.begin(), all.end(), [&](const Setting& s) {
        return s.section == section.str() && s.key == key.str();
      });
      const std::string name = std::string(section.str()) + "." + std::string(key.str());
      if (it == all.end() && name == "inference.half")  // before issue 14
        reader.fail(key.source(), name,
                    "replaced by inference.precision: write precision = \"fp16\" (or \"fp32\", "
                    "\"bf16\")");
      if (it == all.end())
        reader.fail(key.source(), name, "unknown setting (see docs/TRAINING.md)");
      read_setting(reader, *it, value);
    }
  }
  if (config.selfplay.fast_playouts > config.selfplay.full_playouts)
    throw TrainConfigError(path + ": selfplay.fast_playouts is above selfplay.full_playouts");
  if (config.trainer.schedule == "step" && config.trainer.milestones.empty())
    throw TrainConfigError(path +
                           ": training.schedule = \"step\" needs training.milestones (the "
                           "optimizer steps at which the rate drops tenfold), e.g. [2000, 4000]");
  validate_agents(config, path);
  config.trainer.device = config.run.device;
  return config;
}

std::string train_config_to_toml(const TrainConfig& config) {
  TrainConfig copy = config;
  std::ostringstream out;
  out << "# A FairyZero training run, resolved: every setting, with what it means.\n";
  std::string section;
  for (const Setting& s : settings(copy)) {
    if (section != s.section) {
      section = s.section;
      out << "\n[" << section << "]\n";
    }
    out << s.key << " = " << value_text(s) << "  # " << s.help << "\n";
  }
  return out.str();
}

}  // namespace fairyzero
