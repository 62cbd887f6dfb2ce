#include "servefixture.h"

#include "clirunsupport.h"

#include "store/projectreader.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <csignal>

#include <sys/prctl.h>

namespace dreamrsi::test {

bool writeFile(const QString &path, const QByteArray &content)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(content) == content.size();
}

bool ServeTokens::writeInto(const QString &dir)
{
    readFile = QDir(dir).filePath(QStringLiteral("read.token"));
    steerFile = QDir(dir).filePath(QStringLiteral("steer.token"));
    return writeFile(readFile, read + '\n') && writeFile(steerFile, steer + '\n');
}

QStringList ServeTokens::readArgs() const
{
    return {QStringLiteral("--token-file"), readFile};
}

QStringList ServeTokens::steeringArgs() const
{
    return readArgs() + QStringList{QStringLiteral("--steering-token-file"), steerFile};
}

namespace {

/// The child dies with the test: a test killed by its time limit (or one
/// that crashes) leaves no server or round behind holding ports, projects
/// or a lock the test run was started under.
void dieWithTheTest(QProcess &process)
{
    process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
}

} // namespace

ProjectMaker::~ProjectMaker()
{
    if (state() != QProcess::NotRunning) {
        kill();
        waitForFinished(10000);
    }
}

QString ProjectMaker::startRound(const QString &project, int rounds, const QStringList &extra)
{
    setProgram(dreamrsiProgram());
    setArguments(QStringList{QStringLiteral("round"), QStringLiteral("--project"), project, QStringLiteral("--task"),
                             QStringLiteral("circle_packing_26"), QStringLiteral("--agent"), QStringLiteral("builtin"),
                             QStringLiteral("--workers"), QStringLiteral("4"), QStringLiteral("--rounds"), QString::number(rounds)}
                 + extra);
    dieWithTheTest(*this);
    start();
    return waitForProject(project);
}

QString ProjectMaker::startApprovalLoop(const QString &project)
{
    setProgram(dreamrsiProgram());
    setArguments({QStringLiteral("loop"), QStringLiteral("--project"), project, QStringLiteral("--task"),
                  QStringLiteral("circle_packing_26"), QStringLiteral("--agent"), QStringLiteral("builtin"),
                  QStringLiteral("--iterations"), QStringLiteral("2"), QStringLiteral("--versions"), QStringLiteral("2"),
                  QStringLiteral("--workers"), QStringLiteral("4"), QStringLiteral("--rounds"), QStringLiteral("2"),
                  QStringLiteral("--await-approval")});
    dieWithTheTest(*this);
    start();
    return waitForProject(project);
}

QString ProjectMaker::waitForProject(const QString &project)
{
    if (!waitForStarted(10000))
        return QStringLiteral("%1 did not start: %2").arg(program(), errorString());
    // The child makes the project; a server opens it once it is there.
    if (!QTest::qWaitFor([&project] { return QFile::exists(project); }, 20000))
        return QStringLiteral("%1 was not made within 20 s").arg(project);
    if (!QTest::qWaitFor([&project] { return ProjectReader::open(project).ok(); }, 20000))
        return QStringLiteral("%1 did not open within 20 s: %2").arg(project, ProjectReader::open(project).error);
    return {};
}

Served &Served::operator=(Served &&other) noexcept
{
    if (this != &other) {
        stop();
        process = std::move(other.process);
        base = std::move(other.base);
        port = other.port;
        banner = std::move(other.banner);
    }
    return *this;
}

Served::~Served()
{
    stop();
}

void Served::stop()
{
    if (process && process->state() != QProcess::NotRunning) {
        process->terminate();
        if (!process->waitForFinished(10000)) {
            process->kill();
            process->waitForFinished(5000);
        }
    }
}

Served serve(const QString &project, const QStringList &extra, quint16 port)
{
    Served s;
    s.process = std::make_unique<QProcess>();
    s.process->setProgram(dreamrsiProgram());
    s.process->setArguments(QStringList{QStringLiteral("serve"), project, QStringLiteral("--listen"),
                                        QStringLiteral("127.0.0.1:%1").arg(port), QStringLiteral("--poll-ms"), QStringLiteral("100")}
                            + extra);
    dieWithTheTest(*s.process);
    s.process->start();
    if (!s.process->waitForStarted(10000))
        return s;
    static const QRegularExpression url(QStringLiteral("at (https?://127\\.0\\.0\\.1:(\\d+)/)"));
    // Over TLS the banner ends at the steering line (no ssh -L hint).
    const QByteArray last = extra.contains(QStringLiteral("--tls-cert")) ? QByteArray("steering: ") : QByteArray("then connect to");
    QDeadlineTimer deadline(20000);
    while (!deadline.hasExpired() && s.process->state() == QProcess::Running) {
        s.process->waitForReadyRead(200);
        s.banner += s.process->readAllStandardOutput();
        if (const qsizetype at = s.banner.indexOf(last); at >= 0 && s.banner.indexOf('\n', at) > at) {
            const QRegularExpressionMatch m = url.match(QString::fromUtf8(s.banner));
            s.base = QUrl(m.captured(1));
            s.port = quint16(m.captured(2).toUInt());
            break;
        }
    }
    return s;
}

} // namespace dreamrsi::test
