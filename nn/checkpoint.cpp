// Checkpoint files: LibTorch archives (zip) holding the module's tensors and, beside them,
// metadata entries named fairyzero_* so a file describes itself.
#include "nn/checkpoint.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <vector>

#include "core/rules_fingerprint.h"
#include "core/temporary_file.h"
#include "nn/encoder.h"
#include "nn/network.h"

namespace fairyzero {

namespace {

constexpr const char* kFormat = "fairyzero-checkpoint-1";

// The first line of a torch error: the rest is a C++ backtrace nobody acting on it needs.
std::string first_line(const std::exception& e) {
  std::string text = e.what();
  return text.substr(0, text.find('\n'));
}

void write_int(torch::serialize::OutputArchive& archive, const std::string& key, int64_t value) {
  archive.write("fairyzero_" + key, c10::IValue(value));
}

torch::serialize::InputArchive open_archive(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw CheckpointError("checkpoint '" + path + "' does not exist");
  if (std::filesystem::is_directory(path, ec))
    throw CheckpointError("checkpoint '" + path + "' is a folder, not a checkpoint file");
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(path, torch::Device(torch::kCPU));
  } catch (const std::exception& e) {
    throw CheckpointError(
        "checkpoint '" + path +
        "' cannot be read (truncated, damaged or not a checkpoint): " + first_line(e));
  }
  return archive;
}

CheckpointInfo read_info(torch::serialize::InputArchive& archive, const std::string& path) {
  c10::IValue value;
  if (!archive.try_read("fairyzero_format", value) || !value.isString() ||
      value.toStringRef() != kFormat)
    throw CheckpointError("'" + path + "' is not a FairyZero checkpoint (no " + kFormat +
                          " marker; a plain torch archive?)");
  auto get_int = [&](const std::string& key) -> int64_t {
    c10::IValue v;
    if (!archive.try_read("fairyzero_" + key, v) || !v.isInt())
      throw CheckpointError("checkpoint '" + path + "' lacks its '" + key + "' entry");
    return v.toInt();
  };
  CheckpointInfo info;
  c10::IValue name;
  if (!archive.try_read("fairyzero_variant", name) || !name.isString())
    throw CheckpointError("checkpoint '" + path + "' lacks its 'variant' entry");
  info.variant = name.toStringRef();
  info.encoder_version = static_cast<int>(get_int("encoder_version"));
  info.config.blocks = static_cast<int>(get_int("blocks"));
  info.config.filters = static_cast<int>(get_int("filters"));
  info.config.policy_dim = static_cast<int>(get_int("policy_dim"));
  info.config.value_hidden = static_cast<int>(get_int("value_hidden"));
  c10::IValue moves_left;  // absent in files written before the moves-left head: none
  info.config.moves_left = archive.try_read("fairyzero_moves_left", moves_left) &&
                           moves_left.isInt() && moves_left.toInt() != 0;
  c10::IValue soft_policy;  // absent in files written before the soft policy head: none
  info.config.soft_policy = archive.try_read("fairyzero_soft_policy", soft_policy) &&
                            soft_policy.isInt() && soft_policy.toInt() != 0;
  info.shape.planes = static_cast<int>(get_int("planes"));
  info.shape.ranks = static_cast<int>(get_int("ranks"));
  info.shape.files = static_cast<int>(get_int("files"));
  info.shape.promotion_choices = static_cast<int>(get_int("promotion_choices"));
  info.shape.piece_types = static_cast<int>(get_int("piece_types"));
  info.shape.value_heads = static_cast<int>(get_int("value_heads"));
  info.policy_size = get_int("policy_size");
  info.step = get_int("step");
  auto get_string = [&](const std::string& key) {
    c10::IValue v;  // absent in files written before rules fingerprints: checked on use
    return archive.try_read("fairyzero_" + key, v) && v.isString() ? v.toStringRef()
                                                                   : std::string();
  };
  info.rules_fingerprint = get_string("rules_fingerprint");
  info.rules = get_string("rules");
  c10::IValue seat;  // optional: absent in shared networks' files
  if (archive.try_read("fairyzero_seat", seat) && seat.isString()) info.seat = seat.toStringRef();
  return info;
}

// Every way the checkpoint differs from what `encoder` needs, "; "-separated; empty if none.
std::string differences(const CheckpointInfo& info, const Encoder& encoder) {
  std::ostringstream out;
  const char* sep = "";
  auto differ = [&](const std::string& what, const auto& have, const auto& want) {
    if (have == want) return;
    out << sep << what << " " << have << " (expected " << want << ")";
    sep = "; ";
  };
  differ("encoder version", info.encoder_version, Encoder::kVersion);
  const NetworkShape want = encoder.network_shape();
  differ("input planes", info.shape.planes, want.planes);
  differ("ranks", info.shape.ranks, want.ranks);
  differ("files", info.shape.files, want.files);
  differ("promotion choices", info.shape.promotion_choices, want.promotion_choices);
  differ("piece types", info.shape.piece_types, want.piece_types);
  differ("value heads", info.shape.value_heads, want.value_heads);
  differ("policy size", info.policy_size, static_cast<int64_t>(encoder.policy_size()));
  return out.str();
}

CheckpointInfo checked_info(torch::serialize::InputArchive& archive, const std::string& path,
                            const VariantPtr& variant, const std::string& seat) {
  CheckpointInfo info = read_info(archive, path);
  if (!seat.empty() && info.seat != seat)
    throw CheckpointMismatchError("checkpoint '" + path + "' is " +
                                  (info.seat.empty() ? std::string("a shared network")
                                                     : "the network of seat '" + info.seat + "'") +
                                  ", not one of seat '" + seat + "'");
  // Shape differences first (they name what the network cannot do), then the rules.
  std::string rules_problem;
  try {
    require_same_rules<CheckpointError>(*variant, "checkpoint '" + path + "'", info.variant,
                                        info.rules_fingerprint, info.rules);
  } catch (const CheckpointError& e) {
    rules_problem = e.what();
  }
  Encoder encoder(variant);
  std::string diff = differences(info, encoder);
  if (!diff.empty())
    throw CheckpointMismatchError("checkpoint '" + path + "' does not fit variant '" +
                                  variant->name + "': " + diff +
                                  (rules_problem.empty() ? "" : "; " + rules_problem));
  if (!rules_problem.empty()) throw CheckpointMismatchError(rules_problem);
  return info;
}

void load_weights(torch::serialize::InputArchive& archive, const std::string& path,
                  NetworkImpl& network) {
  // Module::load replaces tensors wholesale, whatever their shape: check shapes after.
  std::vector<std::pair<std::string, std::vector<int64_t>>> before;
  for (const auto& item : network.named_parameters())
    before.emplace_back(item.key(), item.value().sizes().vec());
  try {
    network.load(archive);
  } catch (const std::exception& e) {
    throw CheckpointError("checkpoint '" + path + "' has unreadable weights: " + first_line(e));
  }
  auto after = network.named_parameters();
  for (const auto& [name, sizes] : before) {
    const torch::Tensor* t = after.find(name);
    if (t == nullptr || t->sizes().vec() != sizes)
      throw CheckpointError("checkpoint '" + path + "': tensor '" + name +
                            "' has the wrong shape (damaged file?)");
  }
}

}  // namespace

void save_checkpoint(const std::string& path, const NetworkImpl& network, const Encoder& encoder,
                     int64_t step, const std::string& seat) {
  if (network.shape() != encoder.network_shape())
    throw CheckpointError("save_checkpoint('" + path +
                          "'): the network's shape is not the one "
                          "variant '" +
                          encoder.variant().name + "' needs");
  torch::serialize::OutputArchive archive;
  network.save(archive);
  archive.write("fairyzero_format", c10::IValue(std::string(kFormat)));
  archive.write("fairyzero_variant", c10::IValue(encoder.variant().name));
  const RulesFields rules = rules_fields(encoder.variant());
  archive.write("fairyzero_rules_fingerprint", c10::IValue(rules_fingerprint(rules)));
  archive.write("fairyzero_rules", c10::IValue(rules_fields_text(rules)));
  write_int(archive, "encoder_version", Encoder::kVersion);
  const NetworkConfig& c = network.config();
  write_int(archive, "blocks", c.blocks);
  write_int(archive, "filters", c.filters);
  write_int(archive, "policy_dim", c.policy_dim);
  write_int(archive, "value_hidden", c.value_hidden);
  write_int(archive, "moves_left", c.moves_left ? 1 : 0);
  write_int(archive, "soft_policy", c.soft_policy ? 1 : 0);
  const NetworkShape& s = network.shape();
  write_int(archive, "planes", s.planes);
  write_int(archive, "ranks", s.ranks);
  write_int(archive, "files", s.files);
  write_int(archive, "promotion_choices", s.promotion_choices);
  write_int(archive, "piece_types", s.piece_types);
  write_int(archive, "value_heads", s.value_heads);
  write_int(archive, "policy_size", encoder.policy_size());
  write_int(archive, "step", step);
  if (!seat.empty()) archive.write("fairyzero_seat", c10::IValue(seat));

  // A name no other writer (thread or process) uses, in the same folder so rename is atomic.
  const std::string temp = temporary_name(path);
  try {
    archive.save_to(temp);
  } catch (const std::exception& e) {
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    throw CheckpointError("cannot write checkpoint '" + path + "' (via '" + temp +
                          "'): " + first_line(e));
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    throw CheckpointError("cannot move '" + temp + "' to checkpoint '" + path +
                          "': " + ec.message());
  }
}

std::string weights_checksum(NetworkImpl& network) {
  uint64_t hash = 0xcbf29ce484222325ull;
  auto mix = [&](const void* data, size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 0x100000001b3ull;
  };
  auto add = [&](const std::string& name, const torch::Tensor& tensor) {
    if (name.find("num_batches_tracked") != std::string::npos) return;  // a counter
    const torch::Tensor values = tensor.detach().to(torch::kCPU, torch::kFloat).contiguous();
    mix(name.data(), name.size());
    for (int64_t size : values.sizes()) mix(&size, sizeof size);
    mix(values.data_ptr<float>(), sizeof(float) * static_cast<size_t>(values.numel()));
  };
  for (const auto& item : network.named_parameters()) add(item.key(), item.value());
  for (const auto& item : network.named_buffers()) add(item.key(), item.value());
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

std::string checkpoint_weights_checksum(const std::string& path) {
  torch::serialize::InputArchive archive = open_archive(path);
  const CheckpointInfo info = read_info(archive, path);
  std::shared_ptr<NetworkImpl> network;
  try {
    network = std::make_shared<NetworkImpl>(info.config, info.shape);
  } catch (const std::invalid_argument& e) {
    throw CheckpointError("checkpoint '" + path + "' has an unusable config: " + e.what());
  }
  load_weights(archive, path, *network);
  return weights_checksum(*network);
}

CheckpointInfo read_checkpoint_info(const std::string& path) {
  torch::serialize::InputArchive archive = open_archive(path);
  return read_info(archive, path);
}

std::shared_ptr<NetworkImpl> load_checkpoint(const std::string& path, const VariantPtr& variant,
                                             const std::string& seat) {
  torch::serialize::InputArchive archive = open_archive(path);
  CheckpointInfo info = checked_info(archive, path, variant, seat);
  std::shared_ptr<NetworkImpl> network;
  try {
    network = std::make_shared<NetworkImpl>(info.config, info.shape);
  } catch (const std::invalid_argument& e) {
    throw CheckpointError("checkpoint '" + path + "' has an unusable config: " + e.what());
  }
  load_weights(archive, path, *network);
  return network;
}

void load_checkpoint_into(const std::string& path, const VariantPtr& variant, NetworkImpl& network,
                          const std::string& seat) {
  torch::serialize::InputArchive archive = open_archive(path);
  CheckpointInfo info = checked_info(archive, path, variant, seat);
  std::ostringstream diff;
  const NetworkConfig& have = info.config;
  const NetworkConfig& want = network.config();
  auto differ = [&](const char* what, int a, int b) {
    if (a != b)
      diff << (diff.tellp() > 0 ? "; " : "") << what << " " << a << " (network has " << b << ")";
  };
  differ("blocks", have.blocks, want.blocks);
  differ("filters", have.filters, want.filters);
  differ("policy_dim", have.policy_dim, want.policy_dim);
  differ("value_hidden", have.value_hidden, want.value_hidden);
  if (have.moves_left != want.moves_left)
    diff << (diff.tellp() > 0 ? "; " : "")
         << (have.moves_left ? "it has a moves-left head (the network has none)"
                             : "it has no moves-left head (written before the head existed, or "
                               "with [network] moves_left = false) and the network has one: "
                               "set [network] moves_left = false in the run's config.toml to go "
                               "on with it");
  if (have.soft_policy != want.soft_policy)
    diff << (diff.tellp() > 0 ? "; " : "")
         << (have.soft_policy ? "it has a soft policy head (the network has none): set [network] "
                                "soft_policy = true in the run's config.toml to go on with it"
                              : "it has no soft policy head (written before the head existed, or "
                                "with [network] soft_policy = false) and the network has one: "
                                "set [network] soft_policy = false in the run's config.toml to "
                                "go on with it");
  if (info.shape != network.shape()) diff << (diff.tellp() > 0 ? "; " : "") << "input/output shape";
  if (diff.tellp() > 0)
    throw CheckpointMismatchError("checkpoint '" + path +
                                  "' does not fit this network: " + diff.str());
  // Module::load moves tensors to the archive's device and dtype; put them back after.
  auto params = network.parameters();
  const torch::Device device = params.empty() ? torch::Device(torch::kCPU) : params[0].device();
  const auto dtype = params.empty() ? torch::kFloat : params[0].scalar_type();
  load_weights(archive, path, network);
  network.to(device, dtype);
}

}  // namespace fairyzero
