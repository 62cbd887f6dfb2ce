#include "evalcommands.h"

#include "evaluationpool.h"
#include "evaluator.h"
#include "sandboxrunner.h"
#include "taskevaluator.h"
#include "taskregistry.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <vector>

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

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
}

} // namespace

int runEvaluateCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    EvaluationRequest request;
    bool jsonOnly = false;
    QStringList positional;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        auto value = [&]() -> QString { return i + 1 < args.size() ? args.at(++i) : QString(); };
        if (a == QLatin1String("--help") || a == QLatin1String("-h")) {
            out << evaluateUsage;
            return 0;
        } else if (a == QLatin1String("--task")) {
            request.task = value();
        } else if (a == QLatin1String("--command")) {
            request.task = QStringLiteral("custom");
            request.command = value();
        } else if (a == QLatin1String("--option")) {
            const QString kv = value();
            const qsizetype eq = kv.indexOf(QLatin1Char('='));
            if (eq <= 0) {
                err << "dreamrsi evaluate: --option needs KEY=VALUE, got '" << kv << "'\n";
                return 2;
            }
            const QString text = kv.mid(eq + 1);
            const QJsonDocument parsed = QJsonDocument::fromJson(QStringLiteral("[%1]").arg(text).toUtf8());
            request.options.insert(kv.left(eq), parsed.isArray() && parsed.array().size() == 1 ? parsed.array().first()
                                                                                               : QJsonValue(text));
        } else if (a == QLatin1String("--sandbox")) {
            const QString mode = value();
            if (mode == QLatin1String("auto"))
                request.sandboxMode = SandboxMode::Auto;
            else if (mode == QLatin1String("bwrap"))
                request.sandboxMode = SandboxMode::Bubblewrap;
            else if (mode == QLatin1String("fallback"))
                request.sandboxMode = SandboxMode::Fallback;
            else {
                err << "dreamrsi evaluate: --sandbox must be auto, bwrap or fallback, got '" << mode << "'\n";
                return 2;
            }
        } else if (a == QLatin1String("--keep")) {
            request.keepWorkDir = true;
        } else if (a == QLatin1String("--json")) {
            jsonOnly = true;
        } else if (a.startsWith(QLatin1String("--"))) {
            err << "dreamrsi evaluate: unknown option '" << a << "'\n" << evaluateUsage;
            return 2;
        } else {
            positional << a;
        }
    }
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
    if (!jsonOnly)
        out << '\n' << result.summary();
    return result.isSuccess() ? 0 : 1;
}

int runTasksCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    if (!args.isEmpty() && args.first() != QLatin1String("--help")) {
        err << "usage: dreamrsi tasks\n";
        return 2;
    }
    if (!args.isEmpty()) {
        out << "usage: dreamrsi tasks\n\nLists the built-in tasks, their folders and initial programs.\n";
        return 0;
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

int runBenchSandboxCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    int runs = 50;
    int workers = std::max(1, QThread::idealThreadCount());
    int evaluations = 40;
    for (qsizetype i = 0; i < args.size(); ++i) {
        bool ok = true;
        if (args.at(i) == QLatin1String("--runs") && i + 1 < args.size())
            runs = args.at(++i).toInt(&ok);
        else if (args.at(i) == QLatin1String("--workers") && i + 1 < args.size())
            workers = args.at(++i).toInt(&ok);
        else if (args.at(i) == QLatin1String("--evaluations") && i + 1 < args.size())
            evaluations = args.at(++i).toInt(&ok);
        else
            ok = false;
        if (!ok || runs < 1 || workers < 1 || evaluations < 1) {
            err << "usage: dreamrsi bench sandbox [--runs N] [--workers W] [--evaluations M]\n";
            return 2;
        }
    }
    QTemporaryDir work(QDir::tempPath() + QStringLiteral("/dreamrsi-bench-XXXXXX"));
    if (!work.isValid()) {
        err << "dreamrsi bench sandbox: cannot create a work directory: " << work.errorString() << '\n';
        return 1;
    }

    auto timeBare = [&] {
        std::vector<double> ms;
        for (int i = 0; i < runs; ++i) {
            QElapsedTimer clock;
            clock.start();
            QProcess p;
            p.setWorkingDirectory(work.path());
            p.start(QStringLiteral("/bin/true"), {});
            p.waitForFinished(10'000);
            ms.push_back(double(clock.nsecsElapsed()) / 1e6);
        }
        return median(ms);
    };
    auto timeSandboxed = [&](SandboxMode mode, bool *ok) {
        std::vector<double> ms;
        for (int i = 0; i < runs; ++i) {
            SandboxRequest request;
            request.program = QStringLiteral("/bin/true");
            request.workDir = work.path();
            request.mode = mode;
            QElapsedTimer clock;
            clock.start();
            const SandboxResult r = SandboxRunner::run(request);
            ms.push_back(double(clock.nsecsElapsed()) / 1e6);
            if (!r.succeeded()) {
                err << "sandboxed /bin/true failed: " << r.describe() << '\n';
                *ok = false;
                return 0.0;
            }
        }
        *ok = true;
        return median(ms);
    };

    out << "sandbox benchmark: " << runs << " runs of /bin/true each (median wall time, ms)\n";
    const double bare = timeBare();
    out << "  bare QProcess        " << QString::number(bare, 'f', 2) << '\n';
    bool ok = false;
    if (SandboxRunner::bubblewrapAvailable()) {
        const double bwrap = timeSandboxed(SandboxMode::Bubblewrap, &ok);
        if (!ok)
            return 1;
        out << "  bubblewrap sandbox   " << QString::number(bwrap, 'f', 2) << "   overhead "
            << QString::number(bwrap - bare, 'f', 2) << " ms\n";
    } else {
        out << "  bubblewrap sandbox   unavailable: " << SandboxRunner::bubblewrapProblem() << '\n';
    }
    const double fallback = timeSandboxed(SandboxMode::Fallback, &ok);
    if (!ok)
        return 1;
    out << "  fallback sandbox     " << QString::number(fallback, 'f', 2) << "   overhead "
        << QString::number(fallback - bare, 'f', 2) << " ms\n";

    // Throughput: M trivial evaluations (a custom command printing a score) through W workers.
    EvaluationPool pool(workers);
    int failures = 0;
    QObject::connect(&pool, &EvaluationPool::finished, &pool,
                     [&](quint64, const EvaluationResult &r) { failures += r.isSuccess() ? 0 : 1; });
    EvaluationRequest request;
    request.task = QStringLiteral("custom");
    request.command = QStringLiteral("echo '{\"score\": 1}'");
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < evaluations; ++i)
        pool.submit(request);
    if (!pool.waitForIdle(600'000)) {
        err << "dreamrsi bench sandbox: the pool did not finish within 10 minutes\n";
        return 1;
    }
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    out << "pool throughput: " << evaluations << " trivial evaluations, W = " << workers << ": "
        << QString::number(seconds, 'f', 2) << " s, " << QString::number(evaluations / seconds, 'f', 1)
        << " evaluations/s (" << failures << " failed; sandbox "
        << (SandboxRunner::effectiveMode(SandboxMode::Auto) == SandboxMode::Bubblewrap ? "bubblewrap" : "fallback") << ")\n";
    return failures == 0 ? 0 : 1;
}

} // namespace dreamrsi
