// The web board's pages and scripts (apps/web/static/), built into the binary so that `serve`
// needs no files beside it and fetches nothing.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace fairyzero {

struct WebAsset {
  std::string name;  // "index.html", "board.js"
  const char* data;
  size_t size;
  std::string content_type;
};

const std::vector<WebAsset>& web_assets();

}  // namespace fairyzero
