// Drawing self-play lineups over the newest and earlier generations' networks, each network
// behind one InferenceServer shared by all the lineups that use it.
#include "training/learn/league.h"

#include <stdexcept>

#include "training/learn/train_run.h"

namespace fairyzero {

League::League(VariantPtr variant, std::vector<std::shared_ptr<Evaluator>> newest, int generation,
               double probability, Loader load_earlier, const InferenceServerConfig& server)
    : variant_(std::move(variant)),
      generation_(generation),
      probability_(probability),
      load_earlier_(std::move(load_earlier)),
      server_config_(server),
      agents_(static_cast<int>(newest.size())) {
  if (agents_ != 1 && agents_ != variant_->seat_count())
    throw std::invalid_argument("League: " + std::to_string(agents_) +
                                " networks for a variant of " +
                                std::to_string(variant_->seat_count()) + " seats");
  for (int a = 0; a < agents_; ++a)
    servers_[{generation_, a}] = std::make_shared<InferenceServer>(newest[a], server_config_);
}

League::~League() { shutdown(); }

std::shared_ptr<Evaluator> League::server(int generation, int agent) {
  auto& slot = servers_[{generation, agent}];
  if (!slot)
    slot = std::make_shared<InferenceServer>(load_earlier_(generation, agent), server_config_);
  return slot;
}

GameLineup League::draw(std::mt19937_64& rng) {
  const int seats = variant_->seat_count();
  std::vector<int> generations(seats, generation_);
  std::uniform_real_distribution<double> uniform(0, 1);
  bool earlier = false;
  if (generation_ > 0 && probability_ > 0) {
    std::uniform_int_distribution<int> pick(0, generation_ - 1);
    for (int& g : generations) {
      if (uniform(rng) >= probability_) continue;
      g = pick(rng);
      earlier = true;
    }
  }
  std::lock_guard lock(mutex_);
  league_games_ += earlier;
  auto& lineup = lineups_[generations];
  if (!lineup) {
    std::vector<std::shared_ptr<Evaluator>> per_seat;
    for (int s = 0; s < seats; ++s)
      per_seat.push_back(server(generations[s], agents_ == 1 ? 0 : s));
    lineup = std::make_shared<SeatRoutingEvaluator>(std::move(per_seat));
  }
  std::string label;
  for (int s = 0; s < seats; ++s)
    label += (s ? " " : "") + variant_->seats[s].name + "=" + generation_name(generations[s]);
  return {lineup.get(), label};
}

int League::league_games() const {
  std::lock_guard lock(mutex_);
  return league_games_;
}

void League::shutdown() {
  std::lock_guard lock(mutex_);
  for (auto& [key, server] : servers_) server->shutdown();
}

}  // namespace fairyzero
