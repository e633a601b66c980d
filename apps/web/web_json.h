// The web board's JSON: a variant as the page draws it (cells, coordinates, zones, river banks,
// men with their names and Betza moves, seats) and a position as the page shows it (men, hands,
// the seat to move, its legal moves, locks, dropped-out seats, the result).
#pragma once

#include <nlohmann/json.hpp>

#include "core/position.h"
#include "mcts/search.h"

namespace fairyzero {

nlohmann::json variant_json(const Variant& variant);
// `legal` are the position's legal moves.
nlohmann::json position_json(const Position& position, const MoveList& legal);
// A move with its cells by name ("from", "to"), its text and what it promotes to or drops.
nlohmann::json move_json(const Position& before, Move m);
// A search's answer: best move, principal variation, visits, value and W/D/L per line.
nlohmann::json search_json(const Position& root, const SearchResult& result);
// "checkmate, White 1, Black 0" and the individual ranking of four-seat games.
nlohmann::json outcome_json(const Variant& variant, const Outcome& outcome);

}  // namespace fairyzero
