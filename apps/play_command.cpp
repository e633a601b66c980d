// `fairyzero play`: people play a variant in the terminal, each seat taken by a person, a bot
// (uniform, material or a network checkpoint, searching with MCTS) or a random mover.
#include <iostream>
#include <random>
#include <sstream>

#include "apps/arguments.h"
#include "apps/bot.h"
#include "apps/commands.h"
#include "core/position.h"
#include "mcts/search.h"

namespace fairyzero {
namespace {

void print_help() {
  std::cout << "Type a move in the variant's coordinates (e.g. e2e4, e7e8q; 'out' when a seat\n"
               "has no other move), or:\n"
               "  moves  list the legal moves      undo  take back to your previous turn\n"
               "  fen    print the position        board print the board\n"
               "  help   this text                 quit  leave\n";
}

int seat_named(const Variant& v, const std::string& name, const std::string& option) {
  for (int s = 0; s < v.seat_count(); ++s)
    if (v.seats[s].name == name) return s;
  std::string names;
  for (const Seat& s : v.seats) names += " " + s.name;
  throw UsageError(option + ": '" + name + "' is not a seat of " + v.name + " (seats:" + names +
                   ")");
}

// Seat names from repeated options, each value one name or a comma-separated list.
std::vector<int> seats_named(const Variant& v, const Arguments& args, const std::string& option) {
  std::vector<int> out;
  for (const std::string& value : args.values(option)) {
    std::stringstream in(value);
    for (std::string name; std::getline(in, name, ',');) out.push_back(seat_named(v, name, option));
  }
  return out;
}

enum class Player { kPerson, kBot, kRandom };

// Who takes each seat. --human names the people's seats and gives every other seat to the bot
// (or to random movers without --bot); otherwise --bot-seat and --random name the machine seats
// and people take the rest. Without any, a bot takes the last seat in turn order.
std::vector<Player> assign_seats(const Variant& v, const Arguments& args, bool have_bot) {
  std::vector<Player> players(v.seat_count(), Player::kPerson);
  std::vector<int> humans = seats_named(v, args, "--human");
  std::vector<int> bots = seats_named(v, args, "--bot-seat");
  std::vector<int> randoms = seats_named(v, args, "--random");
  if (!humans.empty()) {
    if (!bots.empty()) throw UsageError("give --human or --bot-seat, not both");
    std::fill(players.begin(), players.end(), have_bot ? Player::kBot : Player::kRandom);
    for (int s : randoms) players[s] = Player::kRandom;
    for (int s : humans) players[s] = Player::kPerson;
    return players;
  }
  if (have_bot && bots.empty()) bots.push_back(v.turn_order.back());
  if (!have_bot && !bots.empty()) throw UsageError("--bot-seat needs --bot");
  for (int s : bots) players[s] = Player::kBot;
  for (int s : randoms) players[s] = Player::kRandom;
  return players;
}

}  // namespace

int play_command(const Arguments& args) {
  if (args.positional().size() != 1) throw UsageError("give a variant");
  VariantPtr v = load_variant_for_user(args.positional()[0], args.values("--set"));
  Position pos = args.value("--fen") ? Position::from_fen(v, *args.value("--fen")) : Position(v);
  std::mt19937_64 rng(static_cast<uint64_t>(args.integer("--seed", std::random_device{}())));
  const std::vector<Player> players = assign_seats(*v, args, args.value("--bot").has_value());
  // The bot: an evaluator behind one search that keeps its tree between moves, for every seat
  // it plays.
  std::unique_ptr<Evaluator> evaluator;
  std::unique_ptr<Search> search;
  SearchParams params;
  SearchLimits limits{.playouts = static_cast<int>(args.integer("--visits", 800))};
  if (auto spec = args.value("--bot")) {
    evaluator = make_evaluator(*spec, v, args.value("--device").value_or("cpu"));
    params.threads = static_cast<int>(args.integer("--threads", 1));
    params.seed = rng();
    limits.seconds = std::stod(args.value("--seconds").value_or("0"));
    if (limits.playouts < 1 && limits.seconds <= 0) throw UsageError("--visits must be at least 1");
    search = std::make_unique<Search>(pos, *evaluator, params);
  }
  for (int s = 0; s < v->seat_count(); ++s)
    std::cout << v->seats[s].name << " is played by "
              << (players[s] == Player::kPerson ? std::string("you")
                  : players[s] == Player::kRandom
                      ? std::string("a random mover")
                      : evaluator->name() + " (" + std::to_string(limits.playouts) + " playouts)")
              << "\n";
  std::cout << v->title << "\n" << pos.diagram();
  print_help();
  MoveList moves;
  auto play = [&](Move m, const std::string& who) {
    if (!who.empty()) std::cout << who << " plays " << pos.move_text(m) << "\n";
    pos.play(m);
    if (search) search->play(m);
    std::cout << pos.diagram();
  };
  for (;;) {
    pos.legal_moves(moves);
    Outcome outcome = pos.outcome(moves);
    if (outcome.over()) {
      std::cout << "Game over: " << describe_outcome(*v, outcome) << "\n";
      return 0;
    }
    const int seat = pos.seat_to_move();
    const std::string& name = v->seats[seat].name;
    if (players[seat] == Player::kBot) {
      SearchResult r = search->run(limits, [&](const SearchResult& progress) {
        std::cout << "  ... " << describe_search(pos, progress) << "\n";
      });
      std::cout << "  (" << describe_search(pos, r) << ")\n";
      play(r.best, name);
      continue;
    }
    if (players[seat] == Player::kRandom) {
      std::uniform_int_distribution<int> pick(0, moves.size() - 1);
      play(moves[pick(rng)], name);
      continue;
    }
    std::cout << name << "> " << std::flush;
    std::string line;
    if (!std::getline(std::cin, line)) return 0;
    line.erase(0, line.find_first_not_of(" \t"));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (line.empty()) continue;
    if (line == "quit" || line == "exit") return 0;
    if (line == "help") {
      print_help();
    } else if (line == "fen") {
      std::cout << pos.fen() << "\n";
    } else if (line == "board") {
      std::cout << pos.diagram();
    } else if (line == "moves") {
      for (Move m : moves) std::cout << pos.move_text(m) << " ";
      std::cout << "\n";
    } else if (line == "undo") {
      // Back to this person's previous turn: the machine moves since then go too.
      if (pos.plies_played() == 0) {
        std::cout << "nothing to take back\n";
        continue;
      }
      pos.undo();
      while (pos.plies_played() > 0 && players[pos.seat_to_move()] != Player::kPerson) pos.undo();
      if (search) search = std::make_unique<Search>(pos, *evaluator, params);
      std::cout << pos.diagram();
    } else {
      try {
        play(pos.parse_move(line), "");
      } catch (const MoveError& e) {
        std::cout << e.what() << "\n";
      }
    }
  }
}

}  // namespace fairyzero
