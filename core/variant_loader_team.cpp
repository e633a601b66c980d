// Loading the four-player mechanisms of Gilman's river team games (Aire, Avon, Irwell): the
// gated line, drop-out and take-over, scoring, the Rose's lock and limit, and Coronation.
#include "core/variant_loader_impl.h"

namespace fairyzero::detail {

int Loader::piece_letter(const Variant& v, const toml::node& n, const std::string& field) const {
  auto letter = n.value_exact<std::string>();
  int type = letter && letter->size() == 1 ? v.piece_by_letter((*letter)[0]) : -1;
  if (type < 0) fail(n.source(), field, "must be the letter of a piece of this variant");
  return type;
}

void Loader::read_gated_line(const toml::node& n, Variant& v) const {
  const toml::table* t = n.as_table();
  if (!t) fail(n.source(), "board.gated_line", "must be a table with regions and gates");
  check_keys(*t, "board.gated_line", {"regions", "gates"});
  const toml::node* regions = t->get("regions");
  const toml::array* two = regions ? regions->as_array() : nullptr;
  if (!two || two->size() != 2)
    fail(t->source(), "board.gated_line.regions", "must list exactly two regions of cells");
  const toml::node* gates = t->get("gates");
  if (!gates) fail(t->source(), "board.gated_line.gates", "missing (required)");
  Geometry::GatedLine line;
  line.first = cells(v, *two->get(0), "board.gated_line.regions");
  line.second = cells(v, *two->get(1), "board.gated_line.regions");
  line.gates = cells(v, *gates, "board.gated_line.gates");
  CellSet both = line.first;
  both &= line.second;
  if (!both.empty()) fail(regions->source(), "board.gated_line.regions", "the regions overlap");
  v.geometry.set_gated_line(line);
}

void Loader::read_team_piece_options(const toml::table& t, const std::string& section,
                                     const Variant& v, PieceType& p) const {
  p.promotion_optional = get<bool>(t, "promotion_optional", section).value_or(false);
  if (p.promotion_optional && p.promotion_choices.empty())
    fail(t.get("promotion_optional")->source(), section + ".promotion_optional",
         "the piece has no promotion");
  p.max_per_army = get<int>(t, "max_per_army", section).value_or(0);
  if (p.max_per_army < 0)
    fail(t.get("max_per_army")->source(), section + ".max_per_army",
         "must be 0 (no limit) or more");
  p.move_lock = get<bool>(t, "move_lock", section).value_or(false);
  if (p.move_lock && v.seat_count() == v.army_count())
    fail(t.get("move_lock")->source(), section + ".move_lock",
         "needs armies moved by two seats ([players])");
}

void Loader::read_team_rules(const toml::table& t, Variant& v) const {
  v.rules.drop_out = get<bool>(t, "drop_out", "rules").value_or(false);
  if (const toml::node* n = t.get("takeover")) {
    const toml::table* map = n->as_table();
    if (!map) fail(n->source(), "rules.takeover", "must be a table: letter = letter");
    for (auto&& [key, value] : *map) {
      std::string field = "rules.takeover." + std::string(key.str());
      int from = key.str().size() == 1 ? v.piece_by_letter(key.str()[0]) : -1;
      if (from < 0)
        fail(key.source(), field, "'" + std::string(key.str()) + "' is not a piece letter");
      v.rules.takeover.emplace_back(from, piece_letter(v, value, field));
    }
    if (!v.rules.drop_out)
      fail(n->source(), "rules.takeover", "only applies with rules.drop_out = true");
  }
  if (std::optional<std::string> scoring = get<std::string>(t, "scoring", "rules")) {
    if (*scoring == "team")
      v.scoring = Scoring::kTeam;
    else if (*scoring == "individual")
      v.scoring = Scoring::kIndividual;
    else
      fail(t.get("scoring")->source(), "rules.scoring", "must be team or individual");
  }
  if (std::optional<std::string> rule = get<std::string>(t, "odd_rule", "rules")) {
    static const std::map<std::string, OddRule> kRules = {
        {"stepping", OddRule::kStepping},
        {"even-leaping", OddRule::kEvenLeaping},
        {"odd-leaping", OddRule::kOddLeaping},
        {"alternate-leaping", OddRule::kAlternateLeaping},
        {"flexi-leaping", OddRule::kFlexiLeaping},
        {"maxi-leaping", OddRule::kMaxiLeaping}};
    auto it = kRules.find(*rule);
    if (it == kRules.end())
      fail(t.get("odd_rule")->source(), "rules.odd_rule",
           "must be stepping, even-leaping, odd-leaping, alternate-leaping, flexi-leaping or "
           "maxi-leaping");
    v.rules.odd_rule = it->second;
  }
  v.rules.captures_to_hand = get<bool>(t, "captures_to_hand", "rules").value_or(false);
  v.rules.pass_when_no_move = get<bool>(t, "pass_when_no_move", "rules").value_or(false);
  if (std::optional<std::string> capture = get<std::string>(t, "royal_capture", "rules")) {
    if (*capture == "defeat")
      v.rules.royal_capture = Rules::RoyalCapture::kDefeat;
    else if (*capture == "takeover")
      v.rules.royal_capture = Rules::RoyalCapture::kTakeOver;
    else
      fail(t.get("royal_capture")->source(), "rules.royal_capture", "must be defeat or takeover");
  }
  if (v.rules.pass_when_no_move && v.rules.drop_out)
    fail(t.get("pass_when_no_move")->source(), "rules.pass_when_no_move",
         "a seat with no move either drops out or passes, not both");
  if (v.rules.drop_out && v.seat_count() == v.army_count())
    fail(t.get("drop_out")->source(), "rules.drop_out",
         "needs armies moved by two seats ([players]): a lone seat with no move is mated");
}

void Loader::read_coronation(const toml::table& root, Variant& v) const {
  const toml::node* n = root.get("coronation");
  if (!n) return;
  const toml::table* t = n->as_table();
  if (!t) fail(n->source(), "coronation", "must be a table");
  check_keys(*t, "coronation", {"piece", "becomes", "between", "defeat_at"});
  auto letter = [&](const char* key) {
    const toml::node* x = t->get(key);
    if (!x) fail(t->source(), std::string("coronation.") + key, "missing (required)");
    return piece_letter(v, *x, std::string("coronation.") + key);
  };
  Coronation& c = v.coronation;
  c.piece = letter("piece");
  c.becomes = letter("becomes");
  const toml::node* between = t->get("between");
  const toml::array* pair = between ? between->as_array() : nullptr;
  if (!pair || pair->size() != 2)
    fail(t->source(), "coronation.between", "must name two pieces, [bishop, steward]");
  c.bishop = piece_letter(v, *pair->get(0), "coronation.between");
  c.steward = piece_letter(v, *pair->get(1), "coronation.between");
  c.defeat_at = get<int>(*t, "defeat_at", "coronation").value_or(2);
  if (c.defeat_at < 1) fail(t->source(), "coronation.defeat_at", "must be 1 or more");
  if (!v.pieces[c.becomes].royal)
    fail(t->source(), "coronation.becomes", "the crowned piece must be royal");
  if (!v.rules.check)
    fail(t->source(), "coronation",
         "needs rules.check = true: a crowned King is kept out of check");
}

}  // namespace fairyzero::detail
