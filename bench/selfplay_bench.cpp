// Does self-play keep an accelerator busy? Measures the zero-cost rate of the self-play pipeline
// on this machine, then self-play against a device (a simulated accelerator sized to be the
// bottleneck, or a fresh network on the CPU or CUDA) behind InferenceServers, shared or one per
// seat, and prints evaluations/s, the device's busy fraction and batch fill, positions/s and
// samples/s. The last line: `busy B fill F evaluations/s E ideal/s I zero-cost/s Z`.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/variant_loader.h"
#include "mcts/basic_evaluators.h"
#include "mcts/inference_server.h"
#include "mcts/seat_routing_evaluator.h"
#include "mcts/simulated_device.h"
#include "nn/encoder.h"
#include "nn/network_config.h"
#include "nn/network_evaluator.h"
#include "training/learn/self_play.h"

namespace fairyzero {
namespace {

struct Options {
  std::string device = "simulated";
  std::string variant = "chess";
  std::string agents = "shared";
  // One core is left to the server threads and the device's driver: on a loaded machine a
  // server thread that waits for a core leaves the device idle.
  int workers = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
  int games = 128, games_per_worker = 64, leaves = 4, playouts = 64;
  int batches_in_flight = 2;
  int server_threads = 2;
  bool carry_over = true;
  int max_batch = 0;  // cpu and cuda; 0: every leaf in flight  // as training runs: the generation
                      // ends at its quota, no tail
  int blocks = 2, filters = 32;    // the network for cpu and cuda
  std::string precision = "fp32";  // the network's, as inference.precision
};

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: selfplay_bench [--device cpu|cuda|simulated[:latency_ms=L,max_batch=B]] "
               "[--variant V] [--agents shared|per-seat] [--games N] [--workers N] "
               "[--games-per-worker N] [--leaves N] [--playouts N] [--batches-in-flight N] "
               "[--server-threads N] [--carry-over 1|0] [--max-batch N] [--blocks N] [--filters N] "
               "[--precision fp32|fp16|bf16]\n");
  std::exit(2);
}

Options read_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 >= argc) usage();
    const std::string key = argv[i], value = argv[i + 1];
    auto number = [&] { return std::atoi(value.c_str()); };
    if (key == "--device")
      o.device = value;
    else if (key == "--variant")
      o.variant = value;
    else if (key == "--agents")
      o.agents = value;
    else if (key == "--games")
      o.games = number();
    else if (key == "--workers")
      o.workers = number();
    else if (key == "--games-per-worker")
      o.games_per_worker = number();
    else if (key == "--leaves")
      o.leaves = number();
    else if (key == "--playouts")
      o.playouts = number();
    else if (key == "--batches-in-flight")
      o.batches_in_flight = number();
    else if (key == "--server-threads")
      o.server_threads = number();
    else if (key == "--max-batch")
      o.max_batch = number();
    else if (key == "--carry-over")
      o.carry_over = number() != 0;
    else if (key == "--blocks")
      o.blocks = number();
    else if (key == "--filters")
      o.filters = number();
    else if (key == "--precision")
      o.precision = value;
    else
      usage();
  }
  if (o.agents != "shared" && o.agents != "per-seat") usage();
  return o;
}

SelfPlayConfig self_play_config(const Options& o) {
  SelfPlayConfig c;
  c.games = o.games;
  c.workers = o.workers;
  c.games_per_worker = o.games_per_worker;
  c.leaves_per_game = o.leaves;
  c.batches_in_flight = o.batches_in_flight;
  c.carry_over = o.carry_over;
  c.full_playouts = o.playouts;
  c.fast_playouts = std::max(1, o.playouts / 4);
  c.full_search_probability = 0.25;
  c.max_plies = 200;
  return c;
}

struct Run {
  SelfPlayStats stats;
  double evaluations_per_second = 0;
};

// One self-play run through `evaluator`.
Run self_play(const VariantPtr& variant, Evaluator& evaluator, const Options& o) {
  std::vector<Sample> samples;
  std::vector<GameRecord> games;
  Run run;
  run.stats = SelfPlay(variant, evaluator, self_play_config(o)).run(samples, games);
  run.evaluations_per_second = run.stats.seconds > 0 ? run.stats.evaluated / run.stats.seconds : 0;
  return run;
}

// Servers in front of `device`: one for every seat, or one shared, as the evaluator self-play
// sees.
std::shared_ptr<Evaluator> serve(const VariantPtr& variant, const Options& o,
                                 const std::shared_ptr<Evaluator>& device, int max_batch,
                                 std::vector<std::shared_ptr<InferenceServer>>& servers) {
  // One device: its servers take turns (the simulated device and a CPU run one batch at a
  // time; a GPU one per server thread, each on its stream).
  const int device_batches = o.device.rfind("cuda", 0) == 0 ? o.server_threads : 1;
  const InferenceServerConfig config{.max_batch = max_batch,
                                     .max_wait_us = 2000,
                                     .clients = o.workers * o.batches_in_flight,
                                     .threads = o.server_threads,
                                     .gate = std::make_shared<DeviceGate>(device_batches)};
  const int count = o.agents == "shared" ? 1 : variant->seat_count();
  for (int s = 0; s < count; ++s)
    servers.push_back(std::make_shared<InferenceServer>(device, config));
  if (count == 1) return servers[0];
  return std::make_shared<SeatRoutingEvaluator>(
      std::vector<std::shared_ptr<Evaluator>>(servers.begin(), servers.end()));
}

int run(const Options& o) {
  const VariantPtr variant = find_variant(o.variant);
  const int in_flight = o.workers * o.games_per_worker * o.leaves;
  std::printf(
      "self-play of %s, %s agents: %d games, %d workers x %d games, %d leaves, %d playouts\n",
      variant->name.c_str(), o.agents.c_str(), o.games, o.workers, o.games_per_worker, o.leaves,
      o.playouts);

  // The pipeline's own ceiling: a zero-cost evaluator behind the same servers.
  std::vector<std::shared_ptr<InferenceServer>> zero_servers;
  auto zero = serve(variant, o, std::make_shared<UniformEvaluator>(), in_flight, zero_servers);
  const Run zero_cost = self_play(variant, *zero, o);
  std::printf("zero-cost evaluator: %.0f evaluations/s, %.0f positions/s\n",
              zero_cost.evaluations_per_second, zero_cost.stats.moves_per_second());

  std::shared_ptr<Evaluator> device;
  std::shared_ptr<SimulatedDevice> simulated;
  int max_batch = o.max_batch > 0 ? o.max_batch : in_flight;
  double ideal = 0;
  if (is_simulated_device(o.device)) {
    SimulatedDeviceConfig config = parse_simulated_device(o.device);
    if (o.device.find("max_batch") == std::string::npos) config.max_batch = in_flight;
    // Sized to be the bottleneck: its ideal rate half the zero-cost rate, unless given.
    if (o.device.find("latency_ms") == std::string::npos)
      config.latency_ms = 1000.0 * config.max_batch / (0.5 * zero_cost.evaluations_per_second);
    simulated = std::make_shared<SimulatedDevice>(config);
    device = simulated;
    max_batch = config.max_batch;
    ideal = 1000.0 * config.max_batch / config.latency_ms;
  } else {
    Encoder encoder(variant);
    const NetworkConfig network{.blocks = o.blocks, .filters = o.filters};
    device = std::make_shared<NetworkEvaluator>(
        variant, make_network(network, encoder.network_shape()),
        NetworkEvaluatorOptions{.device = o.device, .precision = parse_precision(o.precision)});
  }
  std::printf("device: %s, max batch %d\n", device->name().c_str(), max_batch);
  std::vector<std::shared_ptr<InferenceServer>> servers;
  auto evaluator = serve(variant, o, device, max_batch, servers);
  if (simulated) simulated->reset();
  const Run measured = self_play(variant, *evaluator, o);

  double busy = 0, batches = 0, positions = 0;
  if (simulated) {
    const SimulatedDeviceStats s = simulated->stats();
    busy = s.busy_fraction();
    batches = static_cast<double>(s.calls);
    positions = static_cast<double>(s.positions);
  } else {
    for (const auto& server : servers) {
      const InferenceServerStats s = server->stats();
      busy += s.backend_seconds / measured.stats.seconds;
      batches += static_cast<double>(s.batches);
      positions += static_cast<double>(s.positions);
    }
  }
  const double fill = batches > 0 ? positions / batches / max_batch : 0;
  // Positions: every move played, in the games still going too (carry over); samples at the
  // finished games' rate per move.
  const SelfPlayStats& s = measured.stats;
  const double seconds = s.seconds;
  const double positions_per_second = seconds > 0 ? s.played / seconds : 0;
  const double samples_per_move = s.moves > 0 ? static_cast<double>(s.samples) / s.moves : 0;
  std::printf("self-play: %d games in %.1f s, %.0f positions/s, %.0f samples/s, mean batch %.0f\n",
              s.games, seconds, positions_per_second, positions_per_second * samples_per_move,
              batches > 0 ? positions / batches : 0);
  std::printf("busy %.3f fill %.3f evaluations/s %.0f ideal/s %.0f zero-cost/s %.0f\n", busy, fill,
              measured.evaluations_per_second, ideal, zero_cost.evaluations_per_second);
  return 0;
}

}  // namespace
}  // namespace fairyzero

int main(int argc, char** argv) {
  try {
    return fairyzero::run(fairyzero::read_options(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "selfplay_bench: %s\n", e.what());
    return 1;
  }
}
