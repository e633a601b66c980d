// League play in self-play: the lineup of each game, where every seat plays with its newest
// network or, with probability agents.league_probability, a random earlier generation's, so
// agents do not only learn against copies of themselves.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mcts/inference_server.h"
#include "mcts/seat_routing_evaluator.h"
#include "training/learn/self_play.h"

namespace fairyzero {

class League {
 public:
  // Loads agent `agent`'s network of an earlier generation (the caller caches).
  using Loader = std::function<std::shared_ptr<Evaluator>(int generation, int agent)>;

  // `newest[a]` is agent a's network of `generation`: one agent for a shared network, else one
  // per seat (agent a plays seat a). Each network goes behind its own InferenceServer.
  League(VariantPtr variant, std::vector<std::shared_ptr<Evaluator>> newest, int generation,
         double probability, Loader load_earlier, const InferenceServerConfig& server);
  ~League();

  // For SelfPlay: draws each seat's generation (independently) and returns the lineup's
  // SeatRoutingEvaluator, built once per distinct lineup. Thread safe.
  GameLineup draw(std::mt19937_64& rng);
  // Games drawn so far with at least one earlier generation.
  int league_games() const;
  // Drains and stops every server (call before the League goes, with no search running).
  void shutdown();

 private:
  std::shared_ptr<Evaluator> server(int generation, int agent);  // under mutex_

  VariantPtr variant_;
  int generation_;
  double probability_;
  Loader load_earlier_;
  InferenceServerConfig server_config_;
  int agents_;
  mutable std::mutex mutex_;
  std::map<std::pair<int, int>, std::shared_ptr<InferenceServer>> servers_;  // (generation, agent)
  std::map<std::vector<int>, std::shared_ptr<SeatRoutingEvaluator>> lineups_;
  int league_games_ = 0;
};

}  // namespace fairyzero
