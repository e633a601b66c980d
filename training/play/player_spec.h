// The one reading of a player on every command line (play, uci, xboard, arena, balance):
// uniform | material | CHECKPOINT.pt | BOT_DIR | uci:COMMAND | xboard:COMMAND. No torch here.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "training/play/engine_protocol.h"

namespace fairyzero {

// A player that cannot be read or built: an unknown form, a missing checkpoint, a bot of other
// rules. The message names the spec.
class PlayerError : public UserError {
 public:
  using UserError::UserError;
};

enum class PlayerKind { kUniform, kMaterial, kCheckpoint, kBot, kUci, kXboard };

// A player as given. Internal players (uniform, material, checkpoint, bot) search with MCTS in
// this process; engines run as processes.
struct PlayerSpec {
  std::string spec;  // as given: "material", "net.pt", "bots/chess", "uci:/usr/games/..."
  PlayerKind kind = PlayerKind::kUniform;
  std::string target;          // the checkpoint file, bot folder or engine command
  std::string name;            // in records and progress; the spec unless given
  int visits = 0;              // playouts per move for internal players; 0: the default
  EngineLimits engine_limits;  // for engines; nothing set: movetime 100 ms
  // Sent to this engine (UCI setoption, XBoard option) after the ones for every engine.
  std::vector<std::pair<std::string, std::string>> engine_options;
  bool is_engine() const { return kind == PlayerKind::kUci || kind == PlayerKind::kXboard; }
};

// Reads a player. A checkpoint is an existing file named *.pt; a bot is a folder with
// manifest.toml. Throws PlayerError naming the spec and what is wrong with it (a
// missing checkpoint, a folder that is not a bot, a file that is not a checkpoint, an engine
// prefix with no command).
PlayerSpec parse_player_spec(const std::string& text);

// The list of accepted forms, for error messages and help texts.
inline constexpr const char* kPlayerForms =
    "uniform, material, a checkpoint FILE.pt, a bot folder (with manifest.toml), uci:COMMAND or "
    "xboard:COMMAND";

}  // namespace fairyzero
