#include <iostream>
#include "core/position.h"
#include "core/variant_loader.h"
using namespace fairyzero;
int main(int argc, char** argv) {
  auto v = find_variant(argv[1]);
  int depth = std::atoi(argv[2]);
  Position pos = argc > 3 ? Position::from_fen(v, argv[3]) : Position(v);
  for (int i = 4; i < argc; ++i) pos.play(pos.parse_move(argv[i]));
  for (auto& d : perft_divide(pos, depth)) std::cout << d.move << ": " << d.nodes << "\n";
}
