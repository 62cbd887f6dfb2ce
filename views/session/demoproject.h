#pragma once

#include "base/result.h"
#include "store/storetypes.h"

#include <QString>

#include <functional>
#include <optional>

class QObject;

namespace dreamrsi {

class JobTracker;
class ProjectSession;

/// The bundled demo project (`dreamrsi-workbench --demo`, resources/demo)
/// and its private copy in the user's data folder: the one code that makes
/// the copy, for --demo (app/workbench/main.cpp) and File ▸ Reset Demo
/// (replaceDemoCopy; views/window/demoreset.cpp asks first). File work
/// only: no widget, tested headless (tests/tst_session_files.cpp).
///
/// The bundled project is read-only inside the executable and the workbench
/// opens projects for writing, so it works on a copy kept between runs. The
/// copy is named after the bundled file's content (demo-<12 hex of its
/// SHA-256>.dreamrsi, isDemoCopy), so a newer demo gets a fresh
/// copy and the user's changes to an older one are kept.
struct DemoProject
{
    /// The bundled project and its artifact folder (proposals, programs,
    /// scores, agent logs): the workbench's resources by default; tests name
    /// the source folder's.
    QString file = QStringLiteral(":/demo/demo.dreamrsi");
    QString artifacts = QStringLiteral(":/demo/demo.dreamrsi-artifacts");

    enum class Mode {
        KeepExisting, ///< a copy already there is kept as it is, with the user's changes (--demo)
        Replace,      ///< the copy is made again from the bundled demo, the user's changes discarded (Reset Demo)
    };

    /// Where the private copy of the bundled demo is (whether made or not);
    /// empty when the bundled demo cannot be read.
    QString copyPath() const;
    /// Makes the private copy (artifacts first, the project file last, so a
    /// copy without its file is an unfinished one and is made again) and
    /// returns its path, or an error naming what could not be read or
    /// written. Replace first removes the copy (its file, WAL, shared memory
    /// and artifacts): the project must not be open.
    Result<QString> install(Mode mode) const;

    /// Whether `path` is the bundled demo's private copy (named after its
    /// content's hash): menus and the title call it "Demo project".
    static bool isDemoCopy(const QString &path);
};

/// What replaceDemoCopy() did.
struct DemoReplacement
{
    QString copy;                     ///< the copy that was open when it was asked
    std::optional<WriterInfo> writer; ///< another process writes the copy: it was left as it is
    Result<QString> made;             ///< else DemoProject::install's answer: the copy made again, or why not
};

/// File ▸ Reset Demo's file work, once the person has said yes: the
/// session's answers still on their way belong to the old copy (its
/// "project" scope is renewed, as opening another project does), the
/// store lets go of the copy `session` has open, and then, unless another
/// process writes it (ProjectLock::liveWriter), `demo` is installed again
/// with Mode::Replace. `done` runs on `context`'s thread, not after
/// `context` or `jobs` is gone.
void replaceDemoCopy(const DemoProject &demo, ProjectSession *session, JobTracker *jobs, QObject *context,
                     std::function<void(DemoReplacement)> done);

} // namespace dreamrsi
