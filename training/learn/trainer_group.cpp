// c10d for the trainer's ranks: TCPStore plus ProcessGroupGloo over host buffers.
#ifndef USE_C10D_GLOO
#define USE_C10D_GLOO  // PyTorch 2.x guards the Gloo header with it
#endif
#include "training/learn/trainer_group.h"

#include <torch/torch.h>

#include <chrono>
#include <cstdlib>
#include <thread>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

namespace fairyzero {
namespace {

std::string first_line(const std::exception& e) {
  std::string text = e.what();
  return text.substr(0, text.find('\n'));
}

int parse_number(const char* name, const char* text, int min) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < min || value > 1 << 20)
    throw UserError("environment variable " + std::string(name) + "='" + text +
                    "' is not a number of at least " + std::to_string(min));
  return static_cast<int>(value);
}

}  // namespace

RankInfo rank_from_environment(const std::function<const char*(const char*)>& lookup) {
  RankInfo info;
  // The first launcher's pair that is present decides; torchrun-style variables win because
  // a user sets them on purpose, also inside a Slurm or MPI job.
  struct Pair {
    const char *rank, *size, *source;
  };
  const Pair pairs[] = {{"RANK", "WORLD_SIZE", "RANK/WORLD_SIZE"},
                        {"SLURM_PROCID", "SLURM_STEP_NUM_TASKS", "SLURM"},
                        {"SLURM_PROCID", "SLURM_NTASKS", "SLURM"},
                        {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI"},
                        {"PMI_RANK", "PMI_SIZE", "PMI"}};
  for (const Pair& pair : pairs) {
    const char* rank = lookup(pair.rank);
    const char* size = lookup(pair.size);
    if (!rank || !size) continue;
    info.rank = parse_number(pair.rank, rank, 0);
    info.world_size = parse_number(pair.size, size, 1);
    info.source = pair.source;
    if (info.rank >= info.world_size)
      throw UserError(std::string(pair.rank) + "=" + rank + " is not below " + pair.size + "=" +
                      size);
    break;
  }
  if (const char* address = lookup("MASTER_ADDR"); address && *address)
    info.master_address = address;
  else if (const char* launch = lookup("SLURM_LAUNCH_NODE_IPADDR"); launch && *launch)
    info.master_address = launch;  // srun's node, where rank 0 runs under block distribution
  if (const char* port = lookup("MASTER_PORT"); port && *port)
    info.master_port = parse_number("MASTER_PORT", port, 1);
  return info;
}

struct TrainerGroup::Impl {
  c10::intrusive_ptr<c10d::TCPStore> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
};

TrainerGroup::TrainerGroup(const RankInfo& info, double timeout_seconds)
    : info_(info), impl_(std::make_unique<Impl>()) {
  const auto timeout = std::chrono::milliseconds(static_cast<int64_t>(timeout_seconds * 1000));
  const std::string where = info.master_address + ":" + std::to_string(info.master_port);
  try {
    c10d::TCPStoreOptions options;
    options.port = static_cast<std::uint16_t>(info.master_port);
    options.isServer = info.rank == 0;
    options.numWorkers = static_cast<size_t>(info.world_size);
    options.timeout = timeout;
    impl_->store = c10::make_intrusive<c10d::TCPStore>(info.master_address, options);
    auto group_options = c10d::ProcessGroupGloo::Options::create(timeout);
    // GLOO_SOCKET_IFNAME picks the network interface as in PyTorch; else the address this
    // host's name resolves to (loopback when it resolves to none).
    const char* interface = std::getenv("GLOO_SOCKET_IFNAME");
    group_options->devices.push_back(
        interface && *interface ? c10d::ProcessGroupGloo::createDeviceForInterface(interface)
                                : c10d::ProcessGroupGloo::createDefaultDevice());
    impl_->group = c10::make_intrusive<c10d::ProcessGroupGloo>(impl_->store, info.rank,
                                                               info.world_size, group_options);
  } catch (const std::exception& e) {
    throw UserError("rank " + std::to_string(info.rank) + " of " + std::to_string(info.world_size) +
                    " cannot join the trainer's group at " + where +
                    " (MASTER_ADDR/MASTER_PORT): " + first_line(e));
  }
}

TrainerGroup::~TrainerGroup() = default;

void TrainerGroup::average(float* data, size_t count) {
  std::vector<at::Tensor> tensors{torch::from_blob(data, {static_cast<int64_t>(count)})};
  impl_->group->allreduce(tensors)->wait();
  tensors[0].div_(info_.world_size);
}

void TrainerGroup::broadcast(float* data, size_t count) {
  std::vector<at::Tensor> tensors{torch::from_blob(data, {static_cast<int64_t>(count)})};
  c10d::BroadcastOptions options;
  options.rootRank = 0;
  impl_->group->broadcast(tensors, options)->wait();
}

void TrainerGroup::publish(const std::string& key, const std::string& value) {
  impl_->store->set(key, std::vector<uint8_t>(value.begin(), value.end()));
}

std::string TrainerGroup::await(const std::string& key) {
  // Polled rather than a blocking get, whose deadline would end a long wait for samples.
  while (!impl_->store->check({key})) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const std::vector<uint8_t> value = impl_->store->get(key);
  return std::string(value.begin(), value.end());
}

void TrainerGroup::barrier() {
  std::vector<at::Tensor> token{torch::zeros({1})};
  impl_->group->allreduce(token)->wait();
}

}  // namespace fairyzero
