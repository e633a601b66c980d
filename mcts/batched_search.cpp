// The round loop of batched search across games.
#include "mcts/batched_search.h"

#include <vector>

namespace fairyzero {

BatchedSearchStats run_batched(std::span<Search* const> searches, const SearchLimits& limits,
                               Evaluator& evaluator, int leaves_per_search) {
  std::vector<SearchLimits> each(searches.size(), limits);
  return run_batched(searches, each, evaluator, leaves_per_search);
}

BatchedSearchStats run_batched(std::span<Search* const> searches,
                               std::span<const SearchLimits> limits, Evaluator& evaluator,
                               int leaves_per_search) {
  BatchedSearchStats stats;
  std::vector<std::vector<PendingLeaf>> leaves(searches.size());
  std::vector<int> counts(searches.size());
  std::vector<EvalRequest> requests;
  std::vector<Evaluation> evaluations;
  for (size_t g = 0; g < searches.size(); ++g) searches[g]->begin(limits[g]);
  while (true) {
    requests.clear();
    bool any_running = false;
    for (size_t g = 0; g < searches.size(); ++g) {
      counts[g] = 0;
      if (searches[g]->done(limits[g])) continue;
      any_running = true;
      counts[g] = searches[g]->gather(leaves_per_search, leaves[g]);
      for (int i = 0; i < counts[g]; ++i)
        requests.push_back({&leaves[g][i].position, &leaves[g][i].legal});
    }
    if (!any_running) break;
    if (evaluations.size() < requests.size()) evaluations.resize(requests.size());
    if (!requests.empty())
      evaluator.evaluate(requests, std::span(evaluations).first(requests.size()));
    size_t offset = 0;
    for (size_t g = 0; g < searches.size(); ++g) {
      if (counts[g] == 0) continue;
      searches[g]->finish(std::span(leaves[g]).first(counts[g]),
                          std::span<const Evaluation>(evaluations).subspan(offset, counts[g]));
      offset += counts[g];
    }
    ++stats.rounds;
    stats.evaluated += static_cast<long long>(requests.size());
  }
  return stats;
}

}  // namespace fairyzero
