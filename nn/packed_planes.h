// Expands the encoder's packed rows (bits and constants, nn/encoder.h) into input planes on the
// device, so that a batch crosses to a GPU at about a thirtieth of its float size.
#pragma once

#include <torch/torch.h>

#include "nn/encoder.h"

namespace fairyzero {

class PlaneUnpacker {
 public:
  // Keeps the bit masks and the plane order on `device`.
  PlaneUnpacker(const Encoder& encoder, torch::Device device);

  // rows: uint8 [B, packed_row_bytes()] on the device. Returns [B, planes, ranks, files] in
  // `dtype`, equal to Encoder::encode of the same positions.
  torch::Tensor unpack(const torch::Tensor& rows, torch::ScalarType dtype) const;

 private:
  int64_t bit_planes_, constant_planes_, plane_bytes_, constants_offset_;
  int64_t planes_, ranks_, files_, cells_;
  torch::Tensor masks_;  // uint8 [8]: 1 << bit
  torch::Tensor order_;  // int64 [planes]: where each plane is among bits ++ constants
};

}  // namespace fairyzero
