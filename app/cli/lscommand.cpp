// `dreamrsi ls`: a project's iterations, policy versions, replay results or approvals as a table.
#include "commands.h"

#include "commandline.h"

#include "store/projectfiles.h"
#include "store/projectlock.h"
#include "store/projectreader.h"

namespace dreamrsi {

namespace {

const char *const lsUsage = "usage: dreamrsi ls P.dreamrsi [iterations|policies|results|approvals] [--policy NAME]\n";

QString num(double x)
{
    return QString::number(x, 'g', 6);
}

QString optNum(const std::optional<double> &x)
{
    return x ? num(*x) : QStringLiteral("-");
}

int lsUsageError(QTextStream &err, const QString &message)
{
    err << "dreamrsi ls: " << message << '\n' << lsUsage;
    return 2;
}

/// `held`: a live process holds the project, so its `running` iteration is
/// running; otherwise that round was interrupted (the next writer marks it so).
void printIterations(const QList<IterationInfo> &its, bool held, QTextStream &out)
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
                   .arg(it.status == IterationStatus::Running && !held ? QStringLiteral("interrupted")
                                                                        : iterationStatusName(it.status),
                        -12)
                   .arg(it.cellCount, 6)
                   .arg(optNum(it.bestScore), 10)
                   .arg(it.grid ? QStringLiteral("%1x%2").arg(it.grid->branches).arg(it.grid->refinements)
                                : QStringLiteral("-"),
                        7)
                   .arg(it.task.value_or(QStringLiteral("-")), -22)
                   .arg(it.source.isEmpty() ? QStringLiteral("(live round)") : it.source);
    }
}

QHash<PolicyVersionId, QString> lsNamesOf(const QList<PolicyVersion> &vs)
{
    QHash<PolicyVersionId, QString> names;
    for (const PolicyVersion &v : vs)
        names.insert(v.id, v.name);
    return names;
}

void printPolicies(const QList<PolicyVersion> &vs, QTextStream &out)
{
    const QHash<PolicyVersionId, QString> names = lsNamesOf(vs);
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
    const QHash<PolicyVersionId, QString> names = lsNamesOf(vs);
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

void printApprovals(const QList<Approval> &as, const QList<PolicyVersion> &vs, QTextStream &out)
{
    const QHash<PolicyVersionId, QString> names = lsNamesOf(vs);
    for (const Approval &a : as) {
        out << a.id << "  " << a.when.toString(Qt::ISODate) << "  " << names.value(a.version) << "  by " << a.who
            << (a.note.isEmpty() ? QString() : QStringLiteral("  (%1)").arg(a.note)) << '\n';
    }
}

} // namespace

int runLsCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const QCommandLineOption policyOption = CommandLine::value("policy", "NAME");
    QCommandLineParser parser;
    if (const auto rc = CommandLine::parseOrAnswer(parser, {policyOption}, args, lsUsage, out,
                                                   [&err](const QString &why) { return lsUsageError(err, why); }))
        return *rc;
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty()) {
        err << lsUsage;
        return 2;
    }
    if (positional.size() > 2)
        return lsUsageError(err, QStringLiteral("unexpected argument '%1'").arg(positional.at(2)));
    const QString project = positional.first();
    const QString what = positional.value(1, QStringLiteral("iterations"));
    const QStringList kinds = {QStringLiteral("iterations"), QStringLiteral("policies"), QStringLiteral("results"),
                               QStringLiteral("approvals")};
    if (!kinds.contains(what))
        return lsUsageError(err, QStringLiteral("unknown listing '%1'").arg(what));

    StoreResult<std::unique_ptr<ProjectReader>> r = ProjectFiles::openReader(project);
    if (!r.ok())
        return CommandLine::runtimeError(err, r.error);
    ProjectReader &reader = **r.value;
    const StoreResult<QList<PolicyVersion>> vs = reader.policyVersions();
    if (!vs.ok())
        return CommandLine::runtimeError(err, vs.error);
    if (what == QLatin1String("iterations")) {
        const StoreResult<QList<IterationInfo>> its = reader.iterations();
        if (!its.ok())
            return CommandLine::runtimeError(err, its.error);
        printIterations(*its.value, ProjectLock::liveWriter(project).has_value(), out);
    } else if (what == QLatin1String("policies")) {
        printPolicies(*vs.value, out);
    } else if (what == QLatin1String("results")) {
        PolicyVersionId version = 0;
        if (const QString policy = parser.value(policyOption); !policy.isEmpty()) {
            const StoreResult<PolicyVersion> v = reader.policyVersionByName(policy);
            if (!v.ok())
                return CommandLine::runtimeError(err, v.error);
            version = v.value->id;
        }
        const StoreResult<QList<ReplayResultRecord>> rs = reader.replayResults(version);
        if (!rs.ok())
            return CommandLine::runtimeError(err, rs.error);
        printResults(*rs.value, *vs.value, out);
    } else {
        const StoreResult<QList<Approval>> as = reader.approvals();
        if (!as.ok())
            return CommandLine::runtimeError(err, as.error);
        printApprovals(*as.value, *vs.value, out);
    }
    return 0;
}

} // namespace dreamrsi
