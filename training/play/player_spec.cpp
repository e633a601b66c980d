// Player specs: one parser, one set of rules.
#include "training/play/player_spec.h"

#include <filesystem>
#include <stdexcept>

namespace fairyzero {
namespace fs = std::filesystem;

PlayerSpec parse_player_spec(const std::string& text) {
  PlayerSpec spec;
  spec.spec = spec.name = spec.target = text;
  std::error_code ec;
  auto fail = [&](const std::string& what) { throw PlayerError("player '" + text + "': " + what); };
  if (text == "uniform") {
    spec.kind = PlayerKind::kUniform;
  } else if (text == "material") {
    spec.kind = PlayerKind::kMaterial;
  } else if (text.starts_with("uci:") || text.starts_with("xboard:")) {
    spec.kind = text[0] == 'u' ? PlayerKind::kUci : PlayerKind::kXboard;
    spec.target = text.substr(text.find(':') + 1);
    if (spec.target.find_first_not_of(" \t") == std::string::npos)
      fail("no engine command after the colon");
  } else if (fs::is_directory(text, ec)) {
    if (!fs::is_regular_file(fs::path(text) / "manifest.toml", ec))
      fail("a folder without manifest.toml is not a bot (export one with `fairyzero export`)");
    spec.kind = PlayerKind::kBot;
  } else if (fs::path(text).extension() == ".pt") {
    if (!fs::is_regular_file(text, ec)) fail("checkpoint " + text + " does not exist");
    spec.kind = PlayerKind::kCheckpoint;
  } else if (fs::exists(text, ec)) {
    fail("not a checkpoint (a network checkpoint is a FILE.pt) nor a bot folder");
  } else {
    throw PlayerError("unknown player '" + text + "': expected " + kPlayerForms);
  }
  return spec;
}

}  // namespace fairyzero
