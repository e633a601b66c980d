// Evaluator factory and the search summary line shared by the commands that play.
#include "apps/bot.h"

#include <cstdio>

#include "training/players/internal_player.h"

namespace fairyzero {

std::unique_ptr<Evaluator> make_evaluator(const std::string& spec, const VariantPtr& variant,
                                          const std::string& device) {
  try {
    return make_internal_player(parse_player_spec(spec), variant, device).evaluator;
  } catch (const PlayerError& e) {
    throw UsageError(e.what());
  }
}

std::string describe_search(const Position& root, const SearchResult& r, int max_pv) {
  char line[256];
  double rate = r.seconds > 0 ? r.playouts / r.seconds : 0;
  std::snprintf(line, sizeof line, "playouts %d (%.0f/s)  visits %d  W/D/L %.2f/%.2f/%.2f%s  pv",
                r.playouts, rate, r.root_visits, r.wdl[0], r.wdl[1], r.wdl[2],
                r.proven ? " (proven)" : "");
  std::string text = line;
  Position p = root;
  int shown = 0;
  for (Move m : r.principal_variation) {
    if (shown++ == max_pv) break;
    text += " " + p.move_text(m);
    p.play(m);
  }
  return text;
}

}  // namespace fairyzero
