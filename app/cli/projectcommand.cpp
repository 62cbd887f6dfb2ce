// `dreamrsi project new|info|upgrade|config|replay`: create a project, show
// what it holds, upgrade an older build's project file to this build's
// schema, show or change its replay configuration, or replay in it (the same
// as `dreamrsi replay --project P`).
#include "commands.h"

#include "commandline.h"
#include "projectconfigcommand.h"
#include "projectreplaycommand.h"

#include "store/projectfiles.h"
#include "store/projectreader.h"
#include "store/projectwriter.h"
#include "store/schema.h"

#include <algorithm>
#include <optional>

namespace dreamrsi {

namespace {

const char *const projectUsage =
    "usage: dreamrsi project new P.dreamrsi [--name NAME] [--task TASK]\n"
    "       dreamrsi project info P.dreamrsi\n"
    "       dreamrsi project upgrade P.dreamrsi   (an older build's project to this build's schema)\n"
    "       dreamrsi project config P.dreamrsi [--workers W] [--lambda L] [--betas B,...] [--rounds K]\n"
    "                                   [--replay] [--json]   (the replay configuration; see --help there)\n"
    "       dreamrsi project replay P.dreamrsi --policy NAME|FILE.js|builtin:NAME [replay options]\n"
    "                                   (the same as `dreamrsi replay --project P.dreamrsi …`)\n";

int projectUsageError(QTextStream &err, const QString &message)
{
    err << "error: " << message << '\n' << projectUsage;
    return 2;
}

/// Parses the arguments of a subcommand; returns the exit status when it should not run.
std::optional<int> parseSubcommand(QCommandLineParser &parser, const QList<QCommandLineOption> &options,
                                   const QStringList &args, QTextStream &out, QTextStream &err)
{
    if (const auto rc = CommandLine::parseOrAnswer(parser, options, args, projectUsage, out,
                                                   [&err](const QString &why) { return projectUsageError(err, why); }))
        return rc;
    if (parser.positionalArguments().size() != 1) {
        return projectUsageError(err, parser.positionalArguments().isEmpty()
                                   ? QStringLiteral("give the project file")
                                   : QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().at(1)));
    }
    return std::nullopt;
}

int projectNew(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const QCommandLineOption name = CommandLine::value("name", "NAME");
    const QCommandLineOption task = CommandLine::value("task", "TASK");
    QCommandLineParser parser;
    if (const std::optional<int> rc = parseSubcommand(parser, {name, task}, args, out, err))
        return *rc;
    ProjectInfo info;
    info.name = parser.value(name);
    info.task = parser.value(task);
    OpenReport report;
    StoreResult<std::unique_ptr<ProjectWriter>> w =
        ProjectWriter::create(parser.positionalArguments().constFirst(), info, &report);
    if (!w.ok())
        return CommandLine::runtimeError(err, w.error);
    out << "created " << report.project.path << " (schema " << report.project.schemaVersion << ", artifacts in "
        << report.project.artifactDir << ")\n";
    return 0;
}

int projectInfo(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    if (const std::optional<int> rc = parseSubcommand(parser, {}, args, out, err))
        return *rc;
    const QString path = parser.positionalArguments().constFirst();
    // Opened the way the workbench opens it, so a dead process's round is
    // marked interrupted; when another program holds the project, read only.
    OpenReport report;
    StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path, &report);
    QString note;
    if (w.ok())
        w.value->reset();
    else if (w.error.contains(QStringLiteral("already open for writing")))
        note = QStringLiteral("open for writing elsewhere; shown read-only");
    else
        return CommandLine::runtimeError(err, w.error);
    StoreResult<std::unique_ptr<ProjectReader>> r = ProjectFiles::openReader(path);
    if (!r.ok())
        return CommandLine::runtimeError(err, r.error);
    ProjectReader &reader = **r.value;
    const StoreResult<ProjectInfo> p = reader.projectInfo();
    const StoreResult<QList<IterationInfo>> its = reader.iterations();
    const StoreResult<QList<PolicyVersion>> vs = reader.policyVersions();
    const StoreResult<QList<ReplayResultRecord>> rs = reader.replayResults();
    const StoreResult<QList<Approval>> as = reader.approvals();
    const StoreResult<qint64> cells = reader.cellCount();
    const StoreResult<StoredReplayConfig> config = reader.replayConfig();
    for (const QString &e : {p.error, its.error, vs.error, rs.error, as.error, cells.error, config.error}) {
        if (!e.isEmpty())
            return CommandLine::runtimeError(err, e);
    }
    out << "project     " << p.value->name << '\n';
    out << "file        " << p.value->path << '\n';
    out << "artifacts   " << p.value->artifactDir << '\n';
    out << "task        " << (p.value->task.isEmpty() ? QStringLiteral("-") : p.value->task) << '\n';
    out << "created     " << p.value->created.toString(Qt::ISODate) << '\n';
    out << "schema      " << p.value->schemaVersion << '\n';
    int running = 0, interrupted = 0;
    for (const IterationInfo &it : *its.value) {
        running += it.status == IterationStatus::Running;
        interrupted += it.status == IterationStatus::Interrupted;
    }
    out << "iterations  " << its.value->size() << " (" << running << " running, " << interrupted << " interrupted)\n";
    out << "cells       " << *cells.value << '\n';
    out << "policies    " << vs.value->size() << '\n';
    out << "results     " << rs.value->size() << '\n';
    out << "approvals   " << as.value->size() << '\n';
    out << "replay      " << config.value->config.label() << '\n';
    if (!note.isEmpty())
        out << "note        " << note << '\n';
    for (const IterationInfo &it : report.interrupted) {
        out << "recovered   iteration " << it.id << " was running when its process ended; marked interrupted with "
            << it.cellCount << " finished cells kept (resume it from the workbench)\n";
    }
    if (!report.missingArtifacts.isEmpty()) {
        out << "warning     the artifact folder was missing and has been re-created; " << report.missingArtifacts.size()
            << " artifacts are missing\n";
    }
    return 0;
}

/// Upgrades the file of an older build's project to this build's schema.
/// Read-only commands read such a project through an in-memory upgrade and
/// leave the file alone; this is the one command whose purpose is to write it.
int projectUpgrade(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    if (const std::optional<int> rc = parseSubcommand(parser, {}, args, out, err))
        return *rc;
    const QString path = parser.positionalArguments().constFirst();
    int from = 0;
    {
        StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(path);
        if (!r.ok())
            return CommandLine::runtimeError(err, r.error);
        from = (*r.value)->upgradedInMemoryFrom(); // 0: the file is at this build's schema
    }
    if (from == 0) {
        out << path << " is at schema " << Schema::CurrentVersion << ", this build's; nothing to upgrade\n";
        return 0;
    }
    OpenReport report;
    StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path, &report);
    if (!w.ok())
        return CommandLine::runtimeError(err, QStringLiteral("cannot upgrade: %1").arg(w.error));
    out << "upgraded " << report.project.path << " from schema " << from << " to " << report.project.schemaVersion << '\n';
    for (const IterationInfo &it : report.interrupted)
        out << "recovered iteration " << it.id << " was running when its process ended; marked interrupted\n";
    return 0;
}

bool isHelp(const QString &arg)
{
    return arg == QLatin1String("--help") || arg == QLatin1String("-h") || arg == QLatin1String("-help");
}

} // namespace

int runProjectCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    if (args.isEmpty()) {
        err << projectUsage;
        return 2;
    }
    const QString sub = args.first();
    const QStringList rest = args.mid(1);
    if (isHelp(sub)) {
        out << projectUsage;
        return 0;
    }
    if (sub == QLatin1String("new"))
        return projectNew(rest, out, err);
    if (sub == QLatin1String("info"))
        return projectInfo(rest, out, err);
    if (sub == QLatin1String("upgrade"))
        return projectUpgrade(rest, out, err);
    if (sub == QLatin1String("config"))
        return runProjectConfigCommand(rest, out, err);
    if (sub == QLatin1String("replay")) {
        if (!rest.isEmpty() && !rest.first().startsWith(QLatin1Char('-')))
            return runProjectReplayCommand(QStringList{QStringLiteral("--project"), rest.first()} + rest.mid(1), out, err);
        if (std::any_of(rest.begin(), rest.end(), isHelp)) {
            out << projectUsage;
            return 0;
        }
        return projectUsageError(err, QStringLiteral("project replay needs the project file first"));
    }
    return projectUsageError(err, QStringLiteral("unknown subcommand '%1'").arg(sub));
}

} // namespace dreamrsi
