// The size of a network (NetworkConfig, chosen by the user) and the shape its inputs and outputs
// take from a variant (NetworkShape, fixed by the Encoder). No torch here.
#pragma once

#include <memory>
#include <string>

#include "core/errors.h"

namespace fairyzero {

class NetworkImpl;  // nn/network.h

// Trunk and head sizes. Checkpoints store it, so a loaded network rebuilds itself.
struct NetworkConfig {
  int blocks = 6;          // residual blocks of the trunk
  int filters = 64;        // channels of the trunk
  int policy_dim = 32;     // width of the policy head's query and key vectors
  int value_hidden = 128;  // width of the value head's hidden layer
  // A moves-left head (lc0): the plies left to the game's end, from the value head's hidden
  // layer. Checkpoints written before it existed have none (and load as such).
  bool moves_left = true;
  // KataGo's auxiliary soft policy head: a second policy head trained on the visit target
  // raised to the power 1/4 (flatter, so it tells the trunk about the moves search does not
  // pick). Training only; search reads the main head. Absent in older checkpoints.
  bool soft_policy = false;
  bool operator==(const NetworkConfig&) const = default;
};

// What a variant fixes: input planes, board size and head widths. Encoder::network_shape()
// computes it; see nn/encoder.h for the meaning of each number.
struct NetworkShape {
  int planes = 0;
  int ranks = 0;
  int files = 0;
  int promotion_choices = 0;  // P: promotion slots of the policy
  int piece_types = 0;        // T: drop slots of the policy (one per piece type)
  int value_heads = 0;        // WDL triples of the value head (Encoder::value_heads())
  int cells() const { return ranks * files; }
  bool operator==(const NetworkShape&) const = default;
};

// The number format inference runs in (nn/prepared_network.h).
enum class Precision { kFloat32, kFloat16, kBFloat16 };

// "fp32", "fp16", "bf16" (SettingError naming the text otherwise) and back.
inline Precision parse_precision(const std::string& text) {
  if (text == "fp32") return Precision::kFloat32;
  if (text == "fp16") return Precision::kFloat16;
  if (text == "bf16") return Precision::kBFloat16;
  throw SettingError("precision '" + text + "': use fp32, fp16 or bf16");
}
inline std::string precision_name(Precision precision) {
  return precision == Precision::kFloat16    ? "fp16"
         : precision == Precision::kBFloat16 ? "bf16"
                                             : "fp32";
}

// A freshly initialised network (torch's default init, from torch's global generator), for
// code that holds networks without including torch (apps, tests). Defined in network.cpp.
std::shared_ptr<NetworkImpl> make_network(const NetworkConfig& config, const NetworkShape& shape);

// "6x64 (policy 32, value 128)", for names and messages.
inline std::string describe(const NetworkConfig& c) {
  return std::to_string(c.blocks) + "x" + std::to_string(c.filters) + " (policy " +
         std::to_string(c.policy_dim) + ", value " + std::to_string(c.value_hidden) +
         (c.moves_left ? ", moves left" : "") + (c.soft_policy ? ", soft policy)" : ")");
}

}  // namespace fairyzero
