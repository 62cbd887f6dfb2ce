#pragma once

#include <QByteArrayList>
#include <QString>

namespace dreamrsi {

/// Built candidate executables, keyed by a hash of everything that decides
/// the build (source text, compiler, flags). Entries are written atomically;
/// concurrent evaluations of the same source may both build, the last write wins.
class CompileCache
{
public:
    /// $DREAMRSI_CACHE_DIR/compile, else <user cache dir>/compile.
    static QString directory();
    /// SHA-256 (hex) of the parts, each length-prefixed.
    static QString key(const QByteArrayList &parts);
    /// Copies the cached build of `key` to `destination` (made executable).
    /// False on a miss.
    static bool fetch(const QString &key, const QString &destination);
    /// Stores the build at `builtFile` under `key`; false when it cannot be written.
    static bool store(const QString &key, const QString &builtFile);
};

} // namespace dreamrsi
