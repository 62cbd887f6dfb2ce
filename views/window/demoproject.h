#pragma once

#include "base/result.h"

#include <QString>

namespace dreamrsi {

/// The bundled demo project (`dreamrsi-workbench --demo`, resources/demo)
/// and its private copy in the user's data folder: the one code that makes
/// the copy, for --demo (app/workbench/main.cpp) and File ▸ Reset Demo.
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

} // namespace dreamrsi
