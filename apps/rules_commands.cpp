// Subcommands that exercise the rules core: perft, random-game, check and variants.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>

#include "apps/arguments.h"
#include "apps/commands.h"
#include "core/position.h"
#include "core/variant_loader.h"

namespace fairyzero {

VariantPtr load_variant_for_user(const std::string& name_or_path,
                                 const std::vector<std::string>& overrides) {
  VariantPtr v = find_variant(name_or_path, overrides);
  for (const std::string& o : overrides) std::cerr << "note: variant option " << o << "\n";
  if (v->provenance != "verified")
    std::cerr << "warning: the setup of " << v->title << " is " << v->provenance
              << " (not read from the source); see docs/RULES.md. " << v->note << "\n";
  return v;
}

std::string describe_outcome(const Variant& v, const Outcome& outcome) {
  std::ostringstream out;
  out << termination_name(outcome.termination);
  for (int s = 0; s < v.seat_count(); ++s)
    out << ", " << v.seats[s].name << " " << outcome.score[s];
  if (v.seat_count() > v.army_count()) {
    out << "; individual ranking:";
    for (int s = 0; s < v.seat_count(); ++s)
      out << " " << v.seats[s].name << " " << outcome.rank[s] << std::setprecision(3) << " ("
          << outcome.individual[s] << ")";
  }
  return out.str();
}

int perft_command(const Arguments& args) {
  if (args.positional().size() != 2) throw UsageError("give a variant and a depth");
  VariantPtr v = load_variant_for_user(args.positional()[0], args.values("--set"));
  int depth = static_cast<int>(Arguments::parse_integer(args.positional()[1], "DEPTH"));
  if (depth < 1 || depth > 20) throw UsageError("DEPTH must be 1 to 20");
  Position pos = args.value("--fen") ? Position::from_fen(v, *args.value("--fen")) : Position(v);
  auto start = std::chrono::steady_clock::now();
  uint64_t nodes = 0;
  if (args.flag("--divide")) {
    for (const DivideEntry& e : perft_divide(pos, depth)) {
      std::cout << e.move << ": " << e.nodes << "\n";
      nodes += e.nodes;
    }
    std::cout << "\n";
  } else {
    nodes = perft(pos, depth);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "Nodes searched: " << nodes << "\n"
            << "Time: " << std::fixed << std::setprecision(3) << seconds << " s, "
            << std::setprecision(0) << (seconds > 0 ? nodes / seconds : 0) << " nodes/s\n";
  return 0;
}

int random_game_command(const Arguments& args) {
  if (args.positional().size() != 1) throw UsageError("give a variant");
  VariantPtr v = load_variant_for_user(args.positional()[0], args.values("--set"));
  std::mt19937_64 rng(static_cast<uint64_t>(args.integer("--seed", 1)));
  long long max_plies = args.integer("--max-plies", 1000);
  Position pos = args.value("--fen") ? Position::from_fen(v, *args.value("--fen")) : Position(v);
  bool quiet = args.flag("--quiet");
  if (!quiet) std::cout << pos.diagram() << "\n";
  MoveList moves;
  Outcome outcome;
  std::string record;
  for (long long ply = 0; ply < max_plies; ++ply) {
    pos.legal_moves(moves);
    outcome = pos.outcome(moves);
    if (outcome.over()) break;
    std::uniform_int_distribution<int> pick(0, moves.size() - 1);
    Move m = moves[pick(rng)];
    record += (record.empty() ? "" : " ") + pos.move_text(m);
    pos.play(m);
  }
  if (!quiet) std::cout << pos.diagram() << "\n";
  std::cout << "Moves: " << record << "\n";
  std::cout << "Final position: " << pos.fen() << "\n";
  if (outcome.over()) {
    std::cout << "Result after " << pos.plies_played()
              << " plies: " << describe_outcome(*v, outcome) << "\n";
  } else {
    std::cout << "Stopped unfinished after " << pos.plies_played() << " plies (--max-plies)\n";
  }
  return 0;
}

int check_command(const Arguments& args) {
  if (args.positional().size() != 1) throw UsageError("give a variant name or file");
  VariantPtr v = find_variant(args.positional()[0], args.values("--set"));
  const Geometry& g = v->geometry;
  std::cout << v->title << " (" << v->name << ") from " << v->source_file << ": OK\n"
            << "  board " << g.files() << " x " << g.ranks() << ", " << g.existing_cells().size()
            << " cells";
  if (g.solid_block()) std::cout << ", solid-block rule";
  std::cout << "\n  setup " << v->provenance << (v->note.empty() ? "" : ": " + v->note)
            << "\n  pieces:";
  for (const PieceType& p : v->pieces)
    std::cout << " " << p.letter << "=" << p.name << (p.betza.empty() ? "" : "(" + p.betza + ")")
              << (p.royal ? "[royal]" : "");
  std::cout << "\n  seats:";
  for (int s : v->turn_order)
    std::cout << " " << v->seats[s].name << "(army " << v->armies[v->seats[s].army] << ")";
  std::cout << "\n  castling rules: " << v->castling.size() << "\n  start: " << v->start_fen
            << "\n";
  Position pos(v);
  MoveList moves;
  pos.legal_moves(moves);
  std::cout << "  legal moves from the start: " << moves.size() << "\n";
  return 0;
}

int variants_command(const Arguments& args) {
  for (const std::string& name : list_variants()) {
    VariantPtr v = find_variant(name);
    std::cout << std::left << std::setw(22) << name << v->title << " [" << v->provenance << "]\n";
  }
  return 0;
}

}  // namespace fairyzero
