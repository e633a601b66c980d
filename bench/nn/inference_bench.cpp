// Inference throughput: the bare network forward on an encoded batch, the NetworkEvaluator
// (encode + forward + gather), and the InferenceServer fed by client threads that submit one
// position each, at the same batch size. The last ratio is the server's batching efficiency.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/variant_loader.h"
#include "mcts/batched_search.h"
#include "mcts/inference_server.h"
#include "nn/encoder.h"
#include "nn/network.h"
#include "nn/network_evaluator.h"
#include "nn/prepared_network.h"

namespace {

using namespace fairyzero;
using Clock = std::chrono::steady_clock;

// A command line this program cannot use; main() prints it with the usage.
struct UsageError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct Options {
  std::string variant = "chess";
  NetworkConfig config;
  int batch = 64;
  int clients = 0;  // 0: as many as the batch
  std::string device = "cpu";
  std::string precision = "fp32";
  double seconds = 3;
  int torch_threads = 0;  // 0: LibTorch's default
  int server_threads = 1;
  int max_wait_us = 2000;
};

const char* kUsage =
    "usage: inference_bench [--variant chess] [--blocks 6] [--filters 64] [--batch 64]\n"
    "                       [--clients N (default: batch)] [--device cpu|cuda|cuda:N]\n"
    "                       [--precision fp32|fp16|bf16]\n"
    "                       [--seconds 3] [--torch-threads N] [--server-threads 1]\n"
    "                       [--max-wait-us 2000]\n";

Options parse(int argc, char** argv) {
  Options o;
  auto number = [&](int& i) {
    const std::string option = argv[i];
    if (i + 1 >= argc) throw UsageError(option + " needs a value");
    const std::string text = argv[++i];
    size_t used = 0;
    double value = 0;
    try {
      value = std::stod(text, &used);
    } catch (const std::exception&) {
    }
    if (used == 0 || used != text.size())
      throw UsageError(option + " needs a number, not '" + text + "'");
    return value;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--variant" && i + 1 < argc)
      o.variant = argv[++i];
    else if (a == "--device" && i + 1 < argc)
      o.device = argv[++i];
    else if (a == "--blocks")
      o.config.blocks = static_cast<int>(number(i));
    else if (a == "--filters")
      o.config.filters = static_cast<int>(number(i));
    else if (a == "--batch")
      o.batch = static_cast<int>(number(i));
    else if (a == "--clients")
      o.clients = static_cast<int>(number(i));
    else if (a == "--seconds")
      o.seconds = number(i);
    else if (a == "--torch-threads")
      o.torch_threads = static_cast<int>(number(i));
    else if (a == "--server-threads")
      o.server_threads = static_cast<int>(number(i));
    else if (a == "--max-wait-us")
      o.max_wait_us = static_cast<int>(number(i));
    else if (a == "--precision" && i + 1 < argc)
      o.precision = argv[++i];
    else
      throw UsageError("unknown option " + a);
  }
  if (o.batch < 1 || o.seconds <= 0) throw UsageError("--batch and --seconds must be > 0");
  if (o.clients <= 0) o.clients = o.batch;
  return o;
}

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Positions from seeded random games, each with its legal moves.
struct Positions {
  std::vector<Position> positions;
  std::vector<MoveList> legal;
  std::vector<EvalRequest> requests;
  Positions(const VariantPtr& v, int count) {
    std::mt19937 rng(7);
    Position pos(v);
    positions.reserve(count);
    while (static_cast<int>(positions.size()) < count) {
      LegalMoves moves(pos);
      if (moves.empty() || pos.outcome(moves).over() || pos.plies_played() > 150) {
        pos = Position(v);
        continue;
      }
      positions.push_back(pos);
      pos.play(moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng)]);
    }
    legal.resize(count);
    for (int i = 0; i < count; ++i) {
      positions[i].legal_moves(legal[i]);
      requests.push_back({&positions[i], &legal[i]});
    }
  }
};

// Runs `step` (which handles `per_step` positions) until `seconds` pass; positions per second.
template <typename F>
double rate(double seconds, int per_step, F&& step) {
  for (int i = 0; i < 2; ++i) step();  // warm-up: allocator, kernels, lazy init
  int64_t done = 0;
  const Clock::time_point start = Clock::now();
  while (since(start) < seconds) step(), done += per_step;
  return done / since(start);
}

void row(const char* what, double per_second, double mean_batch, double reference) {
  std::printf("  %-50s %12.0f %11.1f %10.1f%%\n", what, per_second, mean_batch,
              100.0 * per_second / reference);
}

int run(const Options& o) {
  if (o.torch_threads > 0) torch::set_num_threads(o.torch_threads);
  VariantPtr v = find_variant(o.variant);
  Encoder enc(v);
  std::shared_ptr<NetworkImpl> net = make_network(o.config, enc.network_shape());
  const int pool = std::max(o.batch, o.clients) * 2;
  Positions data(v, pool);
  NetworkEvaluatorOptions eval_options{.device = o.device,
                                       .precision = parse_precision(o.precision)};
  auto evaluator = std::make_shared<NetworkEvaluator>(v, net, eval_options);

  std::printf("inference_bench: %s, %s, batch %d, %d torch threads, %.1f s per row\n",
              o.variant.c_str(), evaluator->name().c_str(), o.batch, torch::get_num_threads(),
              o.seconds);
  std::printf("  %-50s %12s %11s %11s\n", "", "positions/s", "mean batch", "vs forward");

  // 1. The bare forward pass on planes already on the device: the training network (eager, in
  // eval mode) and the prepared one the evaluator runs (batch norm folded, cast).
  const torch::Device device(o.device);
  const Precision precision = parse_precision(o.precision);
  const auto dtype = device.is_cuda() ? scalar_type(precision) : torch::kFloat;
  auto bare = std::dynamic_pointer_cast<NetworkImpl>(net->clone(device));
  bare->to(device, dtype);
  bare->eval();
  torch::Tensor planes = torch::empty({o.batch, enc.plane_count(), enc.ranks(), enc.files()});
  for (int i = 0; i < o.batch; ++i)
    enc.encode(data.positions[i], planes.data_ptr<float>() + i * enc.plane_floats());
  const bool reduced = device.is_cuda() && precision != Precision::kFloat32;
  PreparedNetwork prepared(*net, {.device = device,
                                  .precision = device.is_cuda() ? precision : Precision::kFloat32,
                                  .channels_last = reduced});
  const torch::Tensor prepared_planes = prepared.prepare_input(planes);
  const torch::Tensor eager_planes = planes.to(device, dtype);
  // Measured in turns, three times each, the best kept: on a shared machine the rate drifts by
  // more than the difference between the two.
  double eager = 0, forward = 0;
  for (int turn = 0; turn < 3; ++turn) {
    eager = std::max(eager, rate(o.seconds / 3, o.batch, [&] {
                       torch::NoGradGuard no_grad;
                       NetworkOutput out = bare->forward(eager_planes);
                       (void)out.value.sum().item<float>();  // waits for the device
                     }));
    forward = std::max(forward, rate(o.seconds / 3, o.batch, [&] {
                         c10::InferenceMode inference;
                         NetworkOutput out = prepared.forward(prepared_planes);
                         (void)out.value.sum().item<float>();
                       }));
  }
  row("training network forward (planes on the device)", eager, o.batch, forward);
  row("prepared network forward (planes on the device)", forward, o.batch, forward);

  // 2. Encoding alone, on one thread.
  std::vector<float> buffer(static_cast<size_t>(enc.plane_floats()));
  size_t next = 0;
  const double encode = rate(o.seconds / 2, 1, [&] {
    enc.encode(data.positions[next++ % data.positions.size()], buffer.data());
  });
  row("encode only (one thread)", encode, 1, forward);

  // 3. The evaluator on whole batches: encode + forward + logits of the legal moves.
  std::vector<Evaluation> out(o.batch);
  const size_t batches_in_pool = data.requests.size() / o.batch;
  size_t which = 0;
  const double direct = rate(o.seconds, o.batch, [&] {
    const size_t first = (which++ % batches_in_pool) * o.batch;
    evaluator->evaluate(std::span(data.requests).subspan(first, o.batch), out);
  });
  row("NetworkEvaluator, whole batches", direct, o.batch, forward);

  // 4. The server, fed one position per call by client threads.
  InferenceServer server(
      evaluator, {.max_batch = o.batch, .max_wait_us = o.max_wait_us, .threads = o.server_threads});
  std::atomic<bool> stop{false};
  std::atomic<int64_t> served{0};
  std::vector<std::thread> clients;
  Clock::time_point start = Clock::now();
  for (int c = 0; c < o.clients; ++c) {
    clients.emplace_back([&, c] {
      Evaluation e;
      for (size_t i = c; !stop; i = (i + o.clients) % data.requests.size()) {
        server.evaluate(std::span(data.requests).subspan(i, 1), std::span(&e, 1));
        ++served;
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(o.seconds));
  stop = true;
  for (std::thread& t : clients) t.join();
  const double through_server = served / since(start);
  char label[64];
  std::snprintf(label, sizeof label, "InferenceServer, %d clients x 1 position", o.clients);
  row(label, through_server, server.stats().mean_batch(), forward);
  const double elapsed = since(start);
  std::printf(
      "server backend busy %.1f%% of the time; efficiency (server / bare forward): %.1f%%\n",
      100.0 * server.stats().backend_seconds / elapsed, 100.0 * through_server / forward);

  // 5. Search + server, as self-play runs: driver threads each searching a group of games with
  // batched leaves (mcts/batched_search.h). Four drivers of half a batch each keep two batches in
  // flight: while one is evaluated, the other half of the drivers select and back up.
  const int drivers = 4, leaves_per_game = 4;
  const int games = std::max(1, o.batch / (2 * leaves_per_game));
  InferenceServer search_server(
      evaluator, {.max_batch = o.batch, .max_wait_us = o.max_wait_us, .threads = o.server_threads});
  std::atomic<int64_t> searched{0};
  stop = false;
  std::vector<std::thread> workers;
  start = Clock::now();
  for (int d = 0; d < drivers; ++d) {
    workers.emplace_back([&, d] {
      for (size_t round = d; !stop; round += drivers) {
        std::vector<std::unique_ptr<Search>> group;
        std::vector<Search*> pointers;
        for (int g = 0; g < games; ++g) {
          const Position& p = data.positions[(round * games + g) % data.positions.size()];
          group.push_back(std::make_unique<Search>(p, search_server));
          pointers.push_back(group.back().get());
        }
        searched +=
            run_batched(pointers, {.playouts = 64}, search_server, leaves_per_game).evaluated;
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(o.seconds));
  stop = true;
  for (std::thread& t : workers) t.join();
  const double through_search = searched / since(start);
  std::snprintf(label, sizeof label, "search + server, %d drivers x %d games x %d", drivers, games,
                leaves_per_game);
  row(label, through_search, search_server.stats().mean_batch(), forward);
  std::printf("efficiency (search + server / bare forward): %.1f%%\n",
              100.0 * through_search / forward);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse(argc, argv));
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s\n%s", e.what(), kUsage);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "inference_bench: %s\n", e.what());
    return 1;
  }
}
