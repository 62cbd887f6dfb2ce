#pragma once

// Internal to core/import: OpenEvolve's checkpoint, output and db folders.

#include "runmapping.h"

namespace dreamrsi::RunImport::detail {

/// Whether `path` is a folder OpenEvolve wrote: a checkpoint or db folder
/// (programs/ with program files), or an output folder (db/ or checkpoints/).
bool looksLikeOpenEvolve(const QString &path);
/// Every program file of the folder `path` names (an output folder: db/ when
/// it holds programs, else the highest-numbered checkpoint, said in notes),
/// scored by rule 5 and with rule 6's payload.
Result<ProgramsRead> readOpenEvolve(const QString &path, const Options &options);

} // namespace dreamrsi::RunImport::detail
