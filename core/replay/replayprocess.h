#pragma once

#include "replayresult.h"
#include "replayworld.h"

#include "base/result.h"
#include "policy/scriptlimits.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTimer>

#include <memory>

namespace dreamrsi {

/// What to replay in a child process.
struct ReplayProcessRequest
{
    QStringList worldPaths;            ///< tree files already on disk
    QList<ReplayWorld> worlds;         ///< in-memory worlds, written to a temporary folder first
    QString policySource;              ///< scripted policy code (used when policyArgument is empty)
    QString policyArgument;            ///< or: builtin:NAME / a .js path
    int workers = 10;
    double lambda = 0.1;
    QList<double> betas{0.0, 0.25, 0.5, 0.75, 1.0};
    int maxRounds = 0;                 ///< 0 = no limit
    int threads = 0;                   ///< child threads, 0 = all cores that fit the memory limit (threadsWithin)
    /// Per script call inside the child; the child's address space
    /// (RLIMIT_AS); its wall clock, after which it is killed.
    ScriptLimits limits;
    bool trace = true;                 ///< ask for the per-round trace
    QString program;                   ///< the dreamrsi binary; empty = defaultProgram()
};

/// What a finished child replay gives back.
struct ReplayProcessOutput
{
    ReplayResult result;
    /// One entry per (world, β) episode with its round trace, when asked.
    QList<EpisodeResult> traces;
    QStringList traceWorlds;           ///< world name of each trace entry
    int exitCode = 0;
};

/// Runs an untrusted (scripted) replay in a child `dreamrsi replay … --json
/// --trace FILE --progress` process with an address-space limit (setrlimit
/// RLIMIT_AS in the child) and a wall-clock limit, so a run-away or
/// memory-hungry policy costs an error message, never the GUI.
///
/// Asynchronous: start() returns at once; exactly one of finished() or
/// failed() follows (also after cancel(), which reports failed("cancelled")).
/// A policy error inside the replay is not a failure: it arrives in
/// finished() as per-world errors, like the CLI's JSON. Worlds (and trace
/// entries) come back named as in the request: in-memory worlds by their
/// name, files by their path.
class ReplayProcess : public QObject
{
    Q_OBJECT
public:
    explicit ReplayProcess(QObject *parent = nullptr);
    ~ReplayProcess() override;

    /// Starts the child once the in-memory worlds are written (on a worker
    /// thread). A failure saying why (and nothing emitted) when already
    /// running or when the request is invalid. A world that cannot be written
    /// arrives as failed().
    Result<Done> start(const ReplayProcessRequest &request);
    bool isRunning() const;
    /// Kills the child; failed("cancelled") follows.
    void cancel();

    /// How many replay threads a child may run inside `memoryLimitBytes` of
    /// address space on `cores` cores: each scripted-policy thread takes
    /// about 21 MiB (thread stack, JavaScript stack and heap; 64 MiB budgeted),
    /// so a wide machine under a tight limit gets fewer threads, not a crash.
    static int threadsWithin(qint64 memoryLimitBytes, int cores);

    /// The program used when the request names none: $DREAMRSI_PROGRAM when
    /// set, else `dreamrsi` next to this executable, else on PATH.
    static QString defaultProgram();

signals:
    /// The child process is running (its worlds are on disk).
    void childStarted();
    void progress(int episodesDone, int episodesTotal);
    void finished(std::shared_ptr<const dreamrsi::ReplayProcessOutput> output);
    void failed(const QString &message);

private:
    void launchChild(const QString &program, const QStringList &args, int wallLimitMs);
    void onReadyReadStderr();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void fail(const QString &message);

    QPointer<QProcess> m_process;
    std::shared_ptr<QTemporaryDir> m_dir;
    quint64 m_launch = 0;              ///< which start() a pending launch belongs to
    QString m_tracePath;
    QStringList m_worldPaths;          ///< as passed to the child, in order
    QStringList m_worldNames;          ///< the names the caller knows them by
    QByteArray m_stdout;
    QByteArray m_stderrTail;
    QByteArray m_stderrPartial;        ///< an unfinished stderr line
    QString m_killReason;
    qint64 m_memoryLimitBytes = 0;
    bool m_running = false;
    QTimer *m_wallTimer = nullptr;
};

} // namespace dreamrsi
