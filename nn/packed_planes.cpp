// Bits to 0/1 planes, constants broadcast over the board, then the planes put in their order.
#include "nn/packed_planes.h"

#include <vector>

namespace fairyzero {

PlaneUnpacker::PlaneUnpacker(const Encoder& encoder, torch::Device device)
    : bit_planes_(static_cast<int64_t>(encoder.bit_planes().size())),
      constant_planes_(static_cast<int64_t>(encoder.constant_planes().size())),
      plane_bytes_(encoder.packed_plane_bytes()),
      constants_offset_(static_cast<int64_t>(encoder.packed_constants_offset())),
      planes_(encoder.plane_count()),
      ranks_(encoder.ranks()),
      files_(encoder.files()),
      cells_(encoder.cells()) {
  std::vector<int64_t> order(planes_);
  for (int64_t i = 0; i < bit_planes_; ++i) order[encoder.bit_planes()[i]] = i;
  for (int64_t i = 0; i < constant_planes_; ++i)
    order[encoder.constant_planes()[i]] = bit_planes_ + i;
  order_ = torch::tensor(order, torch::kLong).to(device);
  masks_ = torch::tensor(std::vector<int64_t>{1, 2, 4, 8, 16, 32, 64, 128}, torch::kLong)
               .to(device, torch::kUInt8);
}

torch::Tensor PlaneUnpacker::unpack(const torch::Tensor& rows, torch::ScalarType dtype) const {
  const int64_t batch = rows.size(0);
  const torch::Tensor bytes =
      rows.narrow(1, 0, bit_planes_ * plane_bytes_).reshape({batch, bit_planes_, plane_bytes_, 1});
  const torch::Tensor bits = torch::bitwise_and(bytes, masks_)
                                 .ne(0)
                                 .reshape({batch, bit_planes_, plane_bytes_ * 8})
                                 .narrow(2, 0, cells_)
                                 .to(dtype);
  const torch::Tensor constants = rows.narrow(1, constants_offset_, 4 * constant_planes_)
                                      .contiguous()
                                      .view(torch::kFloat)
                                      .to(dtype)
                                      .unsqueeze(2)
                                      .expand({batch, constant_planes_, cells_});
  return torch::cat({bits, constants}, 1)
      .index_select(1, order_)
      .reshape({batch, planes_, ranks_, files_});
}

}  // namespace fairyzero
