// `dreamrsi approve`: argument parsing and printing; the rules are ApprovalRules (core/project).
#include "commandline.h"
#include "projectreplaycommand.h"
#include "steercommand.h"

#include "project/approvalcomparison.h"
#include "project/projectsnapshot.h"
#include "store/projectlock.h"
#include "store/projectreader.h"
#include "store/projectwriter.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>

namespace dreamrsi {

namespace {

const char *const approveUsage =
    "usage: dreamrsi approve --project P.dreamrsi --version V [--note TEXT] [--by NAME] [--json]\n"
    "       dreamrsi approve --project P.dreamrsi --best [--note TEXT] [--by NAME] [--json]\n"
    "       dreamrsi approve --project P.dreamrsi --decline [--note TEXT] [--by NAME]\n"
    "Approves a policy version for the next online round, with the evidence the workbench's\n"
    "approval dialog stores: the version against the deployed one (else the best other\n"
    "version), world by world, over the project's finished iterations. --best picks the\n"
    "version of highest value; when that is the deployed one, nothing is approved (exit 0).\n"
    "--by defaults to $USER, else the account's login name.\n"
    "While `dreamrsi loop --await-approval` waits after a dream (it holds the project), the\n"
    "answer goes to the loop through the project's inbox: --version V or --best approve one\n"
    "of that dream's versions, --decline keeps the deployed one; exit 1 when it is refused.\n"
    "--decline needs a waiting loop.\n";

QString approveNumber(const std::optional<double> &v)
{
    return v ? QString::number(*v, 'f', 4) : QStringLiteral("-");
}

} // namespace

int runApproveCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption project(QStringLiteral("project"), QString(), QStringLiteral("P"));
    const QCommandLineOption version(QStringLiteral("version"), QString(), QStringLiteral("V"));
    const QCommandLineOption note(QStringLiteral("note"), QString(), QStringLiteral("TEXT"));
    const QCommandLineOption by(QStringLiteral("by"), QString(), QStringLiteral("NAME"));
    const QCommandLineOption best(QStringLiteral("best"));
    const QCommandLineOption json(QStringLiteral("json"));
    const QCommandLineOption decline(QStringLiteral("decline"));
    parser.addOptions({project, version, note, by, best, json, decline});
    if (const std::optional<int> answered = CommandLine::parseOrAnswer(
            parser, {}, args, approveUsage, out, [&](const CommandLine::Problem &problem) {
                err << "error: " << problem.message << '\n' << approveUsage;
                return 2;
            }))
        return *answered;
    if (!parser.positionalArguments().isEmpty()) {
        err << "error: unknown argument '" << parser.positionalArguments().first() << "'\n" << approveUsage;
        return 2;
    }
    if (parser.value(project).isEmpty() || int(parser.isSet(version)) + int(parser.isSet(best)) + int(parser.isSet(decline)) != 1
        || (parser.isSet(version) && parser.value(version).isEmpty())) {
        err << "error: give --project and one of --version V, --best or --decline\n" << approveUsage;
        return 2;
    }
    // --by, else the account's name ($USER, else the system's login name).
    QString who = parser.isSet(by) ? parser.value(by).trimmed() : SteeringInbox::accountName();
    if (who.isEmpty() && parser.isSet(decline) && !parser.isSet(by))
        who = SteeringInbox::loginName(); // a decline writes no approval; "unknown" when nobody is named
    if (who.isEmpty()) {
        err << (parser.isSet(by) ? "error: --by names nobody; give a name\n"
                                 : "error: an approval names who gave it, and neither $USER nor the system names this "
                                   "account; pass --by NAME\n")
            << approveUsage;
        return 2;
    }

    // A loop waiting for approval holds the project: the answer goes through its inbox.
    const QString path = parser.value(project);
    const std::optional<SteeringLive> live = SteeringInbox::readLive(path);
    const std::optional<WriterInfo> holder = ProjectLock::liveWriter(path);
    if (live && live->kind == QLatin1String("approval") && holder && (holder->pid == 0 || holder->pid == live->pid)) {
        SteeringRequest request;
        request.action = parser.isSet(decline) ? QStringLiteral("decline") : QStringLiteral("approve");
        request.version = parser.value(version);
        request.best = parser.isSet(best);
        request.by = who;
        request.why = parser.value(note);
        const Result<SteeringAck> answer = sendSteeringRequest(path, request, QStringLiteral("approval"), 0);
        const std::optional<SteeringAck> &ack = answer.value;
        if (!ack || !ack->applied) {
            err << "error: " << (ack ? QStringLiteral("refused: ") + ack->message : answer.error) << '\n';
            return 1;
        }
        out << ack->message << '\n';
        return 0;
    }
    if (parser.isSet(decline)) {
        err << "error: nothing awaits approval in " << path
            << " (--decline answers a `dreamrsi loop --await-approval` waiting after a dream)\n";
        return 1;
    }

    Result<std::unique_ptr<ProjectWriter>> writer = ProjectWriter::open(parser.value(project));
    if (!writer.ok()) {
        err << "error: " << writer.error << '\n';
        return 1;
    }
    Result<std::unique_ptr<ProjectReader>> reader = ProjectReader::open(parser.value(project));
    if (!reader.ok()) {
        err << "error: " << reader.error << '\n';
        return 1;
    }
    const Result<ProjectSnapshot> snapshot = ProjectSnapshot::load(**reader.value);
    if (!snapshot.ok()) {
        err << "error: " << snapshot.error << '\n';
        return 1;
    }
    const ApprovalInputs inputs = snapshot.value->approvalInputs();
    QString candidate = parser.value(version);
    if (parser.isSet(best)) {
        candidate = ApprovalRules::bestCandidate(inputs);
        if (candidate.isEmpty()) {
            err << "error: no version can be approved: none has a clean, scorable replay over every finished "
                   "iteration\n";
            return 1;
        }
        // The deployed version is worth the most: nothing better to approve.
        for (const ApprovalInputs::Version &v : inputs.versions) {
            if (v.version.name != candidate || inputs.deployed == 0 || v.version.id != inputs.deployed)
                continue;
            const QString value = QString::number(*v.result->value, 'f', 4);
            if (parser.isSet(json)) {
                const QJsonObject o{{QStringLiteral("approval"), QJsonValue::Null},
                                    {QStringLiteral("version_id"), v.version.id},
                                    {QStringLiteral("deployed"), candidate},
                                    {QStringLiteral("value"), *v.result->value}};
                out << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented));
            } else {
                out << "nothing better than the deployed version " << candidate << " (value " << value
                    << "): nothing approved\n";
            }
            return 0;
        }
    }
    const ApprovalComparison c = ApprovalRules::compare(inputs, candidate);
    if (!c.approvable()) {
        err << "error: cannot approve " << candidate << ": " << ApprovalRules::describe(c) << '\n';
        return 1;
    }
    Approval approval = ApprovalRules::approvalOf(c, who, parser.value(note));
    const Result<qint64> id = (*writer.value)->addApproval(approval);
    if (!id.ok()) {
        err << "error: " << id.error << '\n';
        return 1;
    }
    if (parser.isSet(json)) {
        QJsonObject o{{QStringLiteral("approval"), *id.value},
                      {QStringLiteral("version_id"), c.candidateId},
                      {QStringLiteral("who"), approval.who},
                      {QStringLiteral("note"), approval.note},
                      {QStringLiteral("evidence"), c.evidence}};
        out << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented));
    } else {
        out << "approved " << c.candidate << " (version " << c.candidateId << ") for the next online round, by " << who
            << '\n';
        out << "value " << approveNumber(c.candidateValue);
        if (!c.baseline.isEmpty())
            out << " against " << c.baselineRole << ' ' << c.baseline << ' ' << approveNumber(c.baselineValue);
        out << " over " << inputs.worlds.size() << " world" << (inputs.worlds.size() == 1 ? "" : "s") << '\n';
        for (const ApprovalWarning w : c.warnings)
            out << "warning: " << ApprovalRules::describe(c, w) << '\n';
    }
    return 0;
}

} // namespace dreamrsi
