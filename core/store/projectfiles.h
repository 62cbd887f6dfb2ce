#pragma once

#include "storetypes.h"

#include <QStringList>

namespace dreamrsi {

class ProjectReader;
class ProjectWriter;

/// Moving data in and out of a project as files.
///
/// Tree files are the interchange format of replay.md §1. A project bundle is
/// one file that carries a whole project: a consistent snapshot of the
/// database (made with SQLite's VACUUM INTO while the project stays open)
/// with every artifact inside it, in a table `bundle_artifacts(hash, content)`.
/// Its PRAGMA application_id is "DRSB", so a bundle is never mistaken for a
/// project; importing it verifies every artifact against its hash, writes
/// the project and its artifact folder under temporary names and renames
/// them into place only when everything checked out.
namespace ProjectFiles {

/// Parses every file first; when one is invalid nothing is stored and the
/// error names the file, the cell and the field. Otherwise stores all trees
/// in one transaction and returns their iteration ids, in order.
StoreResult<QList<IterationId>> importTreeFiles(ProjectWriter &writer, const QStringList &paths);

/// Writes one iteration as a tree file (lossless: payload included).
StoreResult<Done> exportTree(ProjectReader &reader, IterationId id, const QString &outPath);

/// Writes a whole iteration into `dir` (created if needed): `tree.json`,
/// `iteration.json` (status, policy version, grid plan and reason, β,
/// timestamps, source) and `artifacts/<cell id>/<name>` for every artifact
/// its cells refer to.
StoreResult<Done> exportIterationDir(ProjectReader &reader, IterationId id, const QString &dir);

/// Writes a bundle of the project at `projectPath` to `bundlePath` (which
/// must not exist). Fails, naming the hash, when an artifact is missing or
/// corrupted: a bundle is complete or not written.
StoreResult<Done> exportBundle(const QString &projectPath, const QString &bundlePath);

/// Unpacks a bundle into a new project at `projectPath` (which must not
/// exist) and its artifact folder. The project is then opened once for
/// writing, which migrates it when the bundle came from an older version.
StoreResult<Done> importBundle(const QString &bundlePath, const QString &projectPath);

} // namespace ProjectFiles
} // namespace dreamrsi
