// Loading variants from TOML files (configs/variants/NAME.toml), with errors that name the file,
// line and field of every mistake. The schema is documented in docs/VARIANTS.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/variant.h"

namespace fairyzero {

// Option overrides, each "section.key=value" with a TOML value (e.g. "board.corner_rule=false",
// "pieces.pawn.promotion=[\"Q\"]"), applied to the file's contents before validation, so a
// variant option can be changed without editing its file.
using VariantOverrides = std::vector<std::string>;

// Reads, validates and compiles one variant file. Throws VariantError.
VariantPtr load_variant_file(const std::string& path, const VariantOverrides& overrides = {});
// The same from text; `source_name` stands for the file name in error messages.
VariantPtr load_variant_text(std::string_view text, const std::string& source_name);

// Finds a variant by name ("chess"), path ("my/variant.toml") or a folder holding a
// variant.toml (a training run, a bot: the rules it keeps). Names are looked up in
// $FAIRYZERO_VARIANTS, ./configs/variants and the source tree's configs/variants.
// Throws VariantError listing where it looked.
VariantPtr find_variant(const std::string& name_or_path, const VariantOverrides& overrides = {});
// Names of the variants in the first variants folder found, sorted.
std::vector<std::string> list_variants();

}  // namespace fairyzero
