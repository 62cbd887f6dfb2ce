// The commands of dreamrsi: this module, dreamrsi-commands.so, holds all of
// them; the `dreamrsi` executable (launcher.cpp) loads it and calls
// dreamrsi_commands_main, except for the replays of built-in policies
// over tree files, which it runs without loading the module (and the
// libraries only the other commands need). Each command reads its arguments
// in its own file under app/cli and calls dreamrsi_core; this file only
// dispatches. The command that draws with QtGui (plot) lives in the sibling
// dreamrsi-render, which this process becomes (execv): so that every other
// command, run thousands of times by replays, rounds and sandboxed
// evaluations, starts without loading Qt's GUI libraries (about 13 ms of
// dynamic loading a start). `bench NAME` becomes dreamrsi-bench the same way:
// the benchmarks are an executable of their own, built beside dreamrsi and
// never installed (docs/architecture.md), so none of them is in this module.
#include "agenttrycommand.h"
#include "commandline.h"
#include "commands.h"
#include "dreamcommand.h"
#include "pathcommand.h"
#include "projectreplaycommand.h"
#include "roundcommand.h"
#include "steercommand.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QTextStream>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <vector>

namespace {

using CommandFn = int (*)(const QStringList &args, QTextStream &out, QTextStream &err);

struct Command
{
    const char *name;
    const char *summary;
    CommandFn run; ///< nullptr: a command of dreamrsi-render
};

/// `replay --project P` replays and stores in a project; `replay --world …` reads tree files.
int runReplay(const QStringList &args, QTextStream &out, QTextStream &err)
{
    return args.contains(QLatin1String("--project")) ? dreamrsi::runProjectReplayCommand(args, out, err)
                                                      : dreamrsi::runReplayCommand(args, out, err);
}

// One line per command; keep sorted by name.
const Command commands[] = {
    {"agent", "try a discovery agent: one attempt from the initial program, evaluated (agent try)", dreamrsi::runAgentCommand},
    {"approve", "approve a policy version for the next online round, with its evidence", dreamrsi::runApproveCommand},
    {"dream", "write, replay and propose new policy versions over a project's worlds", dreamrsi::runDreamCommand},
    {"evaluate", "evaluate a candidate for a built-in task or with a custom command", dreamrsi::runEvaluateCommand},
    {"export", "export iterations, a project bundle, or re-write a tree file", dreamrsi::runProjectExportCommand},
    {"imagine", "imagined completions of history worlds, drawn from a model fitted on them", dreamrsi::runImagineCommand},
    {"import", "store tree files, a policy version or a bundle in a project", dreamrsi::runImportCommand},
    {"loop", "T iterations of round, dream and approve, or the fixed-exploration baseline (--fixed)", dreamrsi::runLoopCommand},
    {"ls", "list a project's iterations, policy versions, replay results, approvals", dreamrsi::runLsCommand},
    {"path", "the chain from the initial program to a cell (default the best): scores, gains, diffs", dreamrsi::runPathCommand},
    {"plot", "export a frontier, anytime, tree, progress or compare figure (PDF, SVG, PNG)", nullptr},
    {"project", "create a project file, show what it holds, upgrade an older build's (new, info, upgrade, config, replay)", dreamrsi::runProjectCommand},
    {"reevaluate", "evaluate an iteration's best or named cells again, R times each: mean, sd, 95 % interval, lucky",
     dreamrsi::runReevaluateCommand},
    {"replay", "replay a policy in tree files (--world) or a project's iterations (--project) and score it",
     runReplay},
    {"round", "run or resume a live round: agent attempts on W workers, stored as they finish", dreamrsi::runRoundCommand},
    {"serve", "serve a project over HTTP for other machines: tree, cells, status, a live stream, steering",
     dreamrsi::runServeCommand},
    {"status", "is a project's round alive: live, stalled, interrupted or finished, and its running attempts",
     dreamrsi::runStatusCommand},
    {"steer", "steer a live round another process runs: close, refine, hint, pause, continue", dreamrsi::runSteerCommand},
    {"synth", "write synthetic worlds of documented regimes", dreamrsi::runSynthCommand},
    {"tasks", "list the built-in evaluation tasks", dreamrsi::runTasksCommand},
    {"validate", "check tree files and print their summary", dreamrsi::runValidateCommand},
};

void printUsage(QTextStream &s)
{
    s << "usage: dreamrsi COMMAND [ARGS...]\n\ncommands:\n";
    for (const Command &c : commands)
        s << "  " << QString::fromLatin1(c.name).leftJustified(10) << ' ' << c.summary << '\n';
    s << "  " << QStringLiteral("bench").leftJustified(10)
      << " NAME: run a benchmark and print figures (dreamrsi-bench, built beside dreamrsi and not installed;\n"
      << "             `dreamrsi bench --help` lists them)\n";
    s << "\n`dreamrsi COMMAND --help` describes one command.\n";
}

const Command *find(const auto &table, const QString &name)
{
    for (const Command &c : table) {
        if (name == QLatin1String(c.name))
            return &c;
    }
    return nullptr;
}

} // namespace

extern "C" Q_DECL_EXPORT int dreamrsi_commands_main(int argc, char *argv[])
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args.append(QString::fromLocal8Bit(argv[i]));
    QString name = args.isEmpty() ? QString() : args.takeFirst();
    const Command *command = find(commands, name);
    const bool bench = name == QLatin1String("bench");

    // argv as given (before Qt reads it), for dreamrsi-render and dreamrsi-bench.
    std::vector<char *> siblingArgv(argv, argv + argc + 1);
    QCoreApplication app(argc, argv);
    if (bench || (command && !command->run)) {
        const QString path =
            QCoreApplication::applicationDirPath() + (bench ? QStringLiteral("/dreamrsi-bench") : QStringLiteral("/dreamrsi-render"));
        const QByteArray sibling = QFile::encodeName(path);
        if (bench && !QFileInfo(path).isExecutable()) {
            QTextStream(stderr) << "dreamrsi: the benchmarks are not installed: `dreamrsi bench` runs " << sibling
                                << ", which a build tree has beside dreamrsi (cmake --build --preset dev --target "
                                   "dreamrsi-bench) and an installation never has\n";
            return 1;
        }
        siblingArgv[0] = const_cast<char *>(sibling.constData());
        ::execv(sibling.constData(), siblingArgv.data());
        const int error = errno;
        QTextStream(stderr) << "dreamrsi: cannot run " << sibling << " for '" << name << "': " << std::strerror(error)
                            << (bench ? " (it is built next to dreamrsi)\n" : " (it is built and installed next to dreamrsi)\n");
        return 1;
    }
    return dreamrsi::CommandLine::dispatch(name, name, command ? command->run : nullptr, args, printUsage);
}
