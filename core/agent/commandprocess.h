#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

#include <atomic>

namespace dreamrsi {

/// One command-line agent run: what to start and under which limits.
struct CommandSpec
{
    QString command;                        ///< run as /bin/sh -c COMMAND
    QString workDir;                        ///< existing directory the command starts in
    QByteArray input;                       ///< written to stdin, then stdin is closed
    QStringList allowedEnvironment;         ///< NAME (copied from this process when set) or NAME=VALUE
    QHash<QString, QString> extraEnvironment; ///< set after the allowed ones (DREAMRSI_* variables)
    int timeoutMs = 300000;
    int graceMs = 2000;                     ///< SIGTERM → SIGKILL delay on expiry or cancel
    qint64 outputCap = 16LL * 1024 * 1024;  ///< per stream; more is dropped (and said)
};

/// How it ended.
struct CommandResult
{
    bool started = false;
    QString startError;
    int exitCode = -1;
    bool crashed = false;     ///< ended by a signal we did not send
    bool timedOut = false;
    bool cancelled = false;
    bool outputCapped = false;
    QByteArray out;
    QByteArray err;
    double seconds = 0.0;
    qint64 processGroup = 0;
};

/// Runs a command-line agent, blocking the calling thread (a local event loop).
///
/// Promises: the child runs in a session and process group of its own
/// (setsid) and is killed when this process dies; its environment is only
/// PATH, HOME, the allowed variables and the extra ones (nothing else of
/// ours, so no key it was not given); on the time limit or `cancel` (polled
/// every 50 ms) the whole group gets SIGTERM, then SIGKILL after the grace;
/// when the command ends, whatever is left in its group is killed.
/// Thread-safe (no shared state).
class CommandProcess
{
public:
    static CommandResult run(const CommandSpec &spec, const std::atomic_bool &cancel);
};

} // namespace dreamrsi
