// Compiled rules as named fields: what makes two variants play the same game.
#include "core/rules_fingerprint.h"

#include <cstdio>
#include <stdexcept>

namespace fairyzero {
namespace {

uint64_t fnv1a(std::string_view text, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string hex(uint64_t h) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

std::string cells_text(const Geometry& g, const CellSet& cells) {
  std::string out;
  cells.for_each([&](Cell c) { out += (out.empty() ? "" : " ") + g.cell_name(c); });
  return out;
}

template <typename T>
std::string list(const std::vector<T>& items) {
  std::string out;
  for (const T& item : items) out += (out.empty() ? "" : " ") + std::to_string(item);
  return out;
}

std::string letters(const Variant& v, const std::vector<int>& types) {
  std::string out;
  for (int t : types) out += v.pieces[t].letter;
  return out;
}

// The compiled moves of one piece type from every cell in every seat orientation: what the move
// text, the corner and solid-block rules, the River and the odd-move rule made of its atoms.
std::string compiled_moves_digest(const Variant& v, int type) {
  const MovementTables& t = v.tables;
  uint64_t h = fnv1a("");
  auto mix = [&](uint64_t value) {
    h = fnv1a(std::string_view(reinterpret_cast<const char*>(&value), sizeof value), h);
  };
  for (int o = 0; o < v.seat_count(); ++o)
    for (Cell c = 0; c < v.geometry.cell_count(); ++c) {
      const MoveSpan& span = t.moves(o, type, c);
      mix(span.leap_count << 16 | span.ray_count);
      for (int i = 0; i < span.leap_count; ++i) {
        const LeapTarget& l = t.leaps()[span.leap_begin + i];
        mix(l.cell << 8 | l.mode);
      }
      for (int i = 0; i < span.ray_count; ++i) {
        const Ray& r = t.rays()[span.ray_begin + i];
        mix(uint64_t{r.length} << 24 | r.first_destination << 16 | r.mode << 8 | r.double_step);
        for (int k = 0; k < r.length; ++k) mix(t.ray_cells()[r.begin + k]);
      }
    }
  return hex(h);
}

void add_board(const Variant& v, RulesFields& f) {
  const Geometry& g = v.geometry;
  f.emplace_back("board.size", std::to_string(g.files()) + "x" + std::to_string(g.ranks()));
  std::string files, ranks;
  for (const std::string& n : g.file_names()) files += (files.empty() ? "" : " ") + n;
  for (const std::string& n : g.rank_names()) ranks += (ranks.empty() ? "" : " ") + n;
  f.emplace_back("board.file_names", files);
  f.emplace_back("board.rank_names", ranks);
  f.emplace_back("board.cells", cells_text(g, g.existing_cells()));
  std::string banks, forward;
  for (Cell c = 0; c < g.cell_count(); ++c) {
    banks += std::to_string(g.bank_of(c)) + " ";
    auto d = g.forward_at(c);
    forward += d ? std::to_string(static_cast<int>(*d)) + " " : "- ";
  }
  f.emplace_back("board.banks", banks);
  f.emplace_back("board.forward", forward);
}

void add_piece(const Variant& v, int type, RulesFields& f) {
  const PieceType& p = v.pieces[type];
  const Geometry& g = v.geometry;
  const std::string key = "pieces." + std::string(1, p.letter) + ".";
  f.emplace_back(key + "moves", compiled_moves_digest(v, type));
  f.emplace_back(
      key + "flags",
      std::string(p.royal ? "royal " : "") + (p.en_passant ? "en_passant " : "") +
          (p.resets_move_count ? "resets_move_count " : "") +
          (p.promotion_optional ? "promotion_optional " : "") +
          (p.corner_exempt ? "corner_exempt " : "") + (p.crosses_river ? "" : "stays_on_bank ") +
          (p.promote_on_crossing ? "promote_on_crossing " : "") +
          (p.same_direction_capture ? "" : "no_same_direction_capture ") +
          (p.capture_when_crossing ? "capture_when_crossing " : "") +
          (p.section_exclusion ? "section_exclusion " : "") + (p.move_lock ? "move_lock " : "") +
          "max_per_army=" + std::to_string(p.max_per_army));
  f.emplace_back(key + "promotion", letters(v, p.promotion_choices));
  for (int a = 0; a < v.army_count(); ++a) {
    f.emplace_back(key + "promotion_zone." + v.armies[a], cells_text(g, p.promotion_zone[a]));
    f.emplace_back(key + "initial_cells." + v.armies[a], cells_text(g, p.initial_cells[a]));
  }
  std::string crossings;
  for (auto [from, to] : p.river_crossings)
    crossings += g.cell_name(from) + "-" + g.cell_name(to) + " ";
  f.emplace_back(key + "river_crossings", crossings);
}

void add_players(const Variant& v, RulesFields& f) {
  const Geometry& g = v.geometry;
  std::string armies;
  for (int a = 0; a < v.army_count(); ++a)
    armies += (a ? " " : "") + v.armies[a] + "/team" + std::to_string(v.team_of_army[a]);
  f.emplace_back("armies", armies);
  for (const Seat& s : v.seats)
    f.emplace_back("seats." + s.name, "army=" + std::to_string(s.army) + " forward=" +
                                          std::to_string(static_cast<int>(s.forward)) +
                                          " fen=" + s.fen + " side=" + cells_text(g, s.side));
  f.emplace_back("turn_order", list(v.turn_order));
  for (const CastlingRule& c : v.castling) {
    std::string value = "army=" + std::to_string(c.army) + " king=" + g.cell_name(c.king_from) +
                        "-" + g.cell_name(c.king_to) + " rook=" + g.cell_name(c.rook_from) + "-" +
                        g.cell_name(c.rook_to) + " empty=";
    for (Cell x : c.must_be_empty) value += g.cell_name(x) + ",";
    value += " safe=";
    for (Cell x : c.must_not_be_attacked) value += g.cell_name(x) + ",";
    value += c.capture_on_path ? " capture_on_path" : "";
    f.emplace_back("castling." + std::string(1, c.fen), value);
  }
}

void add_rules(const Variant& v, RulesFields& f) {
  const Rules& r = v.rules;
  auto result = [](NoMoveResult x) {
    return x == NoMoveResult::kWin ? "win" : x == NoMoveResult::kDraw ? "draw" : "loss";
  };
  f.emplace_back("rules.check", r.check ? "true" : "false");
  f.emplace_back("rules.checkmate", result(r.checkmate));
  f.emplace_back("rules.stalemate", result(r.stalemate));
  f.emplace_back("rules.move_rule", std::to_string(r.move_rule));
  f.emplace_back("rules.repetition", std::to_string(r.repetition));
  f.emplace_back("rules.max_plies", std::to_string(r.max_plies));
  std::string presence;
  for (int t = 0; t < v.piece_count(); ++t)
    if (r.royal_presence >> t & 1) presence += v.pieces[t].letter;
  f.emplace_back("rules.royal_presence", presence);
  std::string capture;
  for (auto [type, count] : r.capture_to_win)
    capture += std::string(1, v.pieces[type].letter) + "x" + std::to_string(count) + " ";
  f.emplace_back("rules.capture_to_win", capture);
  f.emplace_back("rules.drop_out", r.drop_out ? "true" : "false");
  std::string takeover;
  for (auto [from, to] : r.takeover)
    takeover += std::string(1, v.pieces[from].letter) + ">" + v.pieces[to].letter + " ";
  f.emplace_back("rules.takeover", takeover);
  f.emplace_back("rules.odd_rule", std::to_string(static_cast<int>(r.odd_rule)));
  f.emplace_back("rules.captures_to_hand", r.captures_to_hand ? "true" : "false");
  f.emplace_back("rules.pass_when_no_move", r.pass_when_no_move ? "true" : "false");
  f.emplace_back("rules.royal_capture",
                 r.royal_capture == Rules::RoyalCapture::kTakeOver ? "take-over" : "defeat");
  f.emplace_back("rules.scoring", v.scoring == Scoring::kTeam ? "team" : "individual");
  const Coronation& c = v.coronation;
  f.emplace_back("coronation", c.piece < 0 ? "none"
                                           : std::string(1, v.pieces[c.piece].letter) + ">" +
                                                 v.pieces[c.becomes].letter + " between " +
                                                 v.pieces[c.bishop].letter + " and " +
                                                 v.pieces[c.steward].letter + ", defeat at " +
                                                 std::to_string(c.defeat_at));
}

}  // namespace

RulesFields rules_fields(const Variant& v) {
  RulesFields f;
  add_board(v, f);
  std::string pieces;
  for (const PieceType& p : v.pieces) pieces += p.letter;
  f.emplace_back("pieces", pieces);
  for (int t = 0; t < v.piece_count(); ++t) add_piece(v, t, f);
  add_players(v, f);
  add_rules(v, f);
  f.emplace_back("start_fen", v.start_fen);
  return f;
}

std::string rules_fields_text(const RulesFields& fields) {
  std::string out;
  for (const auto& [key, value] : fields) out += key + " = " + value + "\n";
  return out;
}

RulesFields parse_rules_fields(std::string_view text) {
  RulesFields out;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (line.empty()) continue;
    size_t eq = line.find(" = ");
    if (eq == std::string_view::npos)
      throw std::invalid_argument("rules field without ' = ': " + std::string(line));
    out.emplace_back(std::string(line.substr(0, eq)), std::string(line.substr(eq + 3)));
  }
  return out;
}

std::string rules_fingerprint(const RulesFields& fields) {
  return hex(fnv1a(rules_fields_text(fields)));
}

std::string rules_fingerprint(const Variant& variant) {
  return rules_fingerprint(rules_fields(variant));
}

std::string first_rules_difference(const RulesFields& here, const RulesFields& there) {
  auto shorten = [](const std::string& s) { return s.size() > 60 ? s.substr(0, 57) + "..." : s; };
  for (size_t i = 0; i < std::max(here.size(), there.size()); ++i) {
    if (i >= here.size())
      return there[i].first + ": absent here, '" + shorten(there[i].second) + "' there";
    if (i >= there.size())
      return here[i].first + ": '" + shorten(here[i].second) + "' here, absent there";
    if (here[i].first != there[i].first)
      return here[i].first + " here where the artifact has " + there[i].first;
    if (here[i].second != there[i].second)
      return here[i].first + ": '" + shorten(here[i].second) + "' here, '" +
             shorten(there[i].second) + "' there";
  }
  return "";
}

}  // namespace fairyzero
