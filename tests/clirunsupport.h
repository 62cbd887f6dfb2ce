#pragma once

// Runs the `dreamrsi` program as a child while this thread's event loop keeps
// turning (so a stand-in server living in the test answers it). The child is
// bounded by a time limit: past it, it is killed and `finished` stays false.

#include <QByteArray>
#include <QEventLoop>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTextStream>
#include <QTimer>

namespace dreamrsi::test {

/// A command of commands.h run in this process: its exit code and output.
struct CommandRun
{
    int rc = 0;
    QString out;
    QString err;
};

inline CommandRun runCommand(int (*command)(const QStringList &, QTextStream &, QTextStream &), const QStringList &args)
{
    CommandRun r;
    QTextStream out(&r.out);
    QTextStream err(&r.err);
    r.rc = command(args, out, err);
    out.flush();
    err.flush();
    return r;
}

struct CliRun
{
    bool finished = false;
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

inline QString dreamrsiProgram()
{
    const QString fromEnv = qEnvironmentVariable("DREAMRSI_PROGRAM");
    return fromEnv.isEmpty() ? QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi") : fromEnv;
}

inline CliRun runDreamrsi(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                          int limitMs = 300000)
{
    CliRun run;
    QProcess p;
    p.setProcessEnvironment(env);
    QEventLoop loop;
    QTimer limit;
    limit.setSingleShot(true);
    QObject::connect(&p, &QProcess::finished, &loop, &QEventLoop::quit);
    QObject::connect(&p, &QProcess::errorOccurred, &loop, [&](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            loop.quit();
    });
    QObject::connect(&limit, &QTimer::timeout, &loop, &QEventLoop::quit);
    p.start(dreamrsiProgram(), args);
    limit.start(limitMs);
    if (p.state() != QProcess::NotRunning)
        loop.exec();
    if (p.state() != QProcess::NotRunning) {
        p.kill();
        p.waitForFinished(10000);
        run.err = p.readAllStandardError();
        return run;
    }
    run.finished = p.exitStatus() == QProcess::NormalExit && p.error() != QProcess::FailedToStart;
    run.exitCode = p.exitCode();
    run.out = p.readAllStandardOutput();
    run.err = p.readAllStandardError();
    return run;
}

/// Waits up to limitMs for a started child to end; true once it has ended.
/// Where an event loop turned elsewhere (QTRY_*, runDreamrsi) has already
/// seen the child end, QProcess::waitForFinished() answers false: this does not.
inline bool waitForExit(QProcess &p, int limitMs)
{
    return p.state() == QProcess::NotRunning || p.waitForFinished(limitMs);
}

/// A run as text: the exit code (−2 when it did not end within the limit or
/// did not start) and what it printed, for tests that read messages.
struct TextRun
{
    int exitCode = -1;
    QString out;
    QString err;
};

inline TextRun runText(const QStringList &args, int limitMs = 300000)
{
    const CliRun r = runDreamrsi(args, QProcessEnvironment::systemEnvironment(), limitMs);
    return TextRun{r.finished ? r.exitCode : -2, QString::fromUtf8(r.out), QString::fromUtf8(r.err)};
}

} // namespace dreamrsi::test
