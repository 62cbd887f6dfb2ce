// `dreamrsi evaluate`: one candidate through the sandboxed evaluator (Evaluator::evaluate).
#include "commands.h"

#include "commandline.h"

#include "eval/evaluator.h"
#include "eval/taskevaluator.h"
#include "eval/taskregistry.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace dreamrsi {

namespace {

const char evaluateUsage[] =
    "usage: dreamrsi evaluate --task NAME PATH [options]\n"
    "       dreamrsi evaluate --command CMD [PATH] [options]\n"
    "\n"
    "Evaluates one candidate in the sandbox and prints the score JSON and a summary.\n"
    "  --task NAME        a built-in task (see `dreamrsi tasks`), or a task folder holding\n"
    "                     task.json {\"evaluator\": NAME | {\"command\": CMD}, \"options\": {}}\n"
    "  --command CMD      a custom evaluator: a shell command whose last stdout line is\n"
    "                     the score JSON; PATH, when given, is passed as its argument\n"
    "  --option KEY=VALUE a task option; VALUE is read as JSON when it parses, else as text\n"
    "                     (e.g. --option tolerance=1e-9 --option suite=quick)\n"
    "  --sandbox MODE     auto (default), bwrap or fallback\n"
    "  --keep             keep the work directory (its path is in the metrics)\n"
    "  --json             print only the score JSON\n";

/// Applies one option to the request; returns the complaint about its value, or nothing.
QString apply(const CommandLine::Given &o, EvaluationRequest *request)
{
    if (o.name == QLatin1String("task")) {
        request->task = o.value;
    } else if (o.name == QLatin1String("command")) {
        request->task = QStringLiteral("custom");
        request->command = o.value;
    } else if (o.name == QLatin1String("option")) {
        const qsizetype eq = o.value.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return QStringLiteral("--option needs KEY=VALUE, got '%1'").arg(o.value);
        const QString text = o.value.mid(eq + 1);
        const QJsonDocument parsed = QJsonDocument::fromJson(QStringLiteral("[%1]").arg(text).toUtf8());
        request->options.insert(o.value.left(eq), parsed.isArray() && parsed.array().size() == 1 ? parsed.array().first()
                                                                                                 : QJsonValue(text));
    } else if (o.name == QLatin1String("sandbox")) {
        if (o.value == QLatin1String("auto"))
            request->sandboxMode = SandboxMode::Auto;
        else if (o.value == QLatin1String("bwrap"))
            request->sandboxMode = SandboxMode::Bubblewrap;
        else if (o.value == QLatin1String("fallback"))
            request->sandboxMode = SandboxMode::Fallback;
        else
            return QStringLiteral("--sandbox must be auto, bwrap or fallback, got '%1'").arg(o.value);
    } else if (o.name == QLatin1String("keep")) {
        request->keepWorkDir = true;
    }
    return {};
}

} // namespace

int runEvaluateCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const QCommandLineOption json = CommandLine::flag("json");
    const QList<QCommandLineOption> options{CommandLine::value("task", "NAME"), CommandLine::value("command", "CMD"),
                                            CommandLine::value("option", "KEY=VALUE"),
                                            CommandLine::value("sandbox", "MODE"), CommandLine::flag("keep"), json};
    QCommandLineParser parser;
    if (const std::optional<int> answered = CommandLine::parseOrAnswer(
            parser, options, args, evaluateUsage, out, [&](const CommandLine::Problem &problem) {
                // An option given last without its value reads as given an empty one
                // (which then says what it needs), as it always has.
                if (problem.kind == CommandLine::Problem::Kind::MissingValue)
                    return runEvaluateCommand(args + QStringList{QString()}, out, err);
                err << "dreamrsi evaluate: unknown option '" << problem.argument << "'\n" << evaluateUsage;
                return 2;
            }))
        return *answered;
    EvaluationRequest request;
    for (const CommandLine::Given &o : CommandLine::inOrder(parser, options)) {
        if (const QString complaint = apply(o, &request); !complaint.isEmpty()) {
            err << "dreamrsi evaluate: " << complaint << '\n';
            return 2;
        }
    }
    const QStringList positional = parser.positionalArguments();
    if (request.task.isEmpty() || (request.task == QLatin1String("custom") && request.command.trimmed().isEmpty())) {
        err << "dreamrsi evaluate: give --task NAME or --command CMD\n" << evaluateUsage;
        return 2;
    }
    if (positional.size() > 1) {
        err << "dreamrsi evaluate: one candidate at a time, got " << positional.size() << " paths\n";
        return 2;
    }
    const bool folder = QFileInfo(request.task).isDir() && !TaskRegistry::create(request.task);
    if (request.task != QLatin1String("custom") && !folder) {
        if (!TaskRegistry::create(request.task)) {
            err << "dreamrsi evaluate: unknown task '" << request.task << "' (known: "
                << TaskRegistry::names().join(QStringLiteral(", ")) << ")\n";
            return 2;
        }
        if (positional.isEmpty()) {
            err << "dreamrsi evaluate: no candidate PATH given (the initial program is "
                << TaskRegistry::initialProgram(request.task) << ")\n";
            return 2;
        }
    }
    if (!positional.isEmpty()) {
        if (!QFileInfo(positional.first()).isFile()) {
            err << "dreamrsi evaluate: no such file '" << positional.first() << "'\n";
            return 2;
        }
        request.candidatePath = positional.first();
    }
    const EvaluationResult result = Evaluator::evaluate(request);
    out << QString::fromUtf8(QJsonDocument(result.toJson()).toJson(QJsonDocument::Compact)) << '\n';
    if (!parser.isSet(json))
        out << '\n' << result.summary();
    return result.isSuccess() ? 0 : 1;
}

} // namespace dreamrsi
