// `fairyzero analyse VARIANT --fen FEN`: one search of a position by a bot, printed as its best
// root moves with visits, value, W/D/L and principal variations (the MultiPV of a GUI).
#include <cstdio>
#include <iostream>
#include <sstream>

#include "apps/arguments.h"
#include "apps/bot.h"
#include "apps/commands.h"
#include "mcts/search.h"

namespace fairyzero {

int analyse_command(const Arguments& args) {
  if (args.positional().size() != 1) throw UsageError("give one variant");
  VariantPtr v = load_variant_for_user(args.positional()[0], args.values("--set"));
  Position pos(v);
  if (auto fen = args.value("--fen")) pos = Position::from_fen(v, *fen);
  if (auto moves = args.value("--moves")) {
    std::istringstream in(*moves);
    for (std::string text; in >> text;) {
      try {
        pos.play(pos.parse_move(text));
      } catch (const MoveError& e) {
        throw UsageError("--moves: " + text + " after " + std::to_string(pos.plies_played()) +
                         " moves: " + e.what());
      }
    }
  }
  MoveList legal;
  pos.legal_moves(legal);
  const Outcome outcome = pos.outcome(legal);
  if (outcome.over()) {
    std::cout << "the game is over: " << describe_outcome(*v, outcome) << "\n";
    return 0;
  }
  const std::string spec = args.value("--bot").value_or("material");
  std::unique_ptr<Evaluator> evaluator =
      make_evaluator(spec, v, args.value("--device").value_or("cpu"));
  SearchParams params;
  params.threads = static_cast<int>(args.integer("--threads", 1));
  SearchLimits limits;
  limits.playouts = static_cast<int>(args.integer("--visits", 0));
  limits.seconds = std::stod(args.value("--seconds").value_or("0"));
  if (limits.playouts == 0 && limits.seconds == 0) limits.playouts = 2000;
  limits.lines = static_cast<int>(args.integer("--lines", 5));
  Search search(pos, *evaluator, params);
  const SearchResult r = search.run(limits);
  const std::string mover = v->seats[pos.seat_to_move()].name;
  std::printf("%s, %s to move, %s: %d playouts in %.1f s (%.0f/s), root value %.3f%s\n",
              pos.fen().c_str(), mover.c_str(), spec.c_str(), r.playouts, r.seconds,
              r.seconds > 0 ? r.playouts / r.seconds : 0.0, r.value[pos.seat_to_move()],
              r.proven ? " (proven)" : "");
  std::printf("%4s %-8s %8s %7s %7s  %-17s %s\n", "rank", "move", "visits", "share", "value",
              "W / D / L", "line");
  for (size_t i = 0; i < r.lines.size(); ++i) {
    const SearchLine& line = r.lines[i];
    std::string pv;
    Position p = pos;
    for (Move m : line.pv) {
      pv += (pv.empty() ? "" : " ") + p.move_text(m);
      p.play(m);
    }
    char wdl[32];
    std::snprintf(wdl, sizeof wdl, "%.2f / %.2f / %.2f", line.wdl[0], line.wdl[1], line.wdl[2]);
    std::printf("%4zu %-8s %8d %6.1f%% %7.3f  %-17s %s%s\n", i + 1,
                pos.move_text(line.move).c_str(), line.visits,
                100.0 * line.visits / std::max(1, r.root_visits - 1), line.value, wdl, pv.c_str(),
                line.proven ? "  (proven)" : "");
  }
  return 0;
}

}  // namespace fairyzero
