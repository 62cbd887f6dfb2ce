#pragma once

#include <QString>

namespace dreamrsi {

/// API keys the user typed in for this session (Settings), per provider kind
/// ("openai", "anthropic", "gemini"). Kept only in this process's memory:
/// never written to QSettings, the project, a log or a child's environment.
/// Thread-safe.
class SessionKeys
{
public:
    static void set(const QString &kind, const QString &key); ///< empty key = forget it
    static QString get(const QString &kind);
    static void clear();
};

} // namespace dreamrsi
