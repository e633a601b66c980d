// A network prepared for inference: batch norm folded into the convolutions, weights in the
// precision and memory format the device runs fastest, a plain functional forward pass without
// modules or autograd. Built from a training network; outputs match it within rounding.
#pragma once

#include <torch/torch.h>

#include <string>
#include <vector>

#include "nn/network.h"

namespace fairyzero {

torch::ScalarType scalar_type(Precision precision);

struct PreparedNetworkOptions {
  torch::Device device{torch::kCPU};
  Precision precision = Precision::kFloat32;
  // NHWC activations: what the tensor cores of a GPU want for reduced-precision convolutions.
  bool channels_last = false;
};

// Thread safety: forward() may run on several threads (streams) at once; nothing mutates.
class PreparedNetwork {
 public:
  // Reads `network`'s parameters and batch-norm statistics (as in eval mode); the network itself
  // is untouched. Throws std::invalid_argument when a parameter is missing.
  PreparedNetwork(NetworkImpl& network, const PreparedNetworkOptions& options);

  // Planes [B, planes, ranks, files] on the device, in dtype() (and channels_last when asked:
  // use prepare_input). Run under c10::InferenceMode or NoGradGuard.
  NetworkOutput forward(const torch::Tensor& planes) const;
  torch::Tensor prepare_input(const torch::Tensor& planes) const;

  torch::ScalarType dtype() const { return scalar_type(options_.precision); }
  // The heads' precision: dtype(), except bf16 on the CPU, whose heads run in fp32. LibTorch 1.13
  // sends bf16 linear layers and matmuls to oneDNN 2.6's brgemm kernels, whose creation corrupts
  // memory when two threads create them at once (bad_alloc, SIGSEGV in brgemm_kernel_create);
  // its bf16 convolutions, where the time goes, are safe, and the heads cost little.
  torch::ScalarType head_dtype() const { return head_dtype_; }
  const PreparedNetworkOptions& options() const { return options_; }
  const NetworkConfig& config() const { return config_; }
  const NetworkShape& shape() const { return shape_; }

 private:
  // A convolution with its batch norm folded in (or its own bias).
  struct Conv {
    torch::Tensor weight, bias;
    int padding = 0;
  };
  struct Linear {
    torch::Tensor weight, bias;
  };
  torch::Tensor apply(const Conv& conv, const torch::Tensor& x) const;

  PreparedNetworkOptions options_;
  NetworkConfig config_;
  NetworkShape shape_;
  torch::ScalarType head_dtype_;
  Conv input_;
  std::vector<Conv> blocks_;  // two per residual block
  Conv policy_embed_, value_conv_;
  Linear query_, key_, promotion_, drop_, value_fc1_, value_fc2_, moves_left_hidden_, moves_left_;
  bool has_promotion_ = false;
};

}  // namespace fairyzero
