// The TOML variant loader: one function per section, each checking types and unknown keys.
#include "core/variant_loader.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "core/betza.h"
#include "core/position.h"
#include "core/variant_loader_impl.h"

namespace fairyzero {
namespace detail {

std::vector<MoveAtom> Loader::explicit_atoms(const toml::array& arr,
                                             const std::string& field) const {
  std::vector<MoveAtom> out;
  for (const toml::node& el : arr) {
    const toml::table* t = el.as_table();
    if (!t) fail(el.source(), field, "each atom must be a table");
    check_keys(*t, field, {"steps", "repeat", "min", "max", "mode", "initial", "symmetry", "odd"});
    MoveAtom atom;
    const toml::node* steps = t->get("steps");
    const toml::array* list = steps ? steps->as_array() : nullptr;
    if (!list || list->empty())
      fail(t->source(), field + ".steps", "must be a list of [dx, dy] pairs");
    for (const toml::node& s : *list) {
      const toml::array* pair = s.as_array();
      auto dx = pair && pair->size() == 2 ? pair->get(0)->value_exact<int64_t>() : std::nullopt;
      auto dy = pair && pair->size() == 2 ? pair->get(1)->value_exact<int64_t>() : std::nullopt;
      if (!dx || !dy || (*dx == 0 && *dy == 0) || std::abs(*dx) > 15 || std::abs(*dy) > 15)
        fail(s.source(), field + ".steps",
             "each step is [dx, dy]: integers, not both 0, at most 15");
      atom.steps.push_back({static_cast<int>(*dx), static_cast<int>(*dy)});
    }
    atom.repeat = get<bool>(*t, "repeat", field).value_or(false);
    atom.min_steps = get<int>(*t, "min", field).value_or(1);
    atom.max_steps = get<int>(*t, "max", field).value_or(0);
    if (atom.min_steps < 1) fail(t->source(), field + ".min", "must be at least 1");
    if (!atom.repeat && atom.min_steps > static_cast<int>(atom.steps.size()))
      fail(t->source(), field + ".min", "is beyond the last step of the path");
    std::string mode = get<std::string>(*t, "mode", field).value_or("both");
    if (mode == "move")
      atom.mode = kMoveOnly;
    else if (mode == "capture")
      atom.mode = kCaptureOnly;
    else if (mode == "both")
      atom.mode = kMoveOrCapture;
    else
      fail(t->get("mode")->source(), field + ".mode", "must be move, capture or both");
    atom.initial_only = get<bool>(*t, "initial", field).value_or(false);
    atom.odd_only = get<bool>(*t, "odd", field).value_or(false);
    if (atom.odd_only && (!atom.repeat || atom.steps.size() != 1))
      fail(t->source(), field + ".odd", "an odd-only move is one step repeated (repeat = true)");
    std::string symmetry = get<std::string>(*t, "symmetry", field).value_or("all");
    // The images of the path under the board's symmetries: as given, left-right, or all eight.
    std::vector<std::pair<int, int>> maps;  // (swap, signs) encoded below
    auto transform = [](Offset o, int k) {
      if (k & 4) std::swap(o.dx, o.dy);
      if (k & 1) o.dx = -o.dx;
      if (k & 2) o.dy = -o.dy;
      return o;
    };
    std::vector<int> images;
    if (symmetry == "none")
      images = {0};
    else if (symmetry == "mirror")
      images = {0, 1};
    else if (symmetry == "all")
      images = {0, 1, 2, 3, 4, 5, 6, 7};
    else
      fail(t->get("symmetry")->source(), field + ".symmetry", "must be none, mirror or all");
    for (int k : images) {
      MoveAtom image = atom;
      for (Offset& o : image.steps) o = transform(o, k);
      if (std::find(out.begin(), out.end(), image) == out.end()) out.push_back(image);
    }
  }
  return out;
}

void Loader::read_pieces(const toml::table& root, Variant& v) const {
  const toml::table& all = require_table(root, "pieces", "");
  // Keep the file's order: piece type numbers follow it.
  std::vector<std::pair<std::string, const toml::table*>> ordered;
  for (auto&& [key, node] : all) {
    if (!node.is_table())
      fail(node.source(), "pieces." + std::string(key.str()), "must be a table");
    ordered.emplace_back(std::string(key.str()), node.as_table());
  }
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
    return a.second->source().begin < b.second->source().begin;
  });
  for (auto& [name, t] : ordered) {
    std::string section = "pieces." + name;
    check_keys(
        *t, section,
        {"letter", "betza", "atoms", "royal", "en_passant", "resets_move_count", "promotion",
         "promotion_zone", "initial_cells", "crosses_river", "river_crossings",
         "promote_on_crossing", "same_direction_capture", "capture_when_crossing", "corner_exempt",
         "section_exclusion", "promotion_optional", "max_per_army", "move_lock"});
    PieceType p;
    p.name = name;
    std::string letter = require<std::string>(*t, "letter", section);
    if (letter.size() != 1 || !std::isalpha(static_cast<unsigned char>(letter[0])))
      fail(t->get("letter")->source(), section + ".letter", "must be one letter");
    p.letter = static_cast<char>(std::toupper(static_cast<unsigned char>(letter[0])));
    for (const PieceType& other : v.pieces)
      if (other.letter == p.letter)
        fail(t->get("letter")->source(), section + ".letter",
             std::string("the letter ") + p.letter + " is already used by pieces." + other.name);
    if (auto betza = get<std::string>(*t, "betza", section)) {
      p.betza = *betza;
      try {
        p.atoms = parse_betza(*betza);
      } catch (const BetzaError& e) {
        fail(t->get("betza")->source(), section + ".betza", e.what());
      }
    }
    if (const toml::node* atoms = t->get("atoms")) {
      if (!atoms->is_array())
        fail(atoms->source(), section + ".atoms", "must be a list of atom tables");
      for (const MoveAtom& a : explicit_atoms(*atoms->as_array(), section + ".atoms"))
        p.atoms.push_back(a);
    }
    if (p.atoms.empty()) fail(t->source(), section, "needs betza or atoms: how does it move?");
    p.royal = get<bool>(*t, "royal", section).value_or(false);
    p.en_passant = get<bool>(*t, "en_passant", section).value_or(false);
    p.resets_move_count = get<bool>(*t, "resets_move_count", section).value_or(false);
    p.corner_exempt = get<bool>(*t, "corner_exempt", section).value_or(false);
    v.pieces.push_back(p);
  }
  // Promotions and initial cells name other pieces and armies: a second pass.
  for (size_t i = 0; i < ordered.size(); ++i) {
    const toml::table& t = *ordered[i].second;
    std::string section = "pieces." + ordered[i].first;
    PieceType& p = v.pieces[i];
    if (const toml::node* n = t.get("promotion")) {
      for (const std::string& letter : strings(*n, section + ".promotion")) {
        int type = letter.size() == 1 ? v.piece_by_letter(letter[0]) : -1;
        if (type < 0)
          fail(n->source(), section + ".promotion",
               "'" + letter + "' is not a piece letter of this variant");
        p.promotion_choices.push_back(type);
      }
      if (p.promotion_choices.empty()) fail(n->source(), section + ".promotion", "lists no piece");
      p.promote_on_crossing = get<bool>(t, "promote_on_crossing", section).value_or(false);
      const toml::node* zone = t.get("promotion_zone");
      if (p.promote_on_crossing) {
        if (zone)
          fail(zone->source(), section + ".promotion_zone", "not used with promote_on_crossing");
        if (v.geometry.bank_count() == 0)
          fail(t.source(), section + ".promote_on_crossing", "the board has no [river]");
      } else {
        if (!zone) fail(t.source(), section + ".promotion_zone", "missing: where does it promote?");
        per_army_cells(v, *zone, section + ".promotion_zone", p.promotion_zone);
      }
    }
    read_river_piece_options(t, section, v, p);
    read_team_piece_options(t, section, v, p);
    if (const toml::node* n = t.get("initial_cells"))
      per_army_cells(v, *n, section + ".initial_cells", p.initial_cells);
  }
}

void Loader::per_army_cells(const Variant& v, const toml::node& n, const std::string& field,
                            std::array<CellSet, kMaxArmies>& out) const {
  const toml::table* t = n.as_table();
  if (!t) fail(n.source(), field, "must be a table: army = cells");
  for (auto&& [key, node] : *t) {
    auto it = std::find(v.armies.begin(), v.armies.end(), std::string(key.str()));
    if (it == v.armies.end())
      fail(key.source(), field, "'" + std::string(key.str()) + "' is not an army");
    out[it - v.armies.begin()] = cells(v, node, field + "." + std::string(key.str()));
  }
}

void Loader::read_rules(const toml::table& root, Variant& v) const {
  const toml::node* n = root.get("rules");
  if (!n) return;
  if (!n->is_table()) fail(n->source(), "rules", "must be a table");
  const toml::table& t = *n->as_table();
  check_keys(t, "rules",
             {"check", "checkmate", "stalemate", "move_rule", "repetition", "max_plies",
              "royal_presence", "capture_to_win", "drop_out", "takeover", "scoring", "odd_rule",
              "captures_to_hand", "pass_when_no_move", "royal_capture"});
  read_river_rules(t, v);
  read_team_rules(t, v);
  v.rules.check = get<bool>(t, "check", "rules").value_or(true);
  auto result = [&](const char* key, NoMoveResult fallback) {
    std::optional<std::string> s = get<std::string>(t, key, "rules");
    if (!s) return fallback;
    if (*s == "loss") return NoMoveResult::kLoss;
    if (*s == "draw") return NoMoveResult::kDraw;
    if (*s == "win") return NoMoveResult::kWin;
    fail(t.get(key)->source(), std::string("rules.") + key, "must be loss, draw or win");
  };
  v.rules.checkmate = result("checkmate", NoMoveResult::kLoss);
  v.rules.stalemate = result("stalemate", NoMoveResult::kDraw);
  auto count = [&](const char* key, int fallback) {
    int value = get<int>(t, key, "rules").value_or(fallback);
    if (value < 0)
      fail(t.get(key)->source(), std::string("rules.") + key, "must be 0 (off) or more");
    return value;
  };
  v.rules.move_rule = count("move_rule", 50);
  v.rules.repetition = count("repetition", 3);
  v.rules.max_plies = count("max_plies", 0);
}

void Loader::read_castling(const toml::table& root, Variant& v) const {
  const toml::node* n = root.get("castling");
  if (!n) return;
  const toml::array* arr = n->as_array();
  if (!arr) fail(n->source(), "castling", "must be an array of tables ([[castling]])");
  for (const toml::node& el : *arr) {
    const toml::table* t = el.as_table();
    if (!t) fail(el.source(), "castling", "each castling rule must be a table");
    check_keys(*t, "castling",
               {"army", "fen", "king", "rook", "must_be_empty", "must_not_be_attacked",
                "capture_on_path"});
    CastlingRule rule;
    std::string army = require<std::string>(*t, "army", "castling");
    auto it = std::find(v.armies.begin(), v.armies.end(), army);
    if (it == v.armies.end())
      fail(t->get("army")->source(), "castling.army", "'" + army + "' is not an army");
    rule.army = static_cast<int>(it - v.armies.begin());
    std::string fen = require<std::string>(*t, "fen", "castling");
    if (fen.size() != 1) fail(t->get("fen")->source(), "castling.fen", "must be one letter");
    rule.fen = fen[0];
    auto from_to = [&](const char* key, Cell& from, Cell& to) {
      const toml::node* n = t->get(key);
      const toml::array* pair = n ? n->as_array() : nullptr;
      if (!pair || pair->size() != 2)
        fail(t->source(), std::string("castling.") + key, "must be [from, to] cell names");
      from = one_cell(v, *pair->get(0), std::string("castling.") + key);
      to = one_cell(v, *pair->get(1), std::string("castling.") + key);
    };
    from_to("king", rule.king_from, rule.king_to);
    from_to("rook", rule.rook_from, rule.rook_to);
    const Geometry& g = v.geometry;
    // Defaults, as in chess: every cell between king and rook and both destinations empty
    // (the two movers excepted); the king's start, crossed and end cells unattacked.
    CellSet empty;
    auto span = [&](Cell a, Cell b, bool inclusive, auto&& add) {
      int fa = g.file_of(a), fb = g.file_of(b), r = g.rank_of(a);
      int lo = std::min(fa, fb), hi = std::max(fa, fb);
      for (int f = lo; f <= hi; ++f)
        if (inclusive || (f != fa && f != fb)) add(g.cell(f, r));
    };
    if (g.rank_of(rule.king_from) != g.rank_of(rule.rook_from) ||
        g.rank_of(rule.king_to) != g.rank_of(rule.king_from))
      if (!t->get("must_be_empty") || !t->get("must_not_be_attacked"))
        fail(t->source(), "castling",
             "king and rook are not on one rank: give must_be_empty and must_not_be_attacked");
    if (const toml::node* e = t->get("must_be_empty")) {
      empty = cells(v, *e, "castling.must_be_empty");
    } else {
      span(rule.king_from, rule.rook_from, false, [&](Cell c) { empty.insert(c); });
      span(rule.king_from, rule.king_to, true, [&](Cell c) { empty.insert(c); });
      span(rule.rook_from, rule.rook_to, true, [&](Cell c) { empty.insert(c); });
      empty.erase(rule.king_from);
      empty.erase(rule.rook_from);
    }
    empty.for_each([&](Cell c) { rule.must_be_empty.push_back(c); });
    if (const toml::node* s = t->get("must_not_be_attacked")) {
      cells(v, *s, "castling.must_not_be_attacked").for_each([&](Cell c) {
        rule.must_not_be_attacked.push_back(c);
      });
    } else {
      span(rule.king_from, rule.king_to, true,
           [&](Cell c) { rule.must_not_be_attacked.push_back(c); });
    }
    rule.capture_on_path = get<bool>(*t, "capture_on_path", "castling").value_or(false);
    if (rule.capture_on_path) {
      int df = g.file_of(rule.king_to) - g.file_of(rule.king_from);
      int dr = g.rank_of(rule.king_to) - g.rank_of(rule.king_from);
      if (df != 0 && dr != 0 && std::abs(df) != std::abs(dr))
        fail(t->source(), "castling.capture_on_path", "the king's move is not a straight line");
      int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
      for (int f = g.file_of(rule.king_from), r = g.rank_of(rule.king_from);
           g.cell(f, r) != rule.king_to; f += sf, r += sr)
        rule.royal_path.push_back(g.cell(f, r));
    }
    v.castling.push_back(rule);
  }
}

// Initial-only moves (the pawn double step) apply by default on the cells where pieces of that
// type stand in the start position, army by army.
void Loader::default_initial_cells(Variant& v, const toml::table& setup) const {
  std::shared_ptr<const Variant> view(&v, [](const Variant*) {});
  Position start = [&] {
    try {
      return Position::from_fen(view, v.start_fen);
    } catch (const FenError& e) {
      fail(setup.get("fen")->source(), "setup.fen", e.what());
    }
  }();
  bool changed = false;
  for (int t = 0; t < v.piece_count(); ++t) {
    PieceType& p = v.pieces[t];
    bool uses_initial = std::any_of(p.atoms.begin(), p.atoms.end(),
                                    [](const MoveAtom& a) { return a.initial_only; });
    if (!uses_initial) continue;
    for (int a = 0; a < v.army_count(); ++a) {
      if (!p.initial_cells[a].empty()) continue;
      for (Cell c = 0; c < v.geometry.cell_count(); ++c)
        if (start.piece_at(c) == make_piece(a, t)) p.initial_cells[a].insert(c);
      changed = true;
    }
  }
  if (changed) v.tables.build(v);
  // Capture-to-win counts are relative to the start position; -1 stands for "all".
  for (int a = 0; a < v.army_count(); ++a)
    for (int t = 0; t < v.piece_count(); ++t) {
      int n = 0;
      for (Cell c = 0; c < v.geometry.cell_count(); ++c) n += start.piece_at(c) == make_piece(a, t);
      v.set_start_count(a, t, n);
    }
  for (auto& [type, count] : v.rules.capture_to_win) {
    for (int a = 0; a < v.army_count(); ++a)
      if (v.start_count(a, type) == 0)
        fail(setup.source(), "rules.capture_to_win",
             "army " + v.armies[a] + " has no " + v.pieces[type].name + " in the start position");
    if (count < 0) count = v.start_count(0, type);
  }
}

}  // namespace detail

VariantPtr load_variant_text(std::string_view text, const std::string& source_name) {
  const toml::table root = StrictToml<VariantError>(source_name).parse_text(text);
  return detail::Loader(source_name).load(root);
}

namespace {

// Applies "a.b.c=value" overrides to a parsed file, creating tables on the way.
void apply_overrides(toml::table& root, const VariantOverrides& overrides,
                     const std::string& path) {
  for (const std::string& item : overrides) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw VariantError(path + ": --set '" + item + "': write section.key=value");
    std::string key = item.substr(0, eq), text = item.substr(eq + 1);
    toml::table parsed;
    try {
      parsed = toml::parse("value = " + text);
    } catch (const toml::parse_error&) {
      parsed = toml::table{{"value", text}};  // a bare word is a string
    }
    toml::table* table = &root;
    size_t start = 0;
    for (size_t dot; (dot = key.find('.', start)) != std::string::npos; start = dot + 1) {
      std::string part = key.substr(start, dot - start);
      if (!table->contains(part)) table->insert(part, toml::table{});
      table = (*table)[part].as_table();
      if (!table)
        throw VariantError(path + ": --set '" + item + "': '" + part + "' is not a section");
    }
    table->insert_or_assign(key.substr(start), *parsed.get("value"));
  }
}

}  // namespace

VariantPtr load_variant_file(const std::string& path, const VariantOverrides& overrides) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw VariantError(path + ": no such variant file");
  toml::table root = StrictToml<VariantError>(path).parse_file();
  apply_overrides(root, overrides, path);
  return detail::Loader(path).load(root);
}

namespace {

std::vector<std::filesystem::path> variant_dirs() {
  std::vector<std::filesystem::path> dirs;
  if (const char* env = std::getenv("FAIRYZERO_VARIANTS")) dirs.emplace_back(env);
  dirs.emplace_back("configs/variants");
#ifdef FAIRYZERO_SOURCE_DIR
  dirs.emplace_back(std::filesystem::path(FAIRYZERO_SOURCE_DIR) / "configs" / "variants");
#endif
  return dirs;
}

}  // namespace

VariantPtr find_variant(const std::string& name_or_path, const VariantOverrides& overrides) {
  std::error_code ec;
  // A training run or a bot folder: the rules it keeps.
  if (std::filesystem::path folder(name_or_path);
      std::filesystem::is_directory(folder, ec) &&
      std::filesystem::is_regular_file(folder / "variant.toml", ec))
    return load_variant_file((folder / "variant.toml").string(), overrides);
  if (name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".toml"))
    return load_variant_file(name_or_path, overrides);
  std::string looked;
  for (const auto& dir : variant_dirs()) {
    std::filesystem::path file = dir / (name_or_path + ".toml");
    if (std::filesystem::is_regular_file(file, ec))
      return load_variant_file(file.string(), overrides);
    looked += " " + dir.string();
  }
  throw VariantError("unknown variant '" + name_or_path + "' (looked in:" + looked + ")");
}

std::vector<std::string> list_variants() {
  std::error_code ec;
  for (const auto& dir : variant_dirs()) {
    if (!std::filesystem::is_directory(dir, ec)) continue;
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
      if (entry.path().extension() == ".toml") names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  return {};
}

}  // namespace fairyzero
