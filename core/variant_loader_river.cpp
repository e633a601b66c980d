// Loading the River mechanisms of Gilman's river family: banks, per-cell forward, the pieces'
// River options, royal presence and capture-to-win (REFERENCE.md sections 4 and 6).
#include "core/variant_loader_impl.h"

namespace fairyzero::detail {

void Loader::read_river(const toml::table& root, Variant& v) const {
  const toml::node* n = root.get("river");
  if (!n) return;
  if (!n->is_table()) fail(n->source(), "river", "must be a table");
  const toml::table& t = *n->as_table();
  check_keys(t, "river", {"banks"});
  const toml::node* banks = t.get("banks");
  const toml::array* list = banks ? banks->as_array() : nullptr;
  if (!list || list->size() < 2 || list->size() > kMaxBanks)
    fail(t.source(), "river.banks", "must list 2 to 16 banks, each a list of cells");
  const Geometry& g = v.geometry;
  std::vector<int> bank_of(kMaxCells, -1);
  for (size_t b = 0; b < list->size(); ++b) {
    cells(v, *list->get(b), "river.banks").for_each([&](Cell c) {
      if (bank_of[c] >= 0)
        fail(list->get(b)->source(), "river.banks", g.cell_name(c) + " is in two banks");
      bank_of[c] = static_cast<int>(b);
    });
  }
  g.existing_cells().for_each([&](Cell c) {
    if (bank_of[c] < 0) fail(banks->source(), "river.banks", g.cell_name(c) + " is in no bank");
  });
  v.geometry.set_banks(std::move(bank_of), static_cast<int>(list->size()));
}

void Loader::read_forward(const toml::node& n, Variant& v) const {
  const toml::table* t = n.as_table();
  if (!t) fail(n.source(), "board.forward", "must be a table: direction = cells");
  static const std::map<std::string, Direction> kDirections = {{"north", Direction::kNorth},
                                                               {"south", Direction::kSouth},
                                                               {"east", Direction::kEast},
                                                               {"west", Direction::kWest}};
  for (auto&& [key, node] : *t) {
    auto it = kDirections.find(std::string(key.str()));
    if (it == kDirections.end())
      fail(key.source(), "board.forward",
           "'" + std::string(key.str()) + "' is not north, south, east or west");
    cells(v, node, "board.forward." + it->first).for_each([&](Cell c) {
      v.geometry.set_forward(c, it->second);
    });
  }
}

void Loader::read_river_piece_options(const toml::table& t, const std::string& section,
                                      const Variant& v, PieceType& p) const {
  bool has_river = v.geometry.bank_count() > 0;
  for (const char* key :
       {"crosses_river", "river_crossings", "capture_when_crossing", "section_exclusion"})
    if (t.get(key) && !has_river)
      fail(t.get(key)->source(), section + "." + key, "the board has no [river]");
  p.crosses_river = get<bool>(t, "crosses_river", section).value_or(true);
  p.same_direction_capture = get<bool>(t, "same_direction_capture", section).value_or(true);
  p.capture_when_crossing = get<bool>(t, "capture_when_crossing", section).value_or(false);
  p.section_exclusion = get<bool>(t, "section_exclusion", section).value_or(false);
  if (const toml::node* n = t.get("river_crossings")) {
    const toml::array* list = n->as_array();
    if (!list)
      fail(n->source(), section + ".river_crossings", "must be a list of [cell, cell] pairs");
    for (const toml::node& pair : *list) {
      const toml::array* two = pair.as_array();
      if (!two || two->size() != 2)
        fail(pair.source(), section + ".river_crossings", "each crossing is [cell, cell]");
      Cell a = one_cell(v, *two->get(0), section + ".river_crossings");
      Cell b = one_cell(v, *two->get(1), section + ".river_crossings");
      if (!v.geometry.crosses_river(a, b))
        fail(pair.source(), section + ".river_crossings",
             v.geometry.cell_name(a) + "-" + v.geometry.cell_name(b) + " does not cross the River");
      p.river_crossings.emplace_back(a, b);
    }
  }
}

void Loader::read_river_rules(const toml::table& t, Variant& v) const {
  auto type_of_letter = [&](const std::string& letter, const toml::node& at, const char* key) {
    int type = letter.size() == 1 ? v.piece_by_letter(letter[0]) : -1;
    if (type < 0)
      fail(at.source(), std::string("rules.") + key, "'" + letter + "' is not a piece letter");
    return type;
  };
  if (const toml::node* n = t.get("royal_presence")) {
    for (const std::string& letter : strings(*n, "rules.royal_presence"))
      v.rules.royal_presence |= 1u << type_of_letter(letter, *n, "royal_presence");
  }
  if (const toml::node* n = t.get("capture_to_win")) {
    const toml::table* set = n->as_table();
    if (!set)
      fail(n->source(), "rules.capture_to_win", "must be a table: letter = count or \"all\"");
    for (auto&& [key, value] : *set) {
      int type = type_of_letter(std::string(key.str()), value, "capture_to_win");
      int count;
      if (auto all = value.value_exact<std::string>(); all && *all == "all")
        count = -1;
      else if (auto k = value.value_exact<int64_t>(); k && *k >= 1)
        count = static_cast<int>(*k);
      else
        fail(value.source(), "rules.capture_to_win." + std::string(key.str()),
             "must be a count of 1 or more, or \"all\"");
      v.rules.capture_to_win.emplace_back(type, count);
    }
  }
}

}  // namespace fairyzero::detail
