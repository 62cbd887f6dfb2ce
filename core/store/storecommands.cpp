#include "storecommands.h"

#include "projectfiles.h"
#include "projectreader.h"
#include "projectwriter.h"
#include "schema.h"
#include "sqliteconnection.h"

#include "model/modelcommands.h"
#include "model/treejson.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>

namespace dreamrsi {

namespace {

QString num(double x)
{
    return QString::number(x, 'g', 6);
}

QString optNum(const std::optional<double> &x)
{
    return x ? num(*x) : QStringLiteral("-");
}

/// True when `path` names an SQLite file (a project or a bundle), judged by its header.
bool looksLikeSqlite(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    return f.read(16) == QByteArray("SQLite format 3\0", 16);
}

/// A reader for the CLI: a project of an older schema is migrated first
/// (that takes the writer's lock for a moment).
StoreResult<std::unique_ptr<ProjectReader>> openReader(const QString &path)
{
    StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(path);
    if (r.ok())
        return r;
    QString error;
    std::unique_ptr<SqliteConnection> db = SqliteConnection::open(path, SqliteConnection::Mode::ReadOnly, &error);
    const std::optional<qint64> version = db ? db->queryInt("PRAGMA user_version;", &error) : std::nullopt;
    const std::optional<qint64> app = db ? db->queryInt("PRAGMA application_id;", &error) : std::nullopt;
    db.reset();
    if (version && app && *app == Schema::ApplicationId && *version < Schema::CurrentVersion) {
        StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path);
        if (!w.ok())
            return StoreResult<std::unique_ptr<ProjectReader>>::failure(w.error);
        w.value->reset();
        return ProjectReader::open(path);
    }
    return r;
}

const char *const projectUsage =
    "usage: dreamrsi project new P.dreamrsi [--name NAME] [--task TASK]\n"
    "       dreamrsi project info P.dreamrsi\n"
    "       dreamrsi project replay P.dreamrsi --policy NAME|FILE.js|builtin:NAME [replay options]\n"
    "                                   (the same as `dreamrsi replay --project P.dreamrsi …`)\n";

const char *const importUsage =
    "usage: dreamrsi import P.dreamrsi TREE.json...        store trees as iterations (all files or none)\n"
    "       dreamrsi import P.dreamrsi --policy FILE.js --name NAME [--origin human|agent|builtin] [--parent NAME]\n"
    "       dreamrsi import --bundle B.dreamrsi-bundle NEW.dreamrsi   unpack a bundle into a new project\n";

const char *const exportUsage =
    "usage: dreamrsi export P.dreamrsi --iteration ID [-o OUT.json]   one iteration as a tree file\n"
    "       dreamrsi export P.dreamrsi --iteration ID --dir DIR       tree, round metadata and artifacts\n"
    "       dreamrsi export P.dreamrsi --all --dir DIR                every iteration as a tree file\n"
    "       dreamrsi export P.dreamrsi --bundle OUT.dreamrsi-bundle   the whole project as one file\n"
    "       dreamrsi export IN.json [-o OUT.json]                     re-write a tree file canonically\n";

const char *const lsUsage = "usage: dreamrsi ls P.dreamrsi [iterations|policies|results|approvals] [--policy NAME]\n";

int projectNew(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QString path;
    ProjectInfo info;
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (a == QLatin1String("--name") && i + 1 < args.size()) {
            info.name = args.at(++i);
        } else if (a == QLatin1String("--task") && i + 1 < args.size()) {
            info.task = args.at(++i);
        } else if (a.startsWith(QLatin1Char('-')) || !path.isEmpty()) {
            err << projectUsage;
            return 2;
        } else {
            path = a;
        }
    }
    if (path.isEmpty()) {
        err << projectUsage;
        return 2;
    }
    OpenReport report;
    StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::create(path, info, &report);
    if (!w.ok()) {
        err << "error: " << w.error << '\n';
        return 1;
    }
    out << "created " << report.project.path << " (schema " << report.project.schemaVersion << ", artifacts in "
        << report.project.artifactDir << ")\n";
    return 0;
}

int projectInfo(const QString &path, QTextStream &out, QTextStream &err)
{
    // Opened the way the workbench opens it, so a dead process's round is
    // marked interrupted; when another program holds the project, read only.
    OpenReport report;
    StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path, &report);
    QString note;
    if (w.ok())
        w.value->reset();
    else if (w.error.contains(QStringLiteral("already open for writing")))
        note = QStringLiteral("open for writing elsewhere; shown read-only");
    else {
        err << "error: " << w.error << '\n';
        return 1;
    }
    StoreResult<std::unique_ptr<ProjectReader>> r = openReader(path);
    if (!r.ok()) {
        err << "error: " << r.error << '\n';
        return 1;
    }
    ProjectReader &reader = **r.value;
    const StoreResult<ProjectInfo> p = reader.projectInfo();
    const StoreResult<QList<IterationInfo>> its = reader.iterations();
    const StoreResult<QList<PolicyVersion>> vs = reader.policyVersions();
    const StoreResult<QList<ReplayResultRecord>> rs = reader.replayResults();
    const StoreResult<QList<Approval>> as = reader.approvals();
    const StoreResult<qint64> cells = reader.cellCount();
    for (const QString &e : {p.error, its.error, vs.error, rs.error, as.error, cells.error}) {
        if (!e.isEmpty()) {
            err << "error: " << e << '\n';
            return 1;
        }
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

int importPolicy(const QString &project, const QStringList &args, QTextStream &out, QTextStream &err)
{
    PolicyVersion v;
    QString file, parentName;
    v.origin = PolicyOrigin::Human;
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        const bool hasValue = i + 1 < args.size();
        if (a == QLatin1String("--policy") && hasValue) {
            file = args.at(++i);
        } else if (a == QLatin1String("--name") && hasValue) {
            v.name = args.at(++i);
        } else if (a == QLatin1String("--parent") && hasValue) {
            parentName = args.at(++i);
        } else if (a == QLatin1String("--origin") && hasValue) {
            const std::optional<PolicyOrigin> o = policyOriginFromName(args.at(++i));
            if (!o) {
                err << "error: --origin must be human, agent or builtin (got '" << args.at(i) << "')\n";
                return 2;
            }
            v.origin = *o;
        } else {
            err << importUsage;
            return 2;
        }
    }
    if (file.isEmpty()) {
        err << importUsage;
        return 2;
    }
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        err << "error: " << file << ": cannot read: " << f.errorString() << '\n';
        return 1;
    }
    v.code = QString::fromUtf8(f.readAll());
    if (v.name.isEmpty())
        v.name = QFileInfo(file).completeBaseName();
    StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(project);
    if (!w.ok()) {
        err << "error: " << w.error << '\n';
        return 1;
    }
    if (!parentName.isEmpty()) {
        StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(project);
        StoreResult<PolicyVersion> parent =
            r.ok() ? (*r.value)->policyVersionByName(parentName) : StoreResult<PolicyVersion>::failure(r.error);
        if (!parent.ok()) {
            err << "error: " << parent.error << '\n';
            return 1;
        }
        v.parent = parent.value->id;
    }
    const StoreResult<PolicyVersionId> id = (*w.value)->addPolicyVersion(v);
    if (!id.ok()) {
        err << "error: " << id.error << '\n';
        return 1;
    }
    out << "policy version " << *id.value << " \"" << v.name << "\" added\n";
    return 0;
}

void printIterations(const QList<IterationInfo> &its, QTextStream &out)
{
    out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8\n")
               .arg(QStringLiteral("id"), 5)
               .arg(QStringLiteral("iter"), 5)
               .arg(QStringLiteral("status"), -12)
               .arg(QStringLiteral("cells"), 6)
               .arg(QStringLiteral("best"), 10)
               .arg(QStringLiteral("grid"), 7)
               .arg(QStringLiteral("task"), -22)
               .arg(QStringLiteral("source"));
    for (const IterationInfo &it : its) {
        out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8\n")
                   .arg(it.id, 5)
                   .arg(it.number ? QString::number(*it.number) : QStringLiteral("-"), 5)
                   .arg(iterationStatusName(it.status), -12)
                   .arg(it.cellCount, 6)
                   .arg(optNum(it.bestScore), 10)
                   .arg(it.grid ? QStringLiteral("%1x%2").arg(it.grid->branches).arg(it.grid->refinements)
                                : QStringLiteral("-"),
                        7)
                   .arg(it.task.value_or(QStringLiteral("-")), -22)
                   .arg(it.source.isEmpty() ? QStringLiteral("(live round)") : it.source);
    }
}

void printPolicies(const QList<PolicyVersion> &vs, QTextStream &out)
{
    QHash<PolicyVersionId, QString> names;
    for (const PolicyVersion &v : vs)
        names.insert(v.id, v.name);
    out << QStringLiteral("%1 %2 %3 %4 %5\n")
               .arg(QStringLiteral("id"), 5)
               .arg(QStringLiteral("name"), -24)
               .arg(QStringLiteral("origin"), -8)
               .arg(QStringLiteral("parent"), -24)
               .arg(QStringLiteral("created"));
    for (const PolicyVersion &v : vs) {
        out << QStringLiteral("%1 %2 %3 %4 %5\n")
                   .arg(v.id, 5)
                   .arg(v.name, -24)
                   .arg(policyOriginName(v.origin), -8)
                   .arg(v.parent ? names.value(v.parent, QString::number(v.parent)) : QStringLiteral("-"), -24)
                   .arg(v.created.toString(Qt::ISODate));
    }
}

void printResults(const QList<ReplayResultRecord> &rs, const QList<PolicyVersion> &vs, QTextStream &out)
{
    QHash<PolicyVersionId, QString> names;
    for (const PolicyVersion &v : vs)
        names.insert(v.id, v.name);
    out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11\n")
               .arg(QStringLiteral("policy"), -20)
               .arg(QStringLiteral("world"), 5)
               .arg(QStringLiteral("beta"), 5)
               .arg(QStringLiteral("W"), 3)
               .arg(QStringLiteral("lambda"), 6)
               .arg(QStringLiteral("K"), 4)
               .arg(QStringLiteral("calls"), 6)
               .arg(QStringLiteral("rounds"), 6)
               .arg(QStringLiteral("best"), 10)
               .arg(QStringLiteral("attain"), 8)
               .arg(QStringLiteral("error"));
    for (const ReplayResultRecord &r : rs) {
        out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11\n")
                   .arg(names.value(r.key.version, QString::number(r.key.version)), -20)
                   .arg(r.key.world, 5)
                   .arg(num(r.key.beta), 5)
                   .arg(r.key.workers, 3)
                   .arg(num(r.key.lambda), 6)
                   .arg(r.key.rounds ? QString::number(*r.key.rounds) : QStringLiteral("-"), 4)
                   .arg(r.calls, 6)
                   .arg(r.rounds, 6)
                   .arg(num(r.best), 10)
                   .arg(num(r.attainment), 8)
                   .arg(r.error.value_or(QString()));
    }
}

} // namespace

int runProjectCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    if (args.isEmpty() || args.contains(QLatin1String("--help"))) {
        (args.isEmpty() ? err : out) << projectUsage;
        return args.isEmpty() ? 2 : 0;
    }
    const QString sub = args.first();
    if (sub == QLatin1String("new"))
        return projectNew(args.mid(1), out, err);
    if (sub == QLatin1String("info")) {
        if (args.size() != 2) {
            err << projectUsage;
            return 2;
        }
        return projectInfo(args.at(1), out, err);
    }
    // `project replay` is dispatched by the CLI (app/cli) to the project layer.
    err << "error: unknown subcommand '" << sub << "'\n" << projectUsage;
    return 2;
}

int runImportCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    if (args.isEmpty() || args.contains(QLatin1String("--help"))) {
        (args.isEmpty() ? err : out) << importUsage;
        return args.isEmpty() ? 2 : 0;
    }
    if (args.first() == QLatin1String("--bundle")) {
        if (args.size() != 3) {
            err << importUsage;
            return 2;
        }
        const StoreResult<Done> r = ProjectFiles::importBundle(args.at(1), args.at(2));
        if (!r.ok()) {
            err << "error: " << r.error << '\n';
            return 1;
        }
        out << "unpacked " << args.at(1) << " into " << QFileInfo(args.at(2)).absoluteFilePath() << '\n';
        return 0;
    }
    const QString project = args.first();
    const QStringList rest = args.mid(1);
    if (rest.contains(QLatin1String("--policy")))
        return importPolicy(project, rest, out, err);
    if (rest.isEmpty()) {
        err << importUsage;
        return 2;
    }
    for (const QString &a : rest) {
        if (a.startsWith(QLatin1Char('-'))) {
            err << importUsage;
            return 2;
        }
    }
    StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(project);
    if (!w.ok()) {
        err << "error: " << w.error << '\n';
        return 1;
    }
    const StoreResult<QList<IterationId>> ids = ProjectFiles::importTreeFiles(**w.value, rest);
    if (!ids.ok()) {
        err << "error: " << ids.error << '\n';
        return 1;
    }
    for (qsizetype i = 0; i < rest.size(); ++i)
        out << rest.at(i) << ": stored as iteration " << ids.value->at(i) << '\n';
    return 0;
}

int runProjectExportCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const bool projectForm = args.contains(QLatin1String("--iteration")) || args.contains(QLatin1String("--all"))
                             || args.contains(QLatin1String("--bundle"))
                             || (!args.isEmpty() && looksLikeSqlite(args.first()));
    if (args.contains(QLatin1String("--help"))) {
        out << exportUsage;
        return 0;
    }
    if (!projectForm)
        return runExportTreeCommand(args, out, err);

    QString project, output, dir, bundle;
    std::optional<IterationId> iteration;
    bool all = false;
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        const bool hasValue = i + 1 < args.size();
        if (a == QLatin1String("--iteration") && hasValue) {
            bool ok = false;
            iteration = args.at(++i).toLongLong(&ok);
            if (!ok || *iteration < 1) {
                err << "error: --iteration needs an iteration id (see `dreamrsi ls P.dreamrsi`), got '" << args.at(i)
                    << "'\n";
                return 2;
            }
        } else if ((a == QLatin1String("-o") || a == QLatin1String("--out")) && hasValue) {
            output = args.at(++i);
        } else if (a == QLatin1String("--dir") && hasValue) {
            dir = args.at(++i);
        } else if (a == QLatin1String("--bundle") && hasValue) {
            bundle = args.at(++i);
        } else if (a == QLatin1String("--all")) {
            all = true;
        } else if (!a.startsWith(QLatin1Char('-')) && project.isEmpty()) {
            project = a;
        } else {
            err << exportUsage;
            return 2;
        }
    }
    const int forms = int(iteration.has_value()) + int(all) + int(!bundle.isEmpty());
    if (project.isEmpty() || forms != 1 || (all && dir.isEmpty()) || (!bundle.isEmpty() && !(output.isEmpty() && dir.isEmpty()))
        || (!output.isEmpty() && !dir.isEmpty())) {
        err << exportUsage;
        return 2;
    }
    if (!bundle.isEmpty()) {
        const StoreResult<Done> r = ProjectFiles::exportBundle(project, bundle);
        if (!r.ok()) {
            err << "error: " << r.error << '\n';
            return 1;
        }
        out << "bundle written to " << QFileInfo(bundle).absoluteFilePath() << '\n';
        return 0;
    }
    StoreResult<std::unique_ptr<ProjectReader>> r = openReader(project);
    if (!r.ok()) {
        err << "error: " << r.error << '\n';
        return 1;
    }
    ProjectReader &reader = **r.value;
    if (iteration) {
        if (!dir.isEmpty()) {
            const StoreResult<Done> done = ProjectFiles::exportIterationDir(reader, *iteration, dir);
            if (!done.ok()) {
                err << "error: " << done.error << '\n';
                return 1;
            }
            out << "iteration " << *iteration << " written to " << QDir(dir).absolutePath() << '\n';
            return 0;
        }
        if (output.isEmpty()) {
            const StoreResult<DiscoveryTree> tree = reader.loadIteration(*iteration);
            if (!tree.ok()) {
                err << "error: " << tree.error << '\n';
                return 1;
            }
            out << QString::fromUtf8(TreeJson::serialize(*tree.value));
            return 0;
        }
        const StoreResult<Done> done = ProjectFiles::exportTree(reader, *iteration, output);
        if (!done.ok()) {
            err << "error: " << done.error << '\n';
            return 1;
        }
        return 0;
    }
    const StoreResult<QList<IterationInfo>> its = reader.iterations();
    if (!its.ok()) {
        err << "error: " << its.error << '\n';
        return 1;
    }
    if (!QDir().mkpath(dir)) {
        err << "error: " << dir << ": cannot create the folder\n";
        return 1;
    }
    for (const IterationInfo &it : *its.value) {
        const QString file = QDir(dir).filePath(QStringLiteral("iteration-%1.json").arg(it.id));
        const StoreResult<Done> done = ProjectFiles::exportTree(reader, it.id, file);
        if (!done.ok()) {
            err << "error: " << done.error << '\n';
            return 1;
        }
        out << file << '\n';
    }
    return 0;
}

int runLsCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    if (args.isEmpty() || args.contains(QLatin1String("--help"))) {
        (args.isEmpty() ? err : out) << lsUsage;
        return args.isEmpty() ? 2 : 0;
    }
    QString project, what = QStringLiteral("iterations"), policy;
    bool whatGiven = false;
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (a == QLatin1String("--policy") && i + 1 < args.size()) {
            policy = args.at(++i);
        } else if (a.startsWith(QLatin1Char('-'))) {
            err << lsUsage;
            return 2;
        } else if (project.isEmpty()) {
            project = a;
        } else if (!whatGiven) {
            what = a;
            whatGiven = true;
        } else {
            err << lsUsage;
            return 2;
        }
    }
    const QStringList kinds = {QStringLiteral("iterations"), QStringLiteral("policies"), QStringLiteral("results"),
                               QStringLiteral("approvals")};
    if (project.isEmpty() || !kinds.contains(what)) {
        err << lsUsage;
        return 2;
    }
    StoreResult<std::unique_ptr<ProjectReader>> r = openReader(project);
    if (!r.ok()) {
        err << "error: " << r.error << '\n';
        return 1;
    }
    ProjectReader &reader = **r.value;
    const StoreResult<QList<PolicyVersion>> vs = reader.policyVersions();
    if (!vs.ok()) {
        err << "error: " << vs.error << '\n';
        return 1;
    }
    if (what == QLatin1String("iterations")) {
        const StoreResult<QList<IterationInfo>> its = reader.iterations();
        if (!its.ok()) {
            err << "error: " << its.error << '\n';
            return 1;
        }
        printIterations(*its.value, out);
    } else if (what == QLatin1String("policies")) {
        printPolicies(*vs.value, out);
    } else if (what == QLatin1String("results")) {
        PolicyVersionId version = 0;
        if (!policy.isEmpty()) {
            const StoreResult<PolicyVersion> v = reader.policyVersionByName(policy);
            if (!v.ok()) {
                err << "error: " << v.error << '\n';
                return 1;
            }
            version = v.value->id;
        }
        const StoreResult<QList<ReplayResultRecord>> rs = reader.replayResults(version);
        if (!rs.ok()) {
            err << "error: " << rs.error << '\n';
            return 1;
        }
        printResults(*rs.value, *vs.value, out);
    } else {
        const StoreResult<QList<Approval>> as = reader.approvals();
        if (!as.ok()) {
            err << "error: " << as.error << '\n';
            return 1;
        }
        QHash<PolicyVersionId, QString> names;
        for (const PolicyVersion &v : *vs.value)
            names.insert(v.id, v.name);
        for (const Approval &a : *as.value) {
            out << a.id << "  " << a.when.toString(Qt::ISODate) << "  " << names.value(a.version) << "  by " << a.who
                << (a.note.isEmpty() ? QString() : QStringLiteral("  (%1)").arg(a.note)) << '\n';
        }
    }
    return 0;
}

} // namespace dreamrsi
