// `dreamrsi dream`: M policy versions written from replay feedback, each
// replayed in the sandboxed child over the project's stored worlds, the best
// by mean value proposed (and approved with --auto-approve).
#include "dreamcommand.h"

#include "commandline.h"
#include "dreamoptions.h"

#include "loop/dream/autoapproval.h"
#include "loop/dream/dreamer.h"
#include "loop/dream/dreamjson.h"
#include "store/projectstore.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonDocument>

namespace dreamrsi {

int runDreamCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Dreaming: writes M policy versions from replay feedback (version 0 = the deployed one, i.e. the\n"
        "newest approved version, else builtin:portfolio), replays each in the sandboxed child process on\n"
        "every finished iteration of the project over the β grid, stores versions and results, and\n"
        "proposes the version with the best mean value that keeps the floor (--floor) and beats the noise."));
    const QCommandLineOption project(QStringLiteral("project"), QStringLiteral("The project file."), QStringLiteral("P"));
    parser.addOption(project);
    DreamFlags::add(parser);
    const QCommandLineOption autoApprove(QStringLiteral("auto-approve"),
                                         QStringLiteral("Approve the proposed version and record that it was automatic."));
    parser.addOption(autoApprove);
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print the versions and the proposal as JSON."));
    parser.addOption(json);
    const QCommandLineOption includeApproximate(
        QStringLiteral("include-approximate"),
        QStringLiteral("Also dream in approximate worlds (imported runs with forks or orphans, docs/tree-format.md)."));
    parser.addOption(includeApproximate);

    auto usageError = [&](const QString &message) {
        err << "error: " << message << "\n\n" << parser.helpText();
        return 2;
    };
    if (const std::optional<int> answered = CommandLine::parseOrAnswer(
            parser, {}, args, [&parser] { return parser.helpText(); }, out,
            [&](const CommandLine::Problem &problem) { return usageError(problem.message); }))
        return *answered;
    if (!parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()));
    if (!parser.isSet(project))
        return usageError(QStringLiteral("--project is required"));
    const Result<DreamOptions> read = DreamFlags::read(parser);
    if (!read)
        return usageError(read.error);
    DreamOptions options = *read.value;
    options.includeApproximate = parser.isSet(includeApproximate);
    const QString path = parser.value(project);
    if (!QFileInfo::exists(path)) {
        err << "error: " << path << ": no such project file\n";
        return 1;
    }
    ProjectStore store;
    const StoreResult<OpenReport> opened = store.open(path).result();
    if (!opened.ok()) {
        err << "error: " << opened.error << '\n';
        return 1;
    }
    const Result<PreparedDream> prepared = DreamSession::prepare(store, options);
    if (!prepared) {
        err << "error: " << prepared.error << '\n';
        store.close().waitForFinished();
        return 1;
    }
    if (const int n = prepared.value->approximateLeftOut; n > 0)
        err << "note: " << n << " approximate world" << (n == 1 ? "" : "s")
            << " left out (imported runs with forks or orphans); --include-approximate dreams in them too\n";
    const QList<DreamWorld> &worlds = prepared.value->history;

    Dreamer dreamer(&store, prepared.value->developer);
    QObject::connect(&dreamer, &Dreamer::message, &dreamer,
                     [&err](const QString &line) { err << "dream: " << line << '\n' << Qt::flush; });
    const DreamReport report = dreamer.run(worlds, prepared.value->settings);
    int rc = 0;
    QJsonObject result = dreamReportJson(report, worlds, prepared.value->settings);
    result.insert(QStringLiteral("project"), QFileInfo(path).absoluteFilePath());
    QJsonValue approved(QJsonValue::Null);
    if (!report.error.isEmpty()) {
        err << "error: " << report.error << '\n';
        rc = 1;
    } else if (!report.proposal()) {
        err << "error: no version of the dream could be scored; nothing is proposed\n";
        rc = 1;
    } else if (parser.isSet(autoApprove)) {
        const StoreResult<qint64> a =
            approveAutomatically(store, report, report.proposed, worlds, QStringLiteral("dreamrsi dream"));
        if (!a.ok()) {
            err << "error: cannot record the approval: " << a.error << '\n';
            rc = 1;
        } else {
            approved = report.proposal()->developed.version.id;
            err << "dream: approved " << report.proposal()->developed.version.name << " automatically\n";
        }
    }
    result.insert(QStringLiteral("approved"), approved);
    store.close().waitForFinished();
    if (parser.isSet(json))
        out << QJsonDocument(result).toJson(QJsonDocument::Indented);
    return rc;
}

} // namespace dreamrsi
