#pragma once

// Internal to core/import: ShinkaEvolve's SQLite database, opened read-only
// and immutable.

#include "runmapping.h"

namespace dreamrsi::RunImport::detail {

/// Whether `path` is an SQLite file with a `programs` table (a project file
/// has none).
bool looksLikeShinka(const QString &path);
/// Every row of `programs`, scored by rule 5 and with rule 6's payload, and
/// the failed rows of `attempt_log` counted.
Result<ProgramsRead> readShinka(const QString &path, const Options &options);

} // namespace dreamrsi::RunImport::detail
