#include "sandboxedreplay.h"

#include <QEventLoop>
#include <QTimer>

namespace dreamrsi {

SandboxedReplayOutcome runSandboxedReplay(const ReplayProcessRequest &request, const std::atomic_bool &cancel,
                                          const std::function<void(int done, int total)> &progress)
{
    SandboxedReplayOutcome outcome;
    if (cancel.load()) {
        outcome.cancelled = true;
        outcome.error = QStringLiteral("cancelled");
        return outcome;
    }
    ReplayProcess process;
    QEventLoop loop;
    bool done = false;
    QObject::connect(&process, &ReplayProcess::finished, &loop,
                     [&](std::shared_ptr<const ReplayProcessOutput> output) {
                         outcome.output = std::move(output);
                         done = true;
                         loop.quit();
                     });
    QObject::connect(&process, &ReplayProcess::failed, &loop, [&](const QString &message) {
        outcome.error = message;
        done = true;
        loop.quit();
    });
    if (progress)
        QObject::connect(&process, &ReplayProcess::progress, &loop, progress);
    QTimer poll;
    poll.setInterval(50);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (cancel.load() && !outcome.cancelled) {
            outcome.cancelled = true;
            process.cancel();
        }
    });
    if (const Result<Done> started = process.start(request); !started) {
        outcome.error = started.error;
        return outcome;
    }
    poll.start();
    if (!done)
        loop.exec();
    poll.stop();
    if (outcome.cancelled) {
        outcome.output.reset();
        outcome.error = QStringLiteral("cancelled");
    }
    return outcome;
}

} // namespace dreamrsi
