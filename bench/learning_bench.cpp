// Does training work? Trains the tiny preset on minichess on the CPU, then plays the trained
// network against a uniform-prior search with the same playouts and prints the score with a 95%
// interval, the training time, and self-play and training throughput.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/variant_loader.h"
#include "training/arena/arena.h"
#include "training/learn/train_run.h"

int main(int argc, char** argv) {
  using namespace fairyzero;
  std::string config_path = "configs/train/tiny.toml", variant_name = "minichess", out;
  int generations = 0, games = 100, playouts = 64;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--config"))
      config_path = argv[i + 1];
    else if (!std::strcmp(argv[i], "--variant"))
      variant_name = argv[i + 1];
    else if (!std::strcmp(argv[i], "--generations"))
      generations = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--games"))
      games = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--playouts"))
      playouts = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--out"))
      out = argv[i + 1];
    else {
      std::fprintf(stderr,
                   "usage: learning_bench [--config F] [--variant V] [--generations N] "
                   "[--games N] [--playouts N] [--out RUN_DIR]\n");
      return 2;
    }
  }
  try {
    TrainConfig config = load_train_config(config_path);
    VariantPtr variant = find_variant(variant_name);
    config.run.variant = variant->name;
    if (generations > 0) config.run.generations = generations;
    if (out.empty()) out = (std::filesystem::temp_directory_path() / "fairyzero-learning").string();
    std::filesystem::remove_all(out);
    auto start = std::chrono::steady_clock::now();
    TrainingRun run(out, config, variant);
    run.run([](const std::string& line) { std::printf("%s\n", line.c_str()); });
    double minutes =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 60;
    std::string checkpoint =
        out + "/checkpoints/" + generation_name(config.run.generations) + ".pt";
    // The match: the arena between the trained network and a uniform-prior search, both at
    // the same playouts, paired games from random openings, batched in the game runner.
    ArenaConfig match;
    match.variant = variant;
    match.players = {parse_player_spec(checkpoint), parse_player_spec("uniform")};
    match.players[0].name = "trained";
    for (PlayerSpec& player : match.players) player.visits = playouts;
    match.games = games;
    match.concurrency = 20;
    match.max_plies = 300;
    const ArenaStatus r = run_arena(match).status;
    std::printf(
        "\ntrained (%s, %d generations, %.1f min) vs uniform-prior search, %d playouts each:\n"
        "  %d games: +%d =%d -%d, Elo %+.0f [%+.0f, %+.0f] (95%%)\n",
        describe(config.network).c_str(), config.run.generations, minutes, playouts, r.games_done,
        r.counts.wins, r.counts.draws, r.counts.losses, r.elo.elo, r.elo.elo_low, r.elo.elo_high);
    std::printf("  per-generation throughput: %s/selfplay.csv; training: %s/training.csv\n",
                out.c_str(), out.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "learning_bench: %s\n", e.what());
    return 1;
  }
}
