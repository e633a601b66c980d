// Bot folders: writing one from a checkpoint and its rules (into a temporary folder renamed into
// place, so a failed write leaves nothing behind) and reading one back with every part checked.
#include "training/players/bot_bundle.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "core/rules_fingerprint.h"
#include "core/strict_toml.h"
#include "core/variant_loader.h"
#include "mcts/search_settings.h"
#include "nn/checkpoint.h"
#include "nn/encoder.h"
#include "nn/network_evaluator.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;

constexpr int kBundleFormat = 2;  // 2: the rules fingerprint
constexpr const char* kManifest = "manifest.toml";
constexpr const char* kVariantFile = "variant.toml";
constexpr const char* kNetwork = "network.pt";
constexpr const char* kNetworkToml = "network.toml";
constexpr const char* kSearchToml = "search.toml";

std::string join(const std::string& dir, const std::string& name) {
  return (fs::path(dir) / name).string();
}

// A parsed TOML file of a bundle, read strictly: errors name the file, line and key.
class TomlFile : public StrictToml<BotBundleError> {
 public:
  explicit TomlFile(std::string path) : StrictToml(std::move(path)), table_(parse_file()) {}
  const toml::table& table() const { return table_; }
  const toml::table& section(const std::string& name) const { return require_table(table_, name); }

 private:
  toml::table table_;
};

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw BotBundleError(path + ": cannot write");
}

std::string to_text(const std::string& heading, const toml::table& table) {
  std::ostringstream out;
  out << heading << "\n" << table << "\n";
  return out.str();
}

std::string now_iso() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// ---- manifest.toml -------------------------------------------------------------------------

toml::table manifest_table(const BotManifest& m) {
  toml::array options;
  for (const std::string& o : m.variant_options) options.push_back(o);
  toml::table t{{"format", m.format},         {"variant", m.variant},
                {"variant_options", options}, {"training_steps", m.training_steps},
                {"generation", m.generation}, {"source_run", m.source_run},
                {"exported", m.exported},     {"rules_fingerprint", m.rules_fingerprint}};
  if (m.elo_vs_uniform) t.insert("elo_vs_uniform", *m.elo_vs_uniform);
  if (m.training)
    t.insert("training", toml::table{{"games", m.training->games},
                                     {"samples", m.training->samples},
                                     {"minutes", m.training->minutes},
                                     {"machine", m.training->machine}});
  if (!m.strength.empty()) {
    toml::array matches;
    for (const BotStrength& x : m.strength)
      matches.push_back(toml::table{{"opponent", x.opponent},
                                    {"description", x.description},
                                    {"visits", x.visits},
                                    {"games", x.games},
                                    {"wins", x.wins},
                                    {"draws", x.draws},
                                    {"losses", x.losses},
                                    {"score", x.score},
                                    {"elo", x.elo},
                                    {"elo_low", x.elo_low},
                                    {"elo_high", x.elo_high}});
    t.insert("strength", matches);
  }
  return t;
}

BotTraining read_training(const TomlFile& file, const toml::node* node) {
  const toml::table* t = node->as_table();
  if (!t) file.fail(node, "training", "must be a table");
  file.check_keys(*t, "training", {"games", "samples", "minutes", "machine"});
  BotTraining training;
  training.games = file.require<int64_t>(*t, "games");
  training.samples = file.require<int64_t>(*t, "samples");
  training.minutes = file.require<double>(*t, "minutes");
  training.machine = file.get<std::string>(*t, "machine").value_or("");
  return training;
}

std::vector<BotStrength> read_strength(const TomlFile& file, const toml::node* node) {
  const toml::array* list = node->as_array();
  if (!list) file.fail(node, "strength", "must be an array of tables ([[strength]])");
  std::vector<BotStrength> out;
  for (const toml::node& item : *list) {
    const toml::table* t = item.as_table();
    if (!t) file.fail(&item, "strength", "must be an array of tables ([[strength]])");
    file.check_keys(*t, "strength",
                    {"opponent", "description", "visits", "games", "wins", "draws", "losses",
                     "score", "elo", "elo_low", "elo_high"});
    BotStrength x;
    x.opponent = file.require<std::string>(*t, "opponent");
    x.description = file.get<std::string>(*t, "description").value_or("");
    x.visits = file.get<int>(*t, "visits").value_or(0);
    x.games = file.require<int>(*t, "games");
    x.wins = file.require<int>(*t, "wins");
    x.draws = file.require<int>(*t, "draws");
    x.losses = file.require<int>(*t, "losses");
    if (x.wins < 0 || x.draws < 0 || x.losses < 0 || x.wins + x.draws + x.losses != x.games)
      file.fail(&item, "strength", "wins, draws and losses must be counts adding up to games");
    x.score = file.require<double>(*t, "score");
    x.elo = file.require<double>(*t, "elo");
    x.elo_low = file.require<double>(*t, "elo_low");
    x.elo_high = file.require<double>(*t, "elo_high");
    out.push_back(std::move(x));
  }
  return out;
}

BotManifest read_manifest(const std::string& dir) {
  TomlFile file(join(dir, kManifest));
  const toml::table& t = file.table();
  file.check_keys(
      t, "",
      {"format", "variant", "variant_options", "training_steps", "generation", "source_run",
       "exported", "elo_vs_uniform", "rules_fingerprint", "training", "strength"});
  BotManifest m;
  m.format = file.require<int>(t, "format");
  if (m.format != kBundleFormat)
    file.fail(t.get("format"), "format",
              "version " + std::to_string(m.format) + " is not supported (this build reads " +
                  std::to_string(kBundleFormat) + ")");
  m.variant = file.require<std::string>(t, "variant");
  m.rules_fingerprint = file.require<std::string>(t, "rules_fingerprint");
  if (const toml::node* options = t.get("variant_options")) {
    const toml::array* list = options->as_array();
    if (!list) file.fail(options, "variant_options", "must be a list of strings");
    for (const toml::node& item : *list) {
      std::optional<std::string> text = item.value_exact<std::string>();
      if (!text) file.fail(&item, "variant_options", "must be a list of strings");
      m.variant_options.push_back(*text);
    }
  }
  m.training_steps = file.require<int64_t>(t, "training_steps");
  m.generation = file.require<int>(t, "generation");
  m.source_run = file.get<std::string>(t, "source_run").value_or("");
  m.exported = file.get<std::string>(t, "exported").value_or("");
  m.elo_vs_uniform = file.get<double>(t, "elo_vs_uniform");
  if (const toml::node* training = t.get("training")) m.training = read_training(file, training);
  if (const toml::node* strength = t.get("strength")) m.strength = read_strength(file, strength);
  return m;
}

// ---- search.toml ---------------------------------------------------------------------------

// search.toml written line by line, each parameter under its meaning: the table is flat, and
// toml++ (Debian's compiled library) would print a float at 17 digits (0.017000000000000001).
std::string search_text(const BotSearchDefaults& s) {
  std::ostringstream out;
  out << "# Default search settings of this bot; the uci and xboard commands and\n"
         "# their options override them (mcts/search_settings.h declares each).\n"
      << "playouts = " << s.playouts << "\nthreads = " << s.threads << "\n";
  for (const SearchSetting& setting : search_settings()) {
    if (!setting.in_bots) continue;
    const double value = search_parameter(s.params, setting);
    char text[32];
    std::snprintf(text, sizeof text, "%.7g", value);
    std::string number = text;
    // A float stays a TOML float (1.0, not 1) so a reader sees which parameters take fractions.
    if (std::holds_alternative<float SearchParams::*>(setting.field) &&
        number.find_first_of(".e") == std::string::npos)
      number += ".0";
    out << "\n# " << setting.help << "\n" << setting.key << " = " << number << "\n";
  }
  return out.str();
}

BotSearchDefaults read_search(const std::string& dir) {
  TomlFile file(join(dir, kSearchToml));
  const toml::table& t = file.table();
  std::set<std::string> keys = {"playouts", "threads"};
  for (const SearchSetting& setting : search_settings())
    if (setting.in_bots) keys.insert(setting.key);
  file.check_keys(t, "", keys);
  BotSearchDefaults s;
  auto whole = [&](const char* key, int fallback, int min, int max) {
    int64_t v = file.get<int64_t>(t, key).value_or(fallback);
    if (v < min || v > max)
      file.fail(t.get(key), key,
                "must be between " + std::to_string(min) + " and " + std::to_string(max));
    return static_cast<int>(v);
  };
  s.playouts = whole("playouts", s.playouts, 1, 1 << 30);
  s.threads = whole("threads", s.threads, 1, 1024);
  SearchParams& p = s.params;
  for (const SearchSetting& setting : search_settings()) {
    const toml::node* node = setting.in_bots ? t.get(setting.key) : nullptr;
    if (!node) continue;
    const std::optional<double> value = node->value<double>();
    if (!value) file.fail(node, setting.key, "must be a number");
    try {
      set_search_parameter(p, setting, *value);
    } catch (const SettingError& e) {
      file.fail(node, setting.key, e.what());
    }
  }
  p.threads = s.threads;
  p.root_noise = false;  // a bot plays its best, not self-play's exploration
  return s;
}

// ---- network.toml and the checkpoint -------------------------------------------------------

toml::table network_table(const CheckpointInfo& info) {
  const NetworkConfig& c = info.config;
  const NetworkShape& s = info.shape;
  toml::table network{{"blocks", c.blocks},
                      {"filters", c.filters},
                      {"policy_dim", c.policy_dim},
                      {"value_hidden", c.value_hidden}};
  // Only where there is one, so bots exported before the head existed still check.
  if (c.moves_left) network.insert("moves_left", true);
  return toml::table{{"network", network},
                     {"shape", toml::table{{"planes", s.planes},
                                           {"ranks", s.ranks},
                                           {"files", s.files},
                                           {"promotion_choices", s.promotion_choices},
                                           {"piece_types", s.piece_types},
                                           {"value_heads", s.value_heads}}},
                     {"checkpoint", toml::table{{"variant", info.variant},
                                                {"encoder_version", info.encoder_version},
                                                {"policy_size", info.policy_size},
                                                {"step", info.step}}}};
}

// network.toml must say what network.pt says, key by key.
void check_network_toml(const std::string& dir, const CheckpointInfo& info) {
  TomlFile file(join(dir, kNetworkToml));
  const toml::table expected = network_table(info);
  file.check_keys(file.table(), "", {"network", "shape", "checkpoint"});
  for (auto&& [name, want_node] : expected) {
    const std::string section(name.str());
    const toml::table& have = file.section(section);
    for (auto&& [key, want] : *want_node.as_table()) {
      const toml::node* got = have.get(key.str());
      std::string field = section + "." + std::string(key.str());
      if (!got) file.fail(nullptr, field, "missing (required)");
      toml::node_view<const toml::node> have_value(got), want_value(&want);
      if (have_value != want_value) {
        std::ostringstream say;
        say << "is " << have_value << " but " << kNetwork << " says " << want_value;
        file.fail(got, field, say.str());
      }
    }
  }
}

CheckpointInfo read_info(const std::string& checkpoint) {
  try {
    return read_checkpoint_info(checkpoint);
  } catch (const CheckpointError& e) {
    throw BotBundleError(checkpoint + ": " + e.what());
  }
}

// The checkpoint fits the variant: its name, encoder version and shapes.
void check_checkpoint_fits(const std::string& checkpoint, const CheckpointInfo& info,
                           const VariantPtr& variant) {
  Encoder encoder(variant);
  std::string problems;
  auto differ = [&](const std::string& what, const auto& have, const auto& want) {
    if (have == want) return;
    std::ostringstream say;
    say << (problems.empty() ? "" : "; ") << what << " " << have << " (expected " << want << ")";
    problems += say.str();
  };
  require_same_rules<BotBundleError>(*variant, checkpoint, info.variant, info.rules_fingerprint,
                                     info.rules);
  differ("encoder version", info.encoder_version, Encoder::kVersion);
  NetworkShape want = encoder.network_shape();
  differ("input planes", info.shape.planes, want.planes);
  differ("ranks", info.shape.ranks, want.ranks);
  differ("files", info.shape.files, want.files);
  differ("promotion choices", info.shape.promotion_choices, want.promotion_choices);
  differ("piece types", info.shape.piece_types, want.piece_types);
  differ("value heads", info.shape.value_heads, want.value_heads);
  differ("policy size", info.policy_size, static_cast<int64_t>(encoder.policy_size()));
  if (!problems.empty())
    throw BotBundleError(checkpoint + ": made for another variant or shape than variant.toml ('" +
                         variant->name + "'): " + problems);
}

VariantPtr read_variant(const std::string& dir, const BotManifest& manifest) {
  const std::string path = join(dir, kVariantFile);
  VariantPtr variant;
  try {
    // variant.toml is the resolved variant: the options are already in it.
    variant = load_variant_file(path);
  } catch (const VariantError& e) {
    throw BotBundleError(std::string(e.what()));  // names variant.toml and the line already
  }
  if (variant->name != manifest.variant)
    throw BotBundleError(join(dir, kManifest) + ": variant '" + manifest.variant +
                         "' differs from the one variant.toml defines ('" + variant->name + "')");
  if (rules_fingerprint(*variant) != manifest.rules_fingerprint)
    throw BotBundleError(join(dir, kManifest) + ": rules_fingerprint " +
                         manifest.rules_fingerprint + " is not that of variant.toml (" +
                         rules_fingerprint(*variant) + "): variant.toml was edited");
  return variant;
}

// ---- export --------------------------------------------------------------------------------

// A fresh hidden folder beside `bot_dir` for writing the bundle before it is renamed into place.
fs::path temporary_beside(const fs::path& bot_dir, const char* what) {
  fs::path parent = bot_dir.parent_path();
  if (parent.empty()) parent = ".";
  std::random_device random;
  return parent / ("." + bot_dir.filename().string() + "." + what + "-" + std::to_string(random()));
}

void write_bundle(const fs::path& dir, const std::string& checkpoint, const VariantPtr& variant,
                  const BotManifest& manifest, const CheckpointInfo& info) {
  fs::create_directories(dir);
  std::error_code ec;
  fs::copy_file(checkpoint, dir / kNetwork, ec);
  if (ec)
    throw BotBundleError(checkpoint + ": cannot copy to " + dir.string() + ": " + ec.message());
  write_file((dir / kVariantFile).string(), variant->resolved_toml);
  write_file((dir / kManifest).string(),
             to_text("# A FairyZero bot (training/players/bot_bundle.h): what it is and where it "
                     "came from.",
                     manifest_table(manifest)));
  write_file(
      (dir / kNetworkToml).string(),
      to_text("# The network in network.pt, readable without LibTorch.", network_table(info)));
  write_file((dir / kSearchToml).string(), search_text(BotSearchDefaults{}));
}

// Moves the finished folder to `bot_dir`, replacing a previous bot there.
void publish(const fs::path& temp, const fs::path& bot_dir) {
  std::error_code ec;
  fs::path old;
  if (fs::exists(bot_dir, ec)) {
    old = temporary_beside(bot_dir, "old");
    fs::rename(bot_dir, old, ec);
    if (ec) throw BotBundleError(bot_dir.string() + ": cannot replace: " + ec.message());
  }
  fs::rename(temp, bot_dir, ec);
  if (ec) {
    if (!old.empty()) fs::rename(old, bot_dir);
    throw BotBundleError(bot_dir.string() + ": cannot create: " + ec.message());
  }
  if (!old.empty()) fs::remove_all(old, ec);
}

}  // namespace

bool is_bot_bundle(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(join(path, kManifest), ec);
}

BotBundle write_bot(const std::string& bot_dir, const std::string& checkpoint,
                    const VariantPtr& variant, const BotOrigin& origin) {
  std::error_code ec;
  if (fs::exists(bot_dir, ec) && !is_bot_bundle(bot_dir) &&
      !(fs::is_directory(bot_dir, ec) && fs::is_empty(bot_dir, ec)))
    throw BotBundleError(bot_dir + ": exists and is not a bot folder; not overwriting it");
  const CheckpointInfo info = read_info(checkpoint);
  check_checkpoint_fits(checkpoint, info, variant);

  BotManifest manifest;
  manifest.format = kBundleFormat;
  manifest.variant = variant->name;
  manifest.rules_fingerprint = rules_fingerprint(*variant);
  manifest.variant_options = origin.variant_options;
  manifest.training_steps = info.step;
  manifest.generation = origin.generation;
  manifest.source_run = origin.source_run;
  manifest.exported = now_iso();
  manifest.training = origin.training;
  manifest.strength = origin.strength;

  const fs::path temp = temporary_beside(fs::absolute(bot_dir), "partial");
  try {
    write_bundle(temp, checkpoint, variant, manifest, info);
    load_bot(temp.string());  // every check a user's load will make, before publishing
    publish(temp, fs::absolute(bot_dir));
  } catch (...) {
    fs::remove_all(temp, ec);
    throw;
  }
  return load_bot(bot_dir);
}

BotBundle load_bot(const std::string& bot_dir) {
  std::error_code ec;
  if (!fs::is_directory(bot_dir, ec)) throw BotBundleError(bot_dir + ": no such bot folder");
  BotBundle bot;
  bot.dir = bot_dir;
  bot.manifest = read_manifest(bot_dir);
  bot.variant = read_variant(bot_dir, bot.manifest);
  bot.checkpoint = join(bot_dir, kNetwork);
  if (!fs::is_regular_file(bot.checkpoint, ec)) throw BotBundleError(bot.checkpoint + ": missing");
  const CheckpointInfo info = read_info(bot.checkpoint);
  check_checkpoint_fits(bot.checkpoint, info, bot.variant);
  check_network_toml(bot_dir, info);
  bot.search = read_search(bot_dir);
  return bot;
}

std::unique_ptr<Evaluator> make_bot_evaluator(const BotBundle& bot, const std::string& device) {
  NetworkEvaluatorOptions options;
  options.device = device;
  try {
    return NetworkEvaluator::from_checkpoint(bot.checkpoint, bot.variant, options);
  } catch (const CheckpointError& e) {
    throw BotBundleError(bot.dir + ": " + e.what());
  }
}

}  // namespace fairyzero
