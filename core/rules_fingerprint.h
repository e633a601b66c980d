// The rules fingerprint: a variant's compiled rules as named fields and a 64-bit hash of them,
// stamped into every sample file, checkpoint and bot so nothing is used under other rules.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/variant.h"

namespace fairyzero {

// (field, value) pairs in a fixed order, from the compiled variant: the board, each piece's
// compiled moves, armies, seats, castling, rules and the start position. Names, titles, notes
// and file paths are left out, so a renamed or moved file with the same rules matches.
using RulesFields = std::vector<std::pair<std::string, std::string>>;
RulesFields rules_fields(const Variant& variant);

// The fields as text, one "field = value" line each, and back (throws std::invalid_argument on
// a line without " = ").
std::string rules_fields_text(const RulesFields& fields);
RulesFields parse_rules_fields(std::string_view text);

// 16 hex digits: FNV-1a over rules_fields_text.
std::string rules_fingerprint(const RulesFields& fields);
std::string rules_fingerprint(const Variant& variant);

// The first field that differs ("pieces.knight.moves: 3f2a... here, 91c0... there"), or "" when
// the two agree. `here` is the variant loaded now, `there` what an artifact recorded.
std::string first_rules_difference(const RulesFields& here, const RulesFields& there);

// Throws `Error` when `recorded_fingerprint` (read from `what`, a file made for a variant named
// `recorded_name`) is not the variant's, naming both fingerprints and, when the artifact kept
// its fields, the first differing one.
template <typename Error>
void require_same_rules(const Variant& variant, const std::string& what,
                        const std::string& recorded_name, const std::string& recorded_fingerprint,
                        const std::string& recorded_fields) {
  const RulesFields here = rules_fields(variant);
  const std::string mine = rules_fingerprint(here);
  if (recorded_fingerprint == mine) return;
  if (recorded_fingerprint.empty())
    throw Error(what +
                " records no rules fingerprint (written before FairyZero stamped its "
                "rules); it cannot be checked against " +
                variant.name + " (" + mine + ")");
  std::string difference;
  try {
    difference = first_rules_difference(here, parse_rules_fields(recorded_fields));
  } catch (const std::invalid_argument&) {
  }
  throw Error(what + " was made under other rules (variant " + recorded_name +
              "): its fingerprint is " + recorded_fingerprint + ", the variant's here " + mine +
              " (" + variant.name + ")" +
              (difference.empty() ? "" : "; first difference: " + difference));
}

}  // namespace fairyzero
