// The CSV files of a run folder (training.csv, selfplay.csv, validation.csv, external.csv,
// clock.csv): each row starts with its generation, so that a resumed run drops the rows of the
// generation it redoes. Failures are RunErrors naming the file.
#pragma once

#include <string>

#include "training/learn/trainer.h"

namespace fairyzero {

// Keeps the header and the rows whose first column (the generation) is below `limit`: rows of
// an interrupted generation are dropped before it is redone. A missing file is left missing.
void truncate_csv(const std::string& path, int limit);

// Appends `row`, writing `header` first when the file is new.
void append_csv(const std::string& path, const std::string& header, const std::string& row);

// The column `column` of the row of `generation`; "" when there is none.
std::string generation_field(const std::string& path, int generation, int column);

// training.csv: one row per metrics chunk. The seat column only for per-seat networks; the
// moves-left column after it, so that a run resumed from before it existed keeps its columns;
// the soft-policy column only where the network has that head (a run keeps its heads). `seat`
// is empty for a shared network.
std::string training_csv_header(bool per_seat, bool soft_policy);
std::string training_csv_row(int generation, const TrainingMetrics& metrics,
                             const std::string& seat, bool soft_policy);

}  // namespace fairyzero
