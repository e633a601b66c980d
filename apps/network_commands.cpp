// Subcommands about networks: create a fresh one, and describe a checkpoint.
#include <iostream>

#include "apps/arguments.h"
#include "apps/commands.h"
#include "nn/checkpoint.h"
#include "nn/encoder.h"

namespace fairyzero {

int new_network_command(const Arguments& args) {
  if (args.positional().size() != 1 || !args.value("--out"))
    throw UsageError("give a variant and --out FILE");
  VariantPtr v = load_variant_for_user(args.positional()[0], args.values("--set"));
  NetworkConfig config;
  config.blocks = static_cast<int>(args.integer("--blocks", config.blocks));
  config.filters = static_cast<int>(args.integer("--filters", config.filters));
  config.policy_dim = static_cast<int>(args.integer("--policy-dim", config.policy_dim));
  config.value_hidden = static_cast<int>(args.integer("--value-hidden", config.value_hidden));
  if (config.blocks < 0 || config.filters < 1 || config.policy_dim < 1 || config.value_hidden < 1)
    throw UsageError("network sizes must be positive (--blocks may be 0)");
  Encoder encoder(v);
  auto network = make_network(config, encoder.network_shape());
  save_checkpoint(*args.value("--out"), *network, encoder);
  std::cout << "wrote " << *args.value("--out") << ": untrained " << describe(config)
            << " network for " << v->name << "\n";
  return 0;
}

int network_info_command(const Arguments& args) {
  if (args.positional().size() != 1) throw UsageError("give a checkpoint file");
  CheckpointInfo info = read_checkpoint_info(args.positional()[0]);
  std::cout << args.positional()[0] << ": " << describe(info.config) << " for " << info.variant
            << ", encoder version " << info.encoder_version << ", " << info.shape.planes
            << " input planes on " << info.shape.files << "x" << info.shape.ranks
            << ", policy size " << info.policy_size << ", training step " << info.step
            << ", weights checksum " << checkpoint_weights_checksum(args.positional()[0]) << "\n";
  return 0;
}

}  // namespace fairyzero
