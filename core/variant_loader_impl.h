// The TOML variant loader's internals, shared by the files that implement its sections
// (variant_loader.cpp, variant_loader_river.cpp). Not part of the core's interface.
#pragma once

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "core/strict_toml.h"
#include "core/variant.h"

namespace fairyzero::detail {

// Reads one variant file: one method per section, each checking types and unknown keys, and
// naming the file, line and field of every mistake.
class Loader : StrictToml<VariantError> {
 public:
  explicit Loader(std::string source) : StrictToml(std::move(source)) {}

  VariantPtr load(const toml::table& root) {
    check_keys(root, "",
               {"variant", "board", "zones", "river", "players", "pieces", "rules", "castling",
                "coronation", "setup"});
    auto v = std::make_shared<Variant>();
    v->source_file = source();
    read_metadata(root, *v);
    read_board(root, *v);
    read_river(root, *v);
    read_players(root, *v);
    read_pieces(root, *v);
    read_rules(root, *v);
    read_castling(root, *v);
    read_coronation(root, *v);
    const toml::table& setup = require_table(root, "setup", "");
    check_keys(setup, "setup", {"fen"});
    v->start_fen = require<std::string>(setup, "fen", "setup");
    v->finalize();
    default_initial_cells(*v, setup);
    v->resolved_toml = resolved_text(root, *v);
    return v;
  }

 private:
  // The file with its overrides as TOML text. toml++ writes a table's keys sorted, but piece
  // type numbers follow the file's order of [pieces.*] tables: those are written one by one in
  // that order, after the rest.
  std::string resolved_text(const toml::table& root, const Variant& v) const {
    std::ostringstream text;
    text << "# " << v.name << " as loaded from " << source()
         << " with its overrides applied (written by FairyZero).\n";
    toml::table rest = root;
    rest.erase("pieces");
    text << rest << "\n";
    const toml::table& pieces = *root["pieces"].as_table();
    for (const PieceType& p : v.pieces)
      text << "\n"
           << toml::table{{"pieces", toml::table{{p.name, *pieces[p.name].as_table()}}}} << "\n";
    return text.str();
  }

  // Cells from zone names and cell specs ("e4", "a8-h8").
  CellSet cells(const Variant& v, const toml::node& n, const std::string& field) const {
    CellSet out;
    for (const std::string& spec : strings(n, field)) {
      if (const CellSet* zone = v.geometry.zone(spec)) {
        out |= *zone;
        continue;
      }
      try {
        out |= v.geometry.parse_cells(spec);
      } catch (const std::invalid_argument& e) {
        fail(n.source(), field, std::string(e.what()) + " (nor the name of a zone)");
      }
    }
    return out;
  }

  Cell one_cell(const Variant& v, const toml::node& n, const std::string& field) const {
    auto s = n.value_exact<std::string>();
    std::optional<Cell> c = s ? v.geometry.parse_cell(*s) : std::nullopt;
    if (!c || !v.geometry.exists(*c))
      fail(n.source(), field, "must be the name of a cell of the board");
    return *c;
  }

  void read_metadata(const toml::table& root, Variant& v) const {
    const toml::table& t = require_table(root, "variant", "");
    check_keys(t, "variant", {"name", "title", "provenance", "note", "fairy_stockfish"});
    v.name = require<std::string>(t, "name", "variant");
    v.title = get<std::string>(t, "title", "variant").value_or(v.name);
    v.provenance = get<std::string>(t, "provenance", "variant").value_or("verified");
    if (v.provenance != "verified" && v.provenance != "partial" && v.provenance != "reconstructed")
      fail(t.get("provenance")->source(), "variant.provenance",
           "must be verified, partial or reconstructed");
    v.note = get<std::string>(t, "note", "variant").value_or("");
    v.fairy_stockfish = get<std::string>(t, "fairy_stockfish", "variant").value_or("");
  }

  void read_board(const toml::table& root, Variant& v) const {
    const toml::table& t = require_table(root, "board", "");
    check_keys(t, "board",
               {"files", "ranks", "file_names", "rank_names", "missing", "solid_block",
                "corner_rule", "forward", "gated_line"});
    int files = require<int>(t, "files", "board"), ranks = require<int>(t, "ranks", "board");
    if (files < 1 || files > kMaxFiles)
      fail(t.get("files")->source(), "board.files", "must be 1 to 16");
    if (ranks < 1 || ranks > kMaxRanks)
      fail(t.get("ranks")->source(), "board.ranks", "must be 1 to 16");
    v.geometry = Geometry(files, ranks);
    auto names = [&](const char* key, int count) -> std::optional<std::vector<std::string>> {
      const toml::node* n = t.get(key);
      if (!n) return std::nullopt;
      std::vector<std::string> list = strings(*n, std::string("board.") + key);
      if (static_cast<int>(list.size()) != count)
        fail(n->source(), std::string("board.") + key,
             "needs exactly " + std::to_string(count) + " names");
      return list;
    };
    if (auto f = names("file_names", files)) v.geometry.set_file_names(*f);
    if (auto r = names("rank_names", ranks)) v.geometry.set_rank_names(*r);
    if (const toml::node* n = t.get("missing")) {
      CellSet missing = cells(v, *n, "board.missing");
      missing.for_each([&](Cell c) { v.geometry.set_missing(c); });
    }
    v.geometry.set_solid_block(get<bool>(t, "solid_block", "board").value_or(false));
    v.geometry.set_corner_rule(get<bool>(t, "corner_rule", "board").value_or(false));
    if (const toml::node* f = t.get("forward")) read_forward(*f, v);
    if (const toml::node* line = t.get("gated_line")) read_gated_line(*line, v);
    if (const toml::node* z = root.get("zones")) {
      if (!z->is_table()) fail(z->source(), "zones", "must be a table of name = cells");
      for (auto&& [key, node] : *z->as_table())
        v.geometry.add_zone(std::string(key.str()),
                            cells(v, node, "zones." + std::string(key.str())));
    }
  }

  void read_players(const toml::table& root, Variant& v) const {
    const toml::node* n = root.get("players");
    if (!n) {  // Two armies, White moving up first, as in chess.
      v.armies = {"white", "black"};
      v.team_of_army = {0, 1};
      v.seats = {{"white", 0, Direction::kNorth, "w", {}},
                 {"black", 1, Direction::kSouth, "b", {}}};
      v.turn_order = {0, 1};
      return;
    }
    if (!n->is_table()) fail(n->source(), "players", "must be a table");
    const toml::table& t = *n->as_table();
    check_keys(t, "players", {"armies", "teams", "seats", "turn_order", "army_tags"});
    if (!t.get("armies")) fail(t.source(), "players.armies", "missing (required): the army names");
    v.armies = strings(*t.get("armies"), "players.armies");
    auto army_index = [&](const std::string& name, const toml::node& at, const std::string& field) {
      auto it = std::find(v.armies.begin(), v.armies.end(), name);
      if (it == v.armies.end())
        fail(at.source(), field, "'" + name + "' is not one of players.armies");
      return static_cast<int>(it - v.armies.begin());
    };
    if (const toml::node* tags = t.get("army_tags")) {
      for (const std::string& tag : strings(*tags, "players.army_tags")) {
        if (tag.size() != 1 || !std::islower(static_cast<unsigned char>(tag[0])))
          fail(tags->source(), "players.army_tags", "each tag is one lower-case letter");
        v.army_tags.push_back(tag[0]);
      }
    }
    v.team_of_army.resize(v.armies.size());
    for (size_t a = 0; a < v.armies.size(); ++a) v.team_of_army[a] = static_cast<int>(a);
    if (const toml::node* teams = t.get("teams")) {
      const toml::array* arr = teams->as_array();
      if (!arr) fail(teams->source(), "players.teams", "must be a list of lists of army names");
      std::vector<bool> seen(v.armies.size());
      for (size_t i = 0; i < arr->size(); ++i)
        for (const std::string& name : strings(*arr->get(i), "players.teams")) {
          int a = army_index(name, *arr->get(i), "players.teams");
          v.team_of_army[a] = static_cast<int>(i);
          seen[a] = true;
        }
      for (size_t a = 0; a < seen.size(); ++a)
        if (!seen[a])
          fail(teams->source(), "players.teams", "army '" + v.armies[a] + "' is in no team");
    }
    const toml::node* seats = t.get("seats");
    const toml::array* arr = seats ? seats->as_array() : nullptr;
    if (!arr || arr->empty())
      fail(t.source(), "players.seats", "must be a non-empty list of tables");
    for (const toml::node& el : *arr) {
      const toml::table* s = el.as_table();
      if (!s) fail(el.source(), "players.seats", "each seat must be a table");
      check_keys(*s, "players.seats", {"name", "army", "forward", "fen", "side"});
      Seat seat;
      seat.name = require<std::string>(*s, "name", "players.seats");
      seat.army =
          army_index(require<std::string>(*s, "army", "players.seats"), *s, "players.seats.army");
      std::string forward = require<std::string>(*s, "forward", "players.seats");
      static const std::map<std::string, Direction> kDirections = {{"north", Direction::kNorth},
                                                                   {"south", Direction::kSouth},
                                                                   {"east", Direction::kEast},
                                                                   {"west", Direction::kWest}};
      if (!kDirections.count(forward))
        fail(s->get("forward")->source(), "players.seats.forward",
             "must be north, south, east or west");
      seat.forward = kDirections.at(forward);
      seat.fen = require<std::string>(*s, "fen", "players.seats");
      if (const toml::node* side = s->get("side"))
        seat.side = cells(v, *side, "players.seats.side");
      v.seats.push_back(seat);
    }
    std::vector<std::string> order;
    if (const toml::node* o = t.get("turn_order"))
      order = strings(*o, "players.turn_order");
    else
      for (const Seat& s : v.seats) order.push_back(s.name);
    for (const std::string& name : order) {
      auto it = std::find_if(v.seats.begin(), v.seats.end(),
                             [&](const Seat& s) { return s.name == name; });
      if (it == v.seats.end())
        fail(t.source(), "players.turn_order", "'" + name + "' is not a seat");
      v.turn_order.push_back(static_cast<int>(it - v.seats.begin()));
    }
  }

  std::vector<MoveAtom> explicit_atoms(const toml::array& arr, const std::string& field) const;
  void read_pieces(const toml::table& root, Variant& v) const;
  void read_rules(const toml::table& root, Variant& v) const;
  void read_castling(const toml::table& root, Variant& v) const;
  void default_initial_cells(Variant& v, const toml::table& setup) const;
  // River family mechanisms: variant_loader_river.cpp.
  void read_river(const toml::table& root, Variant& v) const;
  void read_forward(const toml::node& n, Variant& v) const;
  void read_river_piece_options(const toml::table& t, const std::string& section, const Variant& v,
                                PieceType& p) const;
  void read_river_rules(const toml::table& t, Variant& v) const;
  void read_gated_line(const toml::node& n, Variant& v) const;
  void read_team_piece_options(const toml::table& t, const std::string& section, const Variant& v,
                               PieceType& p) const;
  void read_coronation(const toml::table& root, Variant& v) const;
  void read_team_rules(const toml::table& t, Variant& v) const;
  int piece_letter(const Variant& v, const toml::node& n, const std::string& field) const;
  void per_army_cells(const Variant& v, const toml::node& n, const std::string& field,
                      std::array<CellSet, kMaxArmies>& out) const;
};

}  // namespace fairyzero::detail
