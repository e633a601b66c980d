// What the web board reads from disk, only below the folders it was given: training runs (their
// progress CSVs and recorded games), arena and balance records, and bot folders.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace fairyzero {

// `relative` below `root`: not absolute, no "..", and still below `root` once symbolic links
// are followed. Throws WebError (403 outside, 404 missing).
std::string path_inside(const std::string& root, const std::string& relative);

// The runs and record folders below `runs_dir` (a variant.toml, records or images), newest
// first, with their record files (self-play games/*.txt, arena games/*.pgn, balance *.jsonl),
// images (learning curves, a balance report's plots) and newest checkpoint.
nlohmann::json list_runs(const std::string& runs_dir);
// A run's progress: its CSV tables (training.csv, validation.csv, external.csv, ...) as columns
// and rows, and its variant's name.
nlohmann::json run_progress(const std::string& runs_dir, const std::string& run);
// The games of one record file below `runs_dir` (self-play lines, arena PGN or balance JSON
// lines): the variant they were played in and each game's label, termination and length.
nlohmann::json read_records(const std::string& runs_dir, const std::string& file);
// Game `index` of a record file, move by move: the variant and a frame (the position) per ply.
// A move the rules refuse is a WebError naming the file, game and ply.
nlohmann::json replay_record(const std::string& runs_dir, const std::string& file, int index);
// The bot folders of `bots_dir`: name, variant and manifest fields.
nlohmann::json list_bots(const std::string& bots_dir);

}  // namespace fairyzero
