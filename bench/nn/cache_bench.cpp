// The evaluation cache over a game: a network bot plays a game against itself with tree reuse,
// once without the cache and once with it, and prints playouts/s, forward passes and the hit
// rate of each. Same network, same playouts a move.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "core/variant_loader.h"
#include "mcts/evaluation_cache.h"
#include "mcts/search.h"
#include "nn/checkpoint.h"
#include "nn/encoder.h"
#include "nn/network.h"
#include "nn/network_evaluator.h"

namespace {

using namespace fairyzero;

struct Options {
  std::string variant = "gardner";
  std::string checkpoint;  // empty: a random 4x48 network
  int plies = 60;
  int playouts = 800;
  int threads = 1;
  int cache_mb = 256;
};

// A StagedEvaluator that counts the positions its network evaluates.
class CountingNetwork : public StagedEvaluator {
 public:
  explicit CountingNetwork(std::unique_ptr<NetworkEvaluator> network)
      : network_(std::move(network)) {}
  long long positions = 0;
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override {
    positions += static_cast<long long>(batch.size());
    network_->evaluate(batch, out);
  }
  std::string name() const override { return network_->name(); }
  size_t row_bytes() const override { return network_->row_bytes(); }
  void encode_row(const EvalRequest& request, std::byte* row) const override {
    network_->encode_row(request, row);
  }
  std::unique_ptr<Staging> make_staging(int rows) override { return network_->make_staging(rows); }
  void evaluate_staged(std::span<const EvalRequest> batch, Staging& staging,
                       std::span<Evaluation> out) override {
    positions += static_cast<long long>(batch.size());
    network_->evaluate_staged(batch, staging, out);
  }

 private:
  std::unique_ptr<NetworkEvaluator> network_;
};

std::unique_ptr<NetworkEvaluator> load(const Options& o, const VariantPtr& v) {
  if (!o.checkpoint.empty()) return NetworkEvaluator::from_checkpoint(o.checkpoint, v);
  torch::manual_seed(1);
  const NetworkConfig config{.blocks = 4, .filters = 48, .policy_dim = 32, .value_hidden = 64};
  return std::make_unique<NetworkEvaluator>(v, make_network(config, Encoder(v).network_shape()));
}

void play_game(const Options& o, const VariantPtr& v, bool cached) {
  auto owned = std::make_unique<CountingNetwork>(load(o, v));
  CountingNetwork& network = *owned;
  CachingEvaluator evaluator =
      cached ? with_evaluation_cache(std::move(owned), static_cast<size_t>(o.cache_mb) << 20)
             : CachingEvaluator{std::move(owned), nullptr};
  SearchParams params;
  params.threads = o.threads;
  Position position(v);
  Search search(position, *evaluator.evaluator, params);
  long long playouts = 0;
  double seconds = 0;
  int plies = 0;
  for (; plies < o.plies; ++plies) {
    MoveList legal;
    position.legal_moves(legal);
    if (position.outcome(legal).over()) break;
    SearchResult r = search.run({.playouts = o.playouts});
    playouts += r.playouts;
    seconds += r.seconds;
    position.play(r.best);
    search.play(r.best);
  }
  const CacheStats stats = evaluator.cache ? evaluator.cache->stats() : CacheStats{};
  std::printf("%-8s %6d %10lld %12.0f %16lld %9.1f%% %10.1f\n", cached ? "cache" : "none", plies,
              playouts, playouts / seconds, network.positions, 100 * stats.hit_rate(),
              static_cast<double>(stats.bytes) / (1 << 20));
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--variant")
      o.variant = next();
    else if (a == "--checkpoint")
      o.checkpoint = next();
    else if (a == "--plies")
      o.plies = std::atoi(next());
    else if (a == "--playouts")
      o.playouts = std::atoi(next());
    else if (a == "--threads")
      o.threads = std::atoi(next());
    else if (a == "--cache-mb")
      o.cache_mb = std::atoi(next());
    else {
      std::fprintf(stderr,
                   "usage: cache_bench [--variant gardner] [--checkpoint FILE.pt] [--plies 60]\n"
                   "                   [--playouts 800] [--threads 1] [--cache-mb 256]\n");
      return 2;
    }
  }
  try {
    VariantPtr v = find_variant(o.variant);
    std::printf("%s, %d playouts a move, %d thread(s), tree reuse\n", o.variant.c_str(), o.playouts,
                o.threads);
    std::printf("%-8s %6s %10s %12s %16s %10s %10s\n", "cache", "plies", "playouts", "playouts/s",
                "forward passes", "hit rate", "cache MiB");
    play_game(o, v, false);
    play_game(o, v, true);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cache_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
