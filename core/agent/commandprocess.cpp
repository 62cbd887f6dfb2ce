#include "commandprocess.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTimer>

#include <csignal>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace dreamrsi {

namespace {

QProcessEnvironment environmentFor(const CommandSpec &spec)
{
    const QProcessEnvironment parent = QProcessEnvironment::systemEnvironment();
    QProcessEnvironment env;
    env.insert(QStringLiteral("PATH"), parent.value(QStringLiteral("PATH"), QStringLiteral("/usr/local/bin:/usr/bin:/bin")));
    if (parent.contains(QStringLiteral("HOME")))
        env.insert(QStringLiteral("HOME"), parent.value(QStringLiteral("HOME")));
    for (const QString &entry : spec.allowedEnvironment) {
        const qsizetype eq = entry.indexOf(u'=');
        if (eq > 0) {
            env.insert(entry.left(eq).trimmed(), entry.mid(eq + 1));
        } else {
            const QString name = entry.trimmed();
            if (!name.isEmpty() && parent.contains(name))
                env.insert(name, parent.value(name));
        }
    }
    for (auto it = spec.extraEnvironment.cbegin(); it != spec.extraEnvironment.cend(); ++it)
        env.insert(it.key(), it.value());
    return env;
}

} // namespace

CommandResult CommandProcess::run(const CommandSpec &spec, const std::atomic_bool &cancel)
{
    CommandResult result;
    QElapsedTimer clock;
    clock.start();
    QProcess process;
    process.setProgram(QStringLiteral("/bin/sh"));
    process.setArguments({QStringLiteral("-c"), spec.command});
    process.setWorkingDirectory(spec.workDir);
    process.setProcessEnvironment(environmentFor(spec));
    process.setChildProcessModifier([] {
        ::setsid();
#ifdef __linux__
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    });

    QEventLoop loop;
    bool done = false;
    auto killGroup = [&](int signal) {
        if (result.processGroup > 0)
            ::kill(pid_t(-result.processGroup), signal);
    };
    auto append = [&](QByteArray &buffer, const QByteArray &chunk) {
        const qint64 room = spec.outputCap - buffer.size();
        if (room <= 0) {
            result.outputCapped = true;
            return;
        }
        buffer.append(chunk.left(room));
        if (chunk.size() > room)
            result.outputCapped = true;
    };
    QObject::connect(&process, &QProcess::readyReadStandardOutput, &loop,
                     [&] { append(result.out, process.readAllStandardOutput()); });
    QObject::connect(&process, &QProcess::readyReadStandardError, &loop,
                     [&] { append(result.err, process.readAllStandardError()); });
    QObject::connect(&process, &QProcess::finished, &loop, [&] {
        done = true;
        loop.quit();
    });
    QObject::connect(&process, &QProcess::errorOccurred, &loop, [&](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            result.startError = process.errorString();
            done = true;
            loop.quit();
        }
    });

    QTimer grace;
    grace.setSingleShot(true);
    QObject::connect(&grace, &QTimer::timeout, &loop, [&] { killGroup(SIGKILL); });
    auto stop = [&] {
        if (grace.isActive())
            return;
        killGroup(SIGTERM);
        grace.start(std::max(0, spec.graceMs));
    };
    QTimer poll;
    poll.setInterval(50);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (cancel.load() && !result.cancelled && !result.timedOut) {
            result.cancelled = true;
            stop();
        }
    });
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, [&] {
        if (!result.cancelled) {
            result.timedOut = true;
            stop();
        }
    });

    process.start();
    if (!process.waitForStarted(30000)) {
        if (result.startError.isEmpty())
            result.startError = process.errorString();
        result.seconds = double(clock.elapsed()) / 1000.0;
        return result;
    }
    result.started = true;
    result.processGroup = process.processId();
    process.write(spec.input);
    process.closeWriteChannel();
    poll.start();
    deadline.start(std::max(1, spec.timeoutMs));
    if (cancel.load()) {
        result.cancelled = true;
        stop();
    }
    if (!done)
        loop.exec();
    poll.stop();
    deadline.stop();
    grace.stop();
    // Children the command left behind die with it.
    killGroup(SIGKILL);
    append(result.out, process.readAllStandardOutput());
    append(result.err, process.readAllStandardError());
    result.exitCode = process.exitCode();
    result.crashed = process.exitStatus() == QProcess::CrashExit && !result.timedOut && !result.cancelled;
    result.seconds = double(clock.elapsed()) / 1000.0;
    return result;
}

} // namespace dreamrsi
