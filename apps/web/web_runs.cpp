// Reading runs, records and bots for the web board, each path checked to stay in its folder.
#include "apps/web/web_runs.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "apps/web/web_games.h"
#include "apps/web/web_json.h"
#include "core/variant_loader.h"
#include "training/play/self_play_record.h"

namespace fairyzero {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw WebError(404, "cannot read " + path.filename().string());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> split(const std::string& line, char by) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(line);
  while (std::getline(in, part, by)) parts.push_back(part);
  if (!line.empty() && line.back() == by) parts.emplace_back();
  return parts;
}

std::string trimmed(const std::string& text) {
  const size_t a = text.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return text.substr(a, text.find_last_not_of(" \t\r\n") - a + 1);
}

json csv_table(const fs::path& path) {
  std::istringstream in(read_text(path));
  std::string line;
  json table = {{"columns", json::array()}, {"rows", json::array()}};
  if (std::getline(in, line)) table["columns"] = split(trimmed(line), ',');
  while (std::getline(in, line)) {
    if (trimmed(line).empty()) continue;
    json row = json::array();
    for (const std::string& cell : split(trimmed(line), ',')) {
      char* end = nullptr;
      const double x = std::strtod(cell.c_str(), &end);
      if (!cell.empty() && end == cell.c_str() + cell.size())
        row.push_back(x);
      else
        row.push_back(cell);
    }
    table["rows"].push_back(std::move(row));
  }
  return table;
}

// The variant a record file was played in: the nearest variant.toml above it (a run), else the
// name its records give.
std::string variant_near(const fs::path& file, const fs::path& root) {
  for (fs::path dir = file.parent_path();; dir = dir.parent_path()) {
    if (fs::exists(dir / "variant.toml")) return (dir / "variant.toml").string();
    if (dir == root || !dir.has_parent_path() || dir == dir.parent_path()) return "";
  }
}

// Self-play records (training/play/self_play_record.h), one game a line.
json self_play_games(const std::string& text, const std::string& file) {
  json games = json::array();
  std::istringstream in(text);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty()) continue;
    SelfPlayRecord record;
    try {
      record = parse_self_play_record(line);
    } catch (const std::invalid_argument& e) {
      throw WebError(400, file + " line " + std::to_string(number) + ": " + e.what());
    }
    std::string label;
    for (const auto& [seat, score] : record.scores) {
      std::ostringstream item;
      item << (label.empty() ? "" : " ") << seat << "=" << score;
      label += item.str();
    }
    games.push_back({{"label", label},
                     {"termination", record.termination},
                     {"start_fen", ""},
                     {"moves", record.moves}});
  }
  return games;
}

// The arena's PGN: tags, then numbered moves, comments in braces and the result.
json pgn_games(const std::string& text, std::string& variant) {
  json game = {{"label", ""}, {"termination", ""}, {"start_fen", ""}, {"moves", json::array()}};
  std::istringstream in(text);
  std::string movetext;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("[", 0) == 0) {
      const size_t space = line.find(' '), quote = line.find('"');
      if (space == std::string::npos || quote == std::string::npos) continue;
      const std::string tag = line.substr(1, space - 1);
      const std::string value = line.substr(quote + 1, line.rfind('"') - quote - 1);
      if (tag == "Variant") variant = value;
      if (tag == "FEN") game["start_fen"] = value;
      if (tag == "Termination") game["termination"] = value;
      if (tag == "White" || tag == "Black")
        game["label"] = game["label"].get<std::string>() +
                        (game["label"].get<std::string>().empty() ? "" : " - ") + value;
    } else {
      movetext += line + " ";
    }
  }
  size_t open;
  while ((open = movetext.find('{')) != std::string::npos)
    movetext.erase(open, movetext.find('}', open) - open + 1);
  std::istringstream words(movetext);
  for (std::string w; words >> w;) {
    if (w.back() == '.' || w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "*") continue;
    game["moves"].push_back(w);
  }
  return json::array({game});
}

json balance_games(const std::string& text, std::string& variant) {
  json games = json::array();
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (trimmed(line).empty()) continue;
    json g = json::parse(line, nullptr, false);
    if (g.is_discarded() || !g.contains("moves")) continue;
    if (g.contains("variant") && g["variant"].is_string()) variant = g["variant"];
    games.push_back({{"label", g.value("strength", std::string())},
                     {"termination", g.value("termination", std::string())},
                     {"start_fen", ""},
                     {"moves", g["moves"]}});
  }
  return games;
}

}  // namespace

std::string path_inside(const std::string& root, const std::string& relative) {
  if (root.empty()) throw WebError(404, "this server was started without that folder");
  const fs::path rel(relative);
  if (rel.is_absolute() || relative.empty())
    throw WebError(403, "'" + relative + "' is not a path inside the folder");
  for (const fs::path& part : rel)
    if (part == "..") throw WebError(403, "'" + relative + "' leaves the folder");
  std::error_code error;
  const fs::path base = fs::canonical(root, error);
  if (error) throw WebError(404, "the folder " + root + " does not exist");
  const fs::path full = fs::weakly_canonical(base / rel, error);
  const auto [end, _] = std::mismatch(base.begin(), base.end(), full.begin(), full.end());
  if (error || end != base.end()) throw WebError(403, "'" + relative + "' leaves the folder");
  if (!fs::exists(full)) throw WebError(404, "no " + relative);
  return full.string();
}

json list_runs(const std::string& runs_dir) {
  json runs = json::array();
  if (runs_dir.empty() || !fs::is_directory(runs_dir)) return runs;
  std::vector<std::pair<fs::file_time_type, json>> found;
  const fs::path root = fs::canonical(runs_dir);
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    if (it.depth() > 3) it.disable_recursion_pending();
    const fs::path path = it->path();
    // A folder's games/ belong to it, not a folder of their own.
    if (!it->is_directory() || path.filename() == "games") continue;
    const bool run = fs::exists(path / "variant.toml");
    json files = json::array();
    for (const fs::path& dir : {path, path / "games"}) {
      if (!fs::is_directory(dir)) continue;
      std::vector<std::string> names;
      for (const auto& f : fs::directory_iterator(dir)) {
        // Game records: balance's .jsonl beside its report, self-play's .txt and the arena's
        // .pgn in games/ (a summary.txt beside them is not one).
        const std::string ext = f.path().extension().string();
        const bool in_games = dir.filename() == "games";
        if ((in_games && (ext == ".txt" || ext == ".pgn")) || ext == ".jsonl")
          names.push_back(fs::relative(f.path(), root).string());
      }
      std::sort(names.begin(), names.end());
      for (const std::string& n : names) files.push_back(n);
    }
    // Images (a run's learning curves, a balance report's plots) and the newest checkpoint.
    json images = json::array();
    for (const auto& f : fs::directory_iterator(path))
      if (f.path().extension() == ".png") images.push_back(fs::relative(f.path(), root).string());
    std::string newest;
    if (fs::is_directory(path / "checkpoints"))
      for (const auto& f : fs::directory_iterator(path / "checkpoints"))
        if (f.path().extension() == ".pt" && f.path().stem().string().rfind("gen-", 0) == 0)
          newest = std::max(newest, fs::relative(f.path(), root).string());
    if (!run && files.empty() && images.empty()) continue;
    json entry = {{"name", fs::relative(path, root).string()},
                  {"training", fs::exists(path / "training.csv")},
                  {"records", files},
                  {"images", images}};
    if (!newest.empty()) entry["checkpoint"] = newest;
    found.push_back({fs::last_write_time(path), std::move(entry)});
  }
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  for (auto& [time, run] : found) runs.push_back(std::move(run));
  return runs;
}

json run_progress(const std::string& runs_dir, const std::string& run) {
  const fs::path dir = path_inside(runs_dir, run);
  json tables = json::object();
  for (const auto& f : fs::directory_iterator(dir))
    if (f.path().extension() == ".csv") tables[f.path().stem().string()] = csv_table(f.path());
  json out = {{"name", run}, {"tables", tables}};
  if (fs::exists(dir / "variant.toml")) {
    try {
      out["variant"] = find_variant((dir / "variant.toml").string())->name;
    } catch (const std::exception& e) {
      out["variant_error"] = e.what();
    }
  }
  return out;
}

namespace {

struct RecordFile {
  VariantPtr variant;
  json games;
};

RecordFile load_records(const std::string& runs_dir, const std::string& file) {
  const fs::path path = path_inside(runs_dir, file);
  const std::string text = read_text(path);
  std::string variant;
  RecordFile records;
  const std::string ext = path.extension().string();
  if (ext == ".pgn")
    records.games = pgn_games(text, variant);
  else if (ext == ".jsonl")
    records.games = balance_games(text, variant);
  else if (ext == ".txt")
    records.games = self_play_games(text, file);
  else
    throw WebError(400, file + ": not a record file (.txt, .pgn or .jsonl)");
  // A run's own rules (its variant.toml, options applied) win over a name in the records.
  const std::string near = variant_near(path, fs::canonical(runs_dir));
  if (near.empty() && variant.empty())
    throw WebError(400, file + ": no variant.toml beside it and no variant named in it");
  try {
    records.variant = find_variant(near.empty() ? variant : near);
  } catch (const std::exception& e) {
    throw WebError(400, file + ": its variant cannot be loaded: " + e.what());
  }
  return records;
}

}  // namespace

json read_records(const std::string& runs_dir, const std::string& file) {
  RecordFile records = load_records(runs_dir, file);
  json summary = json::array();
  for (const json& g : records.games)
    summary.push_back(
        {{"label", g["label"]}, {"termination", g["termination"]}, {"plies", g["moves"].size()}});
  return {{"file", file}, {"variant", records.variant->name}, {"games", summary}};
}

json replay_record(const std::string& runs_dir, const std::string& file, int index) {
  RecordFile records = load_records(runs_dir, file);
  if (index < 0 || index >= static_cast<int>(records.games.size()))
    throw WebError(404, file + " has no game " + std::to_string(index + 1));
  const json& game = records.games[index];
  Position pos(records.variant);
  const std::string start_fen = game["start_fen"];
  if (!start_fen.empty()) {
    try {
      pos = Position::from_fen(records.variant, start_fen);
    } catch (const std::exception& e) {
      throw WebError(400, file + " game " + std::to_string(index + 1) + ": bad FEN: " + e.what());
    }
  }
  const MoveList none;
  json frames = json::array({position_json(pos, none)});
  for (const json& m : game["moves"]) {
    const std::string text = m;
    Move move;
    try {
      move = pos.parse_move(text);
    } catch (const MoveError& e) {
      throw WebError(400, file + " game " + std::to_string(index + 1) + ", ply " +
                              std::to_string(frames.size()) + ": " + e.what());
    }
    json last = move_json(pos, move);
    pos.play(move);
    json frame = position_json(pos, none);
    frame["last_move"] = std::move(last);
    frames.push_back(std::move(frame));
  }
  return {{"file", file},
          {"index", index},
          {"label", game["label"]},
          {"termination", game["termination"]},
          {"variant", variant_json(*records.variant)},
          {"frames", frames}};
}

json list_bots(const std::string& bots_dir) {
  json bots = json::array();
  if (bots_dir.empty() || !fs::is_directory(bots_dir)) return bots;
  std::vector<std::string> names;
  for (const auto& f : fs::directory_iterator(bots_dir))
    if (fs::exists(f.path() / "manifest.toml")) names.push_back(f.path().filename().string());
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) bots.push_back({{"name", name}});
  return bots;
}

}  // namespace fairyzero
