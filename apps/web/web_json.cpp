// JSON for the web board, written from the variant and position alone so that any variant
// FairyZero loads is drawn without a line of page code of its own.
#include "apps/web/web_json.h"

#include <algorithm>

namespace fairyzero {
namespace {
using nlohmann::json;

json cells_json(const Geometry& g, const CellSet& cells) {
  json out = json::array();
  for (Cell c = 0; c < g.cell_count(); ++c)
    if (cells.contains(c)) out.push_back(g.cell_name(c));
  return out;
}

json piece_json(const Variant& v, PieceCode p) {
  return {{"army", army_of(p)}, {"type", type_of(p)}, {"text", v.piece_text(p)}};
}

}  // namespace

json move_json(const Position& pos, Move m) {
  const Geometry& g = pos.variant().geometry;
  json out = {{"text", pos.move_text(m)}};
  switch (m.kind()) {
    case MoveKind::kDrop:
      out["drop"] = m.piece_type();
      out["to"] = g.cell_name(m.to());
      break;
    case MoveKind::kDropOut: out["drop_out"] = true; break;
    case MoveKind::kPass: out["pass"] = true; break;
    default:
      out["from"] = g.cell_name(m.from());
      out["to"] = g.cell_name(m.to());
      if (m.is_promotion()) out["promotion"] = m.piece_type();
  }
  return out;
}

json variant_json(const Variant& v) {
  const Geometry& g = v.geometry;
  json board = {{"files", g.files()},
                {"ranks", g.ranks()},
                {"file_names", g.file_names()},
                {"rank_names", g.rank_names()}};
  // Every grid cell, by file and rank: its name, whether it exists, its River bank.
  json cells = json::array();
  for (Cell c = 0; c < g.cell_count(); ++c) {
    json cell = {{"file", g.file_of(c)}, {"rank", g.rank_of(c)}, {"exists", g.exists(c)}};
    if (g.exists(c)) cell["name"] = g.cell_name(c);
    if (g.bank_of(c) >= 0) cell["bank"] = g.bank_of(c);
    cells.push_back(std::move(cell));
  }
  board["cells"] = std::move(cells);
  json zones = json::object();
  for (const auto& [name, set] : g.zones()) zones[name] = cells_json(g, set);
  board["zones"] = std::move(zones);
  board["river"] = g.bank_count() > 0;

  json pieces = json::array();
  for (const PieceType& p : v.pieces)
    pieces.push_back({{"name", p.name},
                      {"letter", std::string(1, p.letter)},
                      {"betza", p.betza},
                      {"royal", p.royal},
                      {"promotions", p.promotion_choices}});
  json seats = json::array();
  for (int s = 0; s < v.seat_count(); ++s)
    seats.push_back({{"name", v.seats[s].name},
                     {"army", v.seats[s].army},
                     {"team", v.team_of_army[v.seats[s].army]},
                     {"restricted_to_side", v.has_sides()}});
  return {{"name", v.name},           {"title", v.title},
          {"note", v.note},           {"board", board},
          {"pieces", pieces},         {"armies", v.armies},
          {"seats", seats},           {"turn_order", v.turn_order},
          {"start_fen", v.start_fen}, {"drops", v.rules.captures_to_hand}};
}

json position_json(const Position& pos, const MoveList& legal) {
  const Variant& v = pos.variant();
  const Geometry& g = v.geometry;
  json men = json::array();
  for (Cell c = 0; c < g.cell_count(); ++c)
    if (g.exists(c) && pos.piece_at(c) != kEmpty) {
      json man = piece_json(v, pos.piece_at(c));
      man["cell"] = g.cell_name(c);
      men.push_back(std::move(man));
    }
  json hands = json::array();
  for (int a = 0; a < v.army_count(); ++a) {
    json hand = json::object();
    for (int t = 0; t < v.piece_count(); ++t)
      if (pos.hand_count(a, t) > 0) hand[std::to_string(t)] = pos.hand_count(a, t);
    hands.push_back(std::move(hand));
  }
  json moves = json::array();
  for (int i = 0; i < legal.size(); ++i) moves.push_back(move_json(pos, legal[i]));
  json seats = json::array();
  for (int s = 0; s < v.seat_count(); ++s)
    seats.push_back({{"in_game", pos.seat_in_game(s)},
                     {"dropout_order", pos.dropout_order(s)},
                     {"restricted", pos.seat_restricted(s)}});
  json locks = json::array();
  for (int a = 0; a < v.army_count(); ++a)
    if (pos.locked_cell(a) != kNoCell)
      locks.push_back({{"army", a}, {"cell", g.cell_name(pos.locked_cell(a))}});
  const Outcome outcome = pos.outcome(legal);
  json out = {{"fen", pos.fen()},
              {"men", men},
              {"hands", hands},
              {"seat_to_move", pos.seat_to_move()},
              {"legal_moves", moves},
              {"seats", seats},
              {"locks", locks},
              {"in_check", pos.in_check()},
              {"plies", pos.plies_played()}};
  if (outcome.over()) out["outcome"] = outcome_json(v, outcome);
  return out;
}

json outcome_json(const Variant& v, const Outcome& outcome) {
  json scores = json::array(), individual = json::array(), ranks = json::array();
  for (int s = 0; s < v.seat_count(); ++s) {
    scores.push_back(outcome.score[s]);
    individual.push_back(outcome.individual[s]);
    ranks.push_back(outcome.rank[s]);
  }
  json out = {{"termination", termination_name(outcome.termination)}, {"score", scores}};
  if (v.seat_count() > v.army_count()) {
    out["individual"] = individual;
    out["rank"] = ranks;
  }
  return out;
}

json search_json(const Position& root, const SearchResult& r) {
  auto line_text = [&](const std::vector<Move>& pv) {
    json moves = json::array();
    Position p = root;
    for (Move m : pv) {
      moves.push_back(p.move_text(m));
      p.play(m);
    }
    return moves;
  };
  json lines = json::array();
  for (const SearchLine& line : r.lines)
    lines.push_back({{"move", root.move_text(line.move)},
                     {"visits", line.visits},
                     {"value", line.value},
                     {"wdl", line.wdl},
                     {"proven", line.proven},
                     {"pv", line_text(line.pv)}});
  json out = {{"visits", r.root_visits},
              {"playouts", r.playouts},
              {"seconds", r.seconds},
              {"value", r.value[root.seat_to_move()]},
              {"wdl", r.wdl},
              {"proven", r.proven},
              {"pv", line_text(r.principal_variation)},
              {"lines", lines}};
  if (!r.best.is_none()) out["best"] = root.move_text(r.best);
  return out;
}

}  // namespace fairyzero
