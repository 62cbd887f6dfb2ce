// A child process for tst_loop_resume: runs (or resumes) one live round of
// the toy task with the deterministic fake agent and reports on stdout,
// flushed line by line, what is durable:
//   iteration N        the iteration exists (new or resumed)
//   published M        the iteration the round's live record names then
//                      (0: none), which readers take for a live round
//   cell ID SEQ        the cell was committed to the project
//   finished STATUS    the round ended
// The test kills it with SIGKILL at random moments. With a fifth argument,
// a file path, the agent's calls wait until that file exists (tst_gui_follow
// opens the project in the workbench while the round is held there).
// With DREAMRSI_HELPER_STEER=1 in the environment the round accepts
// steering requests (tst_loop_steering).
#include "roundtestsupport.h"

#include "backend/localevaluationbackend.h"
#include "loop/round/roundliveness.h"
#include "loop/round/roundrunner.h"
#include "store/projectstore.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>

using namespace dreamrsi;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 4 && args.size() != 5) {
        std::fprintf(stderr, "usage: round_helper PROJECT TASK_DIR RESUME_ITERATION(0=new) [GATE_FILE]\n");
        return 2;
    }
    ProjectStore store;
    QFuture<StoreResult<OpenReport>> opened = store.open(args.at(1));
    opened.waitForFinished();
    if (!opened.result().ok()) {
        std::fprintf(stderr, "open: %s\n", qPrintable(opened.result().error));
        return 1;
    }
    RoundConfig config;
    config.task = args.at(2);
    config.resume = args.at(3).toLongLong();
    config.policy = PolicyChoice::builtin(QStringLiteral("parallel_refine"));
    config.beta = 1.0;
    config.workers = 3;
    config.fallbackGrid = GridPlan{3, 3, QStringLiteral("crash test grid")};
    config.acceptSteering = qEnvironmentVariableIntValue("DREAMRSI_HELPER_STEER") == 1;
    auto agent = std::make_shared<test::FakeAgent>();
    QTimer gate;
    if (args.size() == 5) {
        agent->closeGate();
        const QString gateFile = args.at(4);
        gate.setInterval(20);
        QObject::connect(&gate, &QTimer::timeout, &app, [&gate, agent, gateFile] {
            if (QFileInfo::exists(gateFile)) {
                agent->openGate();
                gate.stop();
            }
        });
        gate.start();
    }
    RoundRunner runner(&store, config, agent, std::make_shared<LocalEvaluationBackend>());
    QObject::connect(
        &runner, &RoundRunner::iterationStarted, &runner,
        [path = args.at(1)](const IterationInfo &info) {
            // What another process reads of the round at this moment: its
            // live record must already name the iteration (RoundLiveness).
            const std::optional<LiveRound> live = RoundLiveness::read(path);
            std::printf("iteration %lld\npublished %lld\n", static_cast<long long>(info.id),
                        static_cast<long long>(live ? live->iteration : 0));
            std::fflush(stdout);
        },
        Qt::DirectConnection);
    QObject::connect(&runner, &RoundRunner::cellFinished, &runner,
                     [](qint64, const Cell &cell) {
                         std::printf("cell %s %lld\n", qPrintable(cell.id), static_cast<long long>(cell.seq));
                         std::fflush(stdout);
                     },
                     Qt::DirectConnection);
    QObject::connect(&runner, &RoundRunner::logLine, &runner,
                     [](const QString &line) { std::fprintf(stderr, "%s\n", qPrintable(line)); }, Qt::DirectConnection);
    QObject::connect(&runner, &RoundRunner::finished, &app, &QCoreApplication::quit, Qt::QueuedConnection);
    runner.start();
    app.exec();
    runner.wait();
    const RoundSummary s = runner.summary();
    std::printf("finished %s\n", qPrintable(iterationStatusName(s.status)));
    std::fflush(stdout);
    return s.ok() && s.status == IterationStatus::Finished ? 0 : 1;
}
