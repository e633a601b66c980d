// `fairyzero play`: a person plays a variant in the terminal, against a bot (uniform, material or
// a network checkpoint, searching with MCTS), a random mover, or alone.
#include <iostream>
#include <random>

#include "apps/arguments.h"
#include "apps/bot.h"
#include "apps/commands.h"
#include "core/position.h"
#include "mcts/search.h"

namespace fairyzero {
namespace {

void print_help() {
  std::cout << "Type a move in the variant's coordinates (e.g. e2e4, e7e8q), or:\n"
               "  moves  list the legal moves      undo  take back a move\n"
               "  fen    print the position        board print the board\n"
               "  help   this text                 quit  leave\n";
}

int seat_named(const Variant& v, const std::string& name, const std::string& option) {
  for (int s = 0; s < v.seat_count(); ++s)
    if (v.seats[s].name == name) return s;
  throw UsageError(option + ": '" + name + "' is not a seat of " + v.name);
}

}  // namespace

int play_command(const CommandArgs& raw) {
  Arguments args(raw,
                 {"--fen", "--random", "--seed", "--bot", "--bot-seat", "--visits", "--threads",
                  "--set", "--seconds", "--device"},
                 {});
  if (args.positional().size() != 1) throw UsageError("give a variant");
  VariantPtr v = load_variant_for_user(args.positional()[0], args.values("--set"));
  Position pos = args.value("--fen") ? Position::from_fen(v, *args.value("--fen")) : Position(v);
  int random_seat =
      args.value("--random") ? seat_named(*v, *args.value("--random"), "--random") : -1;
  std::mt19937_64 rng(static_cast<uint64_t>(args.integer("--seed", std::random_device{}())));
  // The bot: an evaluator behind a search that keeps its tree between moves.
  std::unique_ptr<Evaluator> evaluator;
  std::unique_ptr<Search> search;
  int bot_seat = -1;
  SearchLimits limits{.playouts = static_cast<int>(args.integer("--visits", 800))};
  if (auto spec = args.value("--bot")) {
    evaluator = make_evaluator(*spec, v, args.value("--device").value_or("cpu"));
    bot_seat = seat_named(
        *v, args.value("--bot-seat").value_or(v->seats[v->turn_order.back()].name), "--bot-seat");
    SearchParams params;
    params.threads = static_cast<int>(args.integer("--threads", 1));
    params.seed = rng();
    limits.seconds = std::stod(args.value("--seconds").value_or("0"));
    if (limits.playouts < 1 && limits.seconds <= 0) throw UsageError("--visits must be at least 1");
    search = std::make_unique<Search>(pos, *evaluator, params);
    std::cout << v->seats[bot_seat].name << " is played by " << evaluator->name() << " with "
              << limits.playouts << " playouts a move\n";
  }
  std::cout << v->title << "\n" << pos.diagram();
  print_help();
  MoveList moves;
  for (;;) {
    pos.legal_moves(moves);
    Outcome outcome = pos.outcome(moves);
    if (outcome.over()) {
      std::cout << "Game over: " << termination_name(outcome.termination);
      for (int s = 0; s < v->seat_count(); ++s)
        std::cout << ", " << v->seats[s].name << " " << outcome.score[s];
      std::cout << "\n";
      return 0;
    }
    if (pos.seat_to_move() == bot_seat) {
      SearchResult r = search->run(limits, [&](const SearchResult& progress) {
        std::cout << "  ... " << describe_search(pos, progress) << "\n";
      });
      std::cout << v->seats[bot_seat].name << " plays " << pos.move_text(r.best) << "   ("
                << describe_search(pos, r) << ")\n";
      pos.play(r.best);
      search->play(r.best);
      std::cout << pos.diagram();
      continue;
    }
    if (pos.seat_to_move() == random_seat) {
      std::uniform_int_distribution<int> pick(0, moves.size() - 1);
      Move m = moves[pick(rng)];
      std::cout << v->seats[random_seat].name << " plays " << pos.move_text(m) << "\n";
      pos.play(m);
      if (search) search->play(m);
      std::cout << pos.diagram();
      continue;
    }
    std::cout << v->seats[pos.seat_to_move()].name << "> " << std::flush;
    std::string line;
    if (!std::getline(std::cin, line)) return 0;
    line.erase(0, line.find_first_not_of(" \t"));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (line.empty()) continue;
    if (line == "quit" || line == "exit") return 0;
    if (line == "help")
      print_help();
    else if (line == "fen")
      std::cout << pos.fen() << "\n";
    else if (line == "board")
      std::cout << pos.diagram();
    else if (line == "moves") {
      for (Move m : moves) std::cout << pos.move_text(m) << " ";
      std::cout << "\n";
    } else if (line == "undo") {
      int back = random_seat >= 0 ? 2 : 1;
      if (pos.plies_played() < back)
        std::cout << "nothing to take back\n";
      else {
        for (int i = 0; i < back; ++i) pos.undo();
        std::cout << pos.diagram();
      }
    } else {
      try {
        Move m = pos.parse_move(line);
        pos.play(m);
        if (search) search->play(m);
        std::cout << pos.diagram();
      } catch (const MoveError& e) {
        std::cout << e.what() << "\n";
      }
    }
  }
}

}  // namespace fairyzero
