// `dreamrsi steer`: steer a live round that another process runs, through
// the inbox beside the project (the one-writer rule: this process never
// opens the project for writing).
#include "steercommand.h"

#include <QCommandLineParser>
#include <QDeadlineTimer>
#include <QFileInfo>
#include <QRegularExpression>
#include <QThread>

namespace dreamrsi {

namespace {

const char *const steerUsage =
    "usage: dreamrsi steer --project P.dreamrsi [--by NAME] [--why TEXT] [--timeout S]\n"
    "                      close B | refine B | hint B|new TEXT | pause | continue | kill ATTEMPT\n"
    "\n"
    "Steers the live round another process runs in the project (started with\n"
    "`dreamrsi round --accept-steering`, `dreamrsi loop --accept-steering`, or from the\n"
    "workbench). The request goes to the inbox beside the project; the round applies\n"
    "it between batches (kill at once), records it in the project and answers.\n"
    "\n"
    "  close B        branch B is never refined again\n"
    "  refine B       branch B's next attempt goes first in the next batch\n"
    "  hint B TEXT    TEXT goes to the agent with branch B's next attempt\n"
    "  hint new TEXT  TEXT goes to the agent with the next new branch\n"
    "  pause          no new batch starts after the current one\n"
    "  continue       a paused round goes on\n"
    "  kill ATTEMPT   end the running attempt ATTEMPT (b2a3) now: it is stored as an env\n"
    "                 failure with the reason and the round goes on (see dreamrsi status)\n"
    "\n"
    "  B              a branch number (3) or id (b3)\n"
    "  --by NAME      who asks (default: $USER, else the account's login name)\n"
    "  --why TEXT     why, recorded with the intervention\n"
    "  --timeout S    give up (and take the request back) after S seconds without an\n"
    "                 answer (default: wait while the round runs)\n"
    "\n"
    "Exit 0 once the request was applied, 1 when it was refused (the reason on stderr)\n"
    "or no round accepting steering runs in the project, 2 bad usage.\n";

int steerUsageError(QTextStream &err, const QString &message)
{
    err << "dreamrsi steer: " << message << "\n\n" << steerUsage;
    return 2;
}

} // namespace

Result<SteeringAck> sendSteeringRequest(const QString &projectPath, SteeringRequest request, const QString &kind,
                                        double timeoutS)
{
    using Answer = Result<SteeringAck>;
    if (const QString why = SteeringInbox::whyNotAccepting(projectPath, kind); !why.isEmpty())
        return Answer::failure(why);
    if (const Result<Done> submitted = SteeringInbox::submit(projectPath, &request); !submitted.ok())
        return submitted.failureAs<SteeringAck>();
    QDeadlineTimer deadline = timeoutS > 0 ? QDeadlineTimer(qint64(timeoutS * 1000.0)) : QDeadlineTimer(QDeadlineTimer::Forever);
    int sleeps = 0;
    for (;;) {
        if (std::optional<SteeringAck> ack = SteeringInbox::takeAck(projectPath, request.id))
            return Answer::success(std::move(*ack));
        // Every second: is anybody still there to answer?
        const bool gone = (++sleeps % 20 == 0) && !SteeringInbox::whyNotAccepting(projectPath, kind).isEmpty();
        if (gone || deadline.hasExpired()) {
            if (SteeringInbox::withdraw(projectPath, request.id))
                return Answer::failure(gone ? QStringLiteral("the round ended before answering; the request was taken back")
                                            : QStringLiteral("no answer within %1 s; the request was taken back").arg(timeoutS));
            // Taken already: the answer is being written.
            deadline = QDeadlineTimer(5000);
            if (gone && sleeps > 200)
                return Answer::failure(QStringLiteral("the round ended before answering"));
        }
        QThread::msleep(50);
    }
}

Result<SteeringRequest> parseSteeringWords(const QStringList &words)
{
    using R = Result<SteeringRequest>;
    if (words.isEmpty())
        return R::failure(QStringLiteral("what to do is missing: close B, refine B, hint B|new TEXT, pause, continue "
                                         "or kill ATTEMPT"));
    SteeringRequest request;
    request.action = words.first();
    if (request.action == QLatin1String("close") || request.action == QLatin1String("refine")) {
        if (words.size() != 2)
            return R::failure(QStringLiteral("%1 takes one branch (a number or b<number>)").arg(request.action));
        request.branch = SteeringInbox::parseBranch(words.at(1));
        if (!request.branch)
            return R::failure(QStringLiteral("'%1' is not a branch (a number like 3 or an id like b3)").arg(words.at(1)));
    } else if (request.action == QLatin1String("hint")) {
        if (words.size() < 3)
            return R::failure(QStringLiteral("hint takes a branch (or new) and a text"));
        if (words.at(1) == QLatin1String("new")) {
            request.newBranch = true;
        } else {
            request.branch = SteeringInbox::parseBranch(words.at(1));
            if (!request.branch)
                return R::failure(QStringLiteral("'%1' is not a branch (a number like 3, an id like b3, or new)").arg(words.at(1)));
        }
        request.text = words.mid(2).join(QLatin1Char(' ')).trimmed();
        if (request.text.isEmpty())
            return R::failure(QStringLiteral("the hint's text is empty"));
    } else if (request.action == QLatin1String("pause") || request.action == QLatin1String("continue")) {
        if (words.size() != 1)
            return R::failure(QStringLiteral("%1 takes no argument (got '%2')").arg(request.action, words.at(1)));
    } else if (request.action == QLatin1String("kill")) {
        static const QRegularExpression cellId(QStringLiteral("^b\\d+a\\d+$"));
        if (words.size() != 2 || !cellId.match(words.at(1)).hasMatch())
            return R::failure(QStringLiteral("kill takes one attempt's id, like b2a3 (see dreamrsi status)"));
        request.attempt = words.at(1);
    } else {
        return R::failure(QStringLiteral("unknown action '%1' (close, refine, hint, pause, continue, kill)").arg(request.action));
    }
    return R::success(request);
}

int runSteerCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    // Its own parse, not CommandLine::parseOrAnswer: after the action every
    // word is the action's (a hint may begin with '-', a branch may be
    // written -1 and must be refused as one), never an option.
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("usage"));
    const QCommandLineOption project(QStringLiteral("project"), {}, QStringLiteral("P"));
    const QCommandLineOption by(QStringLiteral("by"), {}, QStringLiteral("NAME"));
    const QCommandLineOption why(QStringLiteral("why"), {}, QStringLiteral("TEXT"));
    const QCommandLineOption timeout(QStringLiteral("timeout"), {}, QStringLiteral("S"));
    parser.addOptions({help, project, by, why, timeout});
    if (!parser.parse(QStringList{QStringLiteral("dreamrsi steer")} + args))
        return steerUsageError(err, parser.errorText());
    if (parser.isSet(help)) {
        out << steerUsage;
        return 0;
    }
    for (const QString &name : {QStringLiteral("project"), QStringLiteral("by"), QStringLiteral("why"), QStringLiteral("timeout")}) {
        if (parser.values(name).size() > 1)
            return steerUsageError(err, QStringLiteral("--%1 given more than once").arg(name));
    }
    if (!parser.isSet(project) || parser.value(project).isEmpty())
        return steerUsageError(err, QStringLiteral("--project is required"));
    double timeoutS = 0;
    if (parser.isSet(timeout)) {
        bool ok = false;
        timeoutS = parser.value(timeout).toDouble(&ok);
        if (!ok || !(timeoutS > 0))
            return steerUsageError(err, QStringLiteral("--timeout must be a number of seconds > 0, not '%1'").arg(parser.value(timeout)));
    }
    const QStringList words = parser.positionalArguments();
    Result<SteeringRequest> parsed = parseSteeringWords(words);
    if (!parsed)
        return steerUsageError(err, parsed.error);
    SteeringRequest request = std::move(*parsed.value);
    request.by = parser.isSet(by) ? parser.value(by).trimmed() : SteeringInbox::loginName();
    request.why = parser.value(why).trimmed();
    if (parser.isSet(by) && request.by.isEmpty())
        return steerUsageError(err, QStringLiteral("--by needs a name"));
    const QString path = parser.value(project);
    if (!QFileInfo::exists(path)) {
        err << "dreamrsi steer: no project " << path << '\n';
        return 1;
    }
    const Result<SteeringAck> answer = sendSteeringRequest(path, request, QStringLiteral("round"), timeoutS);
    if (!answer) {
        err << "dreamrsi steer: " << answer.error << '\n';
        return 1;
    }
    const std::optional<SteeringAck> &ack = answer.value;
    if (!ack->applied) {
        err << "dreamrsi steer: refused: " << ack->message << '\n';
        return 1;
    }
    out << "applied: " << ack->message << '\n';
    return 0;
}

} // namespace dreamrsi
