// Checkpoints: one file holding a network's weights with its config, the variant, the encoder
// version and the input/output shapes, so loading a mismatched file fails loudly. No torch here.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "core/errors.h"
#include "core/variant.h"
#include "nn/network_config.h"

namespace fairyzero {

class NetworkImpl;  // nn/network.h
class Encoder;      // nn/encoder.h

// A checkpoint that cannot be used: missing, unreadable, truncated, or made for another variant,
// encoder version or shape. The message names the file and every difference.
class CheckpointError : public UserError {
 public:
  using UserError::UserError;
};

// A readable checkpoint that does not fit what it is loaded for (another variant, rules,
// encoder version, shape or network config, such as a moves-left head one side lacks): the file
// is fine, so a resuming run must stop and say so rather than set the file aside as damaged.
class CheckpointMismatchError : public CheckpointError {
 public:
  using CheckpointError::CheckpointError;
};

// What a checkpoint says about itself (read without building the network).
struct CheckpointInfo {
  std::string variant;            // Variant::name (informative: the rules fingerprint decides)
  std::string rules_fingerprint;  // core/rules_fingerprint.h; empty in older files
  std::string rules;              // the rules fields, to name the first difference
  int encoder_version = 0;
  NetworkConfig config;
  NetworkShape shape;
  int64_t policy_size = 0;
  int64_t step = 0;  // the trainer's counter when it was written (0 when not given)
  // The seat a per-seat network plays (Seat::name, `[agents] networks = "per-seat"`); empty for
  // a network shared by all seats (and in files written before seats were recorded).
  std::string seat;
};

// Writes weights (and batch-norm statistics) plus metadata. Atomic: writes a temporary file in
// the same folder and renames it over `path`, so readers never see half a checkpoint. The
// network may live on any device; it is not modified. Throws CheckpointError.
// `seat` names the seat a per-seat network serves (empty: shared).
void save_checkpoint(const std::string& path, const NetworkImpl& network, const Encoder& encoder,
                     int64_t step = 0, const std::string& seat = "");

// Reads the metadata only. Throws CheckpointError for a missing, truncated or foreign file.
CheckpointInfo read_checkpoint_info(const std::string& path);

// Builds a network from the stored config and loads its weights, on the CPU, in training mode
// (call ->eval() for inference). Throws CheckpointError when the file does not fit `variant`
// (rules fingerprint, encoder version, planes, board, policy or value shape). A non-empty `seat`
// also asks that the file was written for that seat: a shared or other seat's network is refused.
std::shared_ptr<NetworkImpl> load_checkpoint(const std::string& path, const VariantPtr& variant,
                                             const std::string& seat = "");

// Loads weights into an existing network, which must have the checkpoint's config and shape;
// otherwise throws CheckpointError listing each difference. Tensors keep their device.
// `seat` as for load_checkpoint.
void load_checkpoint_into(const std::string& path, const VariantPtr& variant, NetworkImpl& network,
                          const std::string& seat = "");

// A checksum of the weights and batch-norm statistics (what decides the outputs; not the step
// or batch counters): 16 hex digits of FNV-1a over every tensor's name, shape and float32 values,
// so two checkpoints, or a network and a file, can be compared.
std::string weights_checksum(NetworkImpl& network);
// The same for a checkpoint file, without a variant (throws CheckpointError as load_checkpoint).
std::string checkpoint_weights_checksum(const std::string& path);

}  // namespace fairyzero
