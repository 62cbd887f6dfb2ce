#pragma once

#include "storetypes.h"

#include <QStringList>

#include <memory>

namespace dreamrsi {

class ProjectReader;
class ProjectWriter;

/// Moving data in and out of a project as files.
///
/// Tree files are the interchange format of docs/tree-format.md. A project bundle is
/// one file that carries a whole project: a consistent snapshot of the
/// database (made with SQLite's VACUUM INTO while the project stays open)
/// with every artifact inside it, in a table `bundle_artifacts(hash, content)`.
/// Its PRAGMA application_id is "DRSB", so a bundle is never mistaken for a
/// project; importing it verifies every artifact against its hash, writes
/// the project and its artifact folder under temporary names and renames
/// them into place only when everything checked out.
namespace ProjectFiles {

/// Opens a reader on the project at `path`. A project of an older schema is
/// read through an in-memory upgrade (ProjectReader::open): the reader sees
/// the current schema and the file stays as it was.
StoreResult<std::unique_ptr<ProjectReader>> openReader(const QString &path);

/// A policy version to be read from a script file and stored.
struct PolicyFileImport
{
    QString file;       ///< the .js file
    QString name;       ///< the version's name; the file's base name when empty
    PolicyOrigin origin = PolicyOrigin::Human;
    QString parentName; ///< a stored version this one derives from; none when empty
};

/// Stores the script of `import.file` as a new policy version of the
/// project at `projectPath` and returns it with its id. Fails, naming the
/// file, the parent or the name, when the file cannot be read, the parent
/// does not exist or the name is taken.
StoreResult<PolicyVersion> importPolicyFile(const QString &projectPath, const PolicyFileImport &import);

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
