// `dreamrsi tasks`: the built-in tasks, their folders and initial programs, and the sandbox in use.
#include "commands.h"

#include "commandline.h"

#include "eval/sandboxrunner.h"
#include "eval/taskevaluator.h"
#include "eval/taskregistry.h"

#include <QFileInfo>

namespace dreamrsi {

namespace {

const char *const tasksUsage = "usage: dreamrsi tasks\n\nLists the built-in tasks, their folders and initial programs.\n";

} // namespace

int runTasksCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    if (const std::optional<int> answered =
            CommandLine::parseOrAnswer(parser, {}, args, tasksUsage, out, [&err](const QString &message) {
                err << "dreamrsi tasks: " << message << '\n' << tasksUsage;
                return 2;
            }))
        return *answered;
    if (!parser.positionalArguments().isEmpty()) {
        err << "dreamrsi tasks: unexpected argument '" << parser.positionalArguments().constFirst() << "'\n" << tasksUsage;
        return 2;
    }
    const QString root = TaskRegistry::evaluatorsRoot();
    out << "built-in tasks (folders under " << (root.isEmpty() ? QStringLiteral("<not found>") : root) << "):\n";
    for (const QString &name : TaskRegistry::names()) {
        const auto task = TaskRegistry::create(name);
        out << "  " << name.leftJustified(20) << ' ' << task->summary() << '\n';
        const QString initial = TaskRegistry::initialProgram(name);
        out << "  " << QString().leftJustified(20) << " initial program: "
            << (initial.isEmpty() ? QStringLiteral("<missing>") : QFileInfo(initial).fileName()) << '\n';
    }
    out << "\nsandbox: "
        << (SandboxRunner::bubblewrapAvailable() ? QStringLiteral("bubblewrap")
                                                 : QStringLiteral("fallback (") + SandboxRunner::bubblewrapProblem() + QLatin1Char(')'))
        << "\ncustom evaluators: dreamrsi evaluate --command CMD [PATH]\n";
    return 0;
}

} // namespace dreamrsi
