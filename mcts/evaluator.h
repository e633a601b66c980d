// The boundary between search and evaluation: a batch of positions with their legal moves goes
// in; for each, prior logits over those moves and an expected score per seat come out. The
// network (nn/), the uniform and material evaluators and test stubs all implement it, so mcts/
// never sees planes, policy indices or torch.
#pragma once

#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/position.h"

namespace fairyzero {

struct EvalRequest {
  const Position* position = nullptr;
  const MoveList* legal = nullptr;  // the position's legal moves, in generation order
};

struct Evaluation {
  // One logit per legal move, in the order of EvalRequest::legal. The search applies a softmax.
  std::vector<float> policy_logits;
  // Expected score of each seat in [0, 1] (1 win, 0.5 draw, 0 loss, or a rank score), indexed
  // by seat. Partners under team scoring get the same value.
  std::array<float, kMaxSeats> value{};
  // Win, draw and loss probabilities of the team to move, when the evaluator has them (two-team
  // variants with a WDL head); otherwise derived from `value`. For display.
  std::array<float, 3> wdl{};
};

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Fills out[i] for batch[i]. `out` has batch.size() elements. Implementations say whether
  // they may be called from several threads at once (all in this project may).
  virtual void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) = 0;
  virtual std::string name() const = 0;
};

// Win/draw/loss of the team to move when all that is known is its expected score.
inline std::array<float, 3> wdl_from_score(float score) {
  float win = std::max(0.0f, 2 * score - 1), loss = std::max(0.0f, 1 - 2 * score);
  return {win, 1 - win - loss, loss};
}

}  // namespace fairyzero
