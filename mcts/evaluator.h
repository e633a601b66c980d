// The boundary between search and evaluation: a batch of positions with their legal moves goes
// in; for each, prior logits over those moves and an expected score per seat come out. The
// network (nn/), the uniform and material evaluators and test stubs all implement it, so mcts/
// never sees planes, policy indices or torch.
#pragma once

#include <array>
#include <cstddef>
#include <exception>
#include <future>
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
  // Plies predicted to the game's end (a network's moves-left head); negative when the
  // evaluator predicts none.
  float moves_left = -1;
};

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Fills out[i] for batch[i]. `out` has batch.size() elements. Implementations say whether
  // they may be called from several threads at once (all in this project may).
  virtual void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) = 0;
  // Starts evaluating and returns at once where the evaluator can queue work (an
  // InferenceServer), so a caller keeps several batches in flight; the default evaluates before
  // it returns. `batch`, the positions and `out` must stay valid until the future is ready;
  // get() rethrows the evaluator's error.
  virtual std::future<void> evaluate_async(std::span<const EvalRequest> batch,
                                           std::span<Evaluation> out) {
    std::promise<void> done;
    try {
      evaluate(batch, out);
      done.set_value();
    } catch (...) {
      done.set_exception(std::current_exception());
    }
    return done.get_future();
  }
  virtual std::string name() const = 0;
  // The evaluator that would evaluate `position`: this one, or for a router the one it passes
  // the position to, so a caller that batches for several evaluators can send it there directly
  // (and wait on each of them separately).
  virtual Evaluator& evaluator_for(const Position& position) {
    (void)position;
    return *this;
  }
};

// An evaluator whose inputs its callers can encode in their own threads (KataGo's search
// threads fill the input rows), so that an InferenceServer's threads only feed the device: each
// caller encodes its positions into rows of row_bytes(), a server thread copies a batch's rows
// into its own staging area (pinned memory for a GPU) and runs it.
class StagedEvaluator : public Evaluator {
 public:
  // One server thread's resources, reused for every batch it runs: the staging rows and, on a
  // GPU, its stream and output buffers.
  class Staging {
   public:
    virtual ~Staging() = default;
    virtual std::byte* rows() = 0;  // max_rows * row_bytes()
  };

  virtual size_t row_bytes() const = 0;
  // Writes request's row_bytes() bytes; any thread.
  virtual void encode_row(const EvalRequest& request, std::byte* row) const = 0;
  virtual std::unique_ptr<Staging> make_staging(int max_rows) = 0;
  // Evaluates the batch whose rows are in staging.rows(), in batch order. One call per staging
  // at a time; calls on different stagings may run at once.
  virtual void evaluate_staged(std::span<const EvalRequest> batch, Staging& staging,
                               std::span<Evaluation> out) = 0;
};

// Win/draw/loss of the team to move when all that is known is its expected score.
inline std::array<float, 3> wdl_from_score(float score) {
  float win = std::max(0.0f, 2 * score - 1), loss = std::max(0.0f, 1 - 2 * score);
  return {win, 1 - win - loss, loss};
}

}  // namespace fairyzero
