// Uniform and material evaluators.
#include "mcts/basic_evaluators.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace fairyzero {

std::array<float, kMaxSeats> seat_values_from_team_scores(const Variant& variant,
                                                          const std::vector<float>& team_scores) {
  std::array<float, kMaxSeats> value{};
  for (int s = 0; s < variant.seat_count(); ++s)
    value[s] = team_scores[variant.team_of_army[variant.seats[s].army]];
  return value;
}

void UniformEvaluator::evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) {
  for (size_t i = 0; i < batch.size(); ++i) {
    out[i].policy_logits.assign(batch[i].legal->size(), 0.0f);
    out[i].value.fill(0.5f);
    out[i].wdl = wdl_from_score(0.5f);
  }
}

MaterialEvaluator::MaterialEvaluator(const Variant& variant) {
  const Geometry& g = variant.geometry;
  const MovementTables& tables = variant.tables;
  values_.assign(variant.piece_count(), 0.0f);
  for (int t = 0; t < variant.piece_count(); ++t) {
    if (variant.pieces[t].royal) continue;
    double destinations = 0;
    int cells = 0;
    for (Cell c = 0; c < g.cell_count(); ++c) {
      if (!g.exists(c)) continue;
      ++cells;
      const MoveSpan& span = tables.moves(0, t, c);
      destinations += span.leap_count;
      for (int r = 0; r < span.ray_count; ++r) {
        const Ray& ray = tables.rays()[span.ray_begin + r];
        destinations += ray.length - ray.first_destination;
      }
    }
    values_[t] = static_cast<float>(destinations / std::max(1, cells));
  }
  float total = 0;
  int counted = 0;
  for (float v : values_)
    if (v > 0) total += v, ++counted;
  float mean = counted ? total / counted : 1.0f;
  for (float& v : values_) v /= mean;
}

void MaterialEvaluator::evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) {
  for (size_t i = 0; i < batch.size(); ++i) {
    const Position& pos = *batch[i].position;
    const Variant& v = pos.variant();
    int teams = 1 + *std::max_element(v.team_of_army.begin(), v.team_of_army.end());
    std::vector<float> material(teams, 0.0f);
    for (Cell c = 0; c < v.geometry.cell_count(); ++c) {
      PieceCode p = pos.piece_at(c);
      if (p != kEmpty) material[v.team_of_army[army_of(p)]] += values_[type_of(p)];
    }
    for (int a = 0; a < v.army_count(); ++a)
      for (int t = 0; t < v.piece_count(); ++t)
        material[v.team_of_army[a]] += values_[t] * pos.hand_count(a, t);
    float top = *std::max_element(material.begin(), material.end());
    std::vector<float> score(teams);
    for (int t = 0; t < teams; ++t) score[t] = std::exp(material[t] - top);
    float sum = std::accumulate(score.begin(), score.end(), 0.0f);
    for (float& s : score) s /= sum;
    out[i].value = seat_values_from_team_scores(v, score);
    out[i].wdl = wdl_from_score(out[i].value[pos.seat_to_move()]);
    const MoveList& legal = *batch[i].legal;
    out[i].policy_logits.resize(legal.size());
    for (int k = 0; k < legal.size(); ++k) {
      Move m = legal[k];
      float gain = 0;
      if (m.kind() == MoveKind::kEnPassant)
        gain = 1.0f;
      else if (m.kind() != MoveKind::kDrop && m.kind() != MoveKind::kCastling &&
               m.kind() != MoveKind::kDropOut && pos.piece_at(m.to()) != kEmpty)
        gain = values_[type_of(pos.piece_at(m.to()))];
      if (m.is_promotion())
        gain += values_[m.piece_type()] - values_[type_of(pos.piece_at(m.from()))];
      out[i].policy_logits[k] = 2.0f * gain;
    }
  }
}

}  // namespace fairyzero
