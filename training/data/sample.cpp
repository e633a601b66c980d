// Packing of encoded input planes into one bit per cell plus one scale per plane (sample.h).
#include "training/data/sample.h"

#include <cmath>
#include <stdexcept>

namespace fairyzero {

namespace {

int bytes_per_plane(int cells) { return (cells + 7) / 8; }

}  // namespace

void pack_planes(const float* planes, int plane_count, int cells, Sample& out) {
  if (plane_count < 0 || cells <= 0)
    throw std::invalid_argument("pack_planes: bad shape " + std::to_string(plane_count) + " x " +
                                std::to_string(cells));
  const int bpp = bytes_per_plane(cells);
  out.plane_bits.assign(static_cast<size_t>(plane_count) * bpp, 0);
  out.plane_scale.assign(plane_count, 0.0f);
  for (int p = 0; p < plane_count; ++p) {
    const float* plane = planes + static_cast<size_t>(p) * cells;
    uint8_t* bits = out.plane_bits.data() + static_cast<size_t>(p) * bpp;
    float scale = 0.0f;
    for (int c = 0; c < cells; ++c) {
      const float v = plane[c];
      if (v == 0.0f) continue;
      // A NaN would compare unequal to itself and slip through as a scale; refuse it outright.
      if (!std::isfinite(v))
        throw std::invalid_argument("pack_planes: plane " + std::to_string(p) + " cell " +
                                    std::to_string(c) + " is not finite");
      if (scale == 0.0f) {
        scale = v;
      } else if (v != scale) {
        throw std::invalid_argument("pack_planes: plane " + std::to_string(p) +
                                    " has two different non-zero values, " + std::to_string(scale) +
                                    " and " + std::to_string(v));
      }
      bits[c / 8] |= static_cast<uint8_t>(1u << (c % 8));
    }
    out.plane_scale[p] = scale;
  }
}

void unpack_planes(const Sample& sample, int plane_count, int cells, float* out) {
  const int bpp = bytes_per_plane(cells);
  if (sample.plane_bits.size() != static_cast<size_t>(plane_count) * bpp ||
      sample.plane_scale.size() != static_cast<size_t>(plane_count))
    throw std::invalid_argument("unpack_planes: the sample holds " +
                                std::to_string(sample.plane_scale.size()) + " planes in " +
                                std::to_string(sample.plane_bits.size()) + " bytes, expected " +
                                std::to_string(plane_count) + " x " + std::to_string(cells));
  for (int p = 0; p < plane_count; ++p) {
    const uint8_t* bits = sample.plane_bits.data() + static_cast<size_t>(p) * bpp;
    const float scale = sample.plane_scale[p];
    float* plane = out + static_cast<size_t>(p) * cells;
    for (int c = 0; c < cells; ++c) plane[c] = (bits[c / 8] >> (c % 8)) & 1 ? scale : 0.0f;
  }
}

}  // namespace fairyzero
