#include "replayprocess.h"

#include "replayjson.h"

#include "model/treejson.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>
#include <QTimer>

#include <algorithm>

#include <sys/resource.h>

namespace dreamrsi {

namespace {
qint64 memoryLimit(const ReplayProcessRequest &request)
{
    return request.limits.memoryBytes > 0 ? request.limits.memoryBytes : ScriptLimits().memoryBytes;
}
} // namespace

ReplayProcess::ReplayProcess(QObject *parent)
    : QObject(parent)
{
}

ReplayProcess::~ReplayProcess()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(2000);
    }
}

QString ReplayProcess::defaultProgram()
{
    const QString configured = qEnvironmentVariable("DREAMRSI_PROGRAM");
    if (!configured.isEmpty())
        return configured;
    const QString beside = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("dreamrsi"));
    if (QFileInfo(beside).isExecutable())
        return beside;
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("dreamrsi"));
    return onPath.isEmpty() ? beside : onPath;
}

int ReplayProcess::threadsWithin(qint64 memoryLimitBytes, int cores)
{
    // Measured (VmPeak of `dreamrsi replay --threads T`, MALLOC_ARENA_MAX=2 as
    // start() sets it): ~235 MiB for the process and ~21 MiB per
    // scripted-policy thread; three times that leaves room for the policy's heap.
    constexpr qint64 base = qint64(256) << 20;
    constexpr qint64 perThread = qint64(64) << 20;
    const qint64 fit = (memoryLimitBytes - base) / perThread;
    return int(std::clamp<qint64>(fit, 1, std::max(1, cores)));
}

bool ReplayProcess::isRunning() const
{
    return m_running;
}

Result<Done> ReplayProcess::start(const ReplayProcessRequest &request)
{
    auto refuse = [](const QString &message) { return Result<Done>::failure(message); };
    if (m_running)
        return refuse(QStringLiteral("a replay is already running"));
    m_dir = std::make_shared<QTemporaryDir>();
    if (!m_dir->isValid())
        return refuse(QStringLiteral("cannot create a temporary folder: %1").arg(m_dir->errorString()));

    QStringList args{QStringLiteral("replay")};
    // In-memory worlds are written off the GUI thread (a large tree takes a
    // while to serialise); the child starts once they are on disk.
    QList<std::pair<std::shared_ptr<const DiscoveryTree>, QString>> toWrite;
    m_worldPaths = request.worldPaths;
    m_worldNames = request.worldPaths;
    for (const QString &path : request.worldPaths)
        args << QStringLiteral("--world") << path;
    for (int i = 0; i < request.worlds.size(); ++i) {
        const ReplayWorld &w = request.worlds.at(i);
        if (!w.tree)
            return refuse(QStringLiteral("world '%1' has no tree").arg(w.name));
        // The child reports worlds by path; keep the name recognisable.
        QString safe = w.name;
        for (QChar &c : safe) {
            if (!c.isLetterOrNumber() && c != QLatin1Char('-') && c != QLatin1Char('_') && c != QLatin1Char('.'))
                c = QLatin1Char('_');
        }
        const QString path = m_dir->filePath(QStringLiteral("%1-%2.json").arg(i).arg(safe.left(60)));
        toWrite.append({w.tree, path});
        args << QStringLiteral("--world") << path;
        m_worldPaths.append(path);
        m_worldNames.append(w.name);
    }
    if (request.worldPaths.isEmpty() && request.worlds.isEmpty())
        return refuse(QStringLiteral("no world to replay"));
    QString policy = request.policyArgument;
    if (policy.isEmpty()) {
        policy = m_dir->filePath(QStringLiteral("policy.js"));
        QFile file(policy);
        if (!file.open(QIODevice::WriteOnly) || file.write(request.policySource.toUtf8()) < 0)
            return refuse(QStringLiteral("cannot write the policy to '%1'").arg(policy));
    }
    QStringList betas;
    for (const double b : request.betas)
        betas.append(QString::number(b, 'g', 17));
    args << QStringLiteral("--policy") << policy << QStringLiteral("--workers") << QString::number(request.workers)
         << QStringLiteral("--lambda") << QString::number(request.lambda, 'g', 17) << QStringLiteral("--betas")
         << betas.join(QLatin1Char(',')) << QStringLiteral("--time-limit-ms")
         << QString::number(request.limits.callMs) << QStringLiteral("--threads")
         << QString::number(request.threads > 0 ? request.threads
                                                : threadsWithin(memoryLimit(request), QThread::idealThreadCount()))
         << QStringLiteral("--json") << QStringLiteral("--progress")
         // The caller chose the worlds, approximate ones included or not
         // (docs/tree-format.md#imported-runs); the child labels them.
         << QStringLiteral("--include-approximate");
    if (request.maxRounds > 0)
        args << QStringLiteral("--rounds") << QString::number(request.maxRounds);
    m_tracePath.clear();
    if (request.trace) {
        m_tracePath = m_dir->filePath(QStringLiteral("trace.jsonl"));
        args << QStringLiteral("--trace") << m_tracePath;
    }

    const QString program = request.program.isEmpty() ? defaultProgram() : request.program;
    if (QFileInfo(program).isAbsolute() && !QFileInfo(program).isExecutable())
        return refuse(QStringLiteral("the replay program '%1' is missing or not executable (build the 'dreamrsi' "
                                     "target, or set DREAMRSI_PROGRAM)")
                          .arg(program));

    m_stdout.clear();
    m_stderrTail.clear();
    m_stderrPartial.clear();
    m_killReason.clear();
    m_memoryLimitBytes = memoryLimit(request);
    m_running = true;
    const quint64 launch = ++m_launch;
    QtConcurrent::run([toWrite = std::move(toWrite), dir = m_dir]() {
        // `dir` keeps the folder alive until the files are written.
        Q_UNUSED(dir);
        for (const auto &[tree, path] : toWrite) {
            const Result<Done> written = TreeJson::writeFile(*tree, path);
            if (!written)
                return written.error;
        }
        return QString();
    }).then(this, [this, launch, program, args, wallMs = request.limits.wallMs](const QString &writeError) {
        if (launch != m_launch)
            return; // cancelled while the worlds were written
        if (!writeError.isEmpty())
            fail(writeError);
        else
            launchChild(program, args, wallMs);
    });
    return Result<Done>::success({});
}

void ReplayProcess::launchChild(const QString &program, const QStringList &args, int wallLimitMs)
{
    m_process = new QProcess(this);
    // glibc reserves 64 MiB of address space for each malloc arena it opens
    // (up to 8 per core), which RLIMIT_AS counts though nothing uses it: cap
    // them so the limit measures what the replay really takes.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!env.contains(QStringLiteral("MALLOC_ARENA_MAX")))
        env.insert(QStringLiteral("MALLOC_ARENA_MAX"), QStringLiteral("2"));
    m_process->setProcessEnvironment(env);
    const rlim_t limit = rlim_t(m_memoryLimitBytes);
    m_process->setChildProcessModifier([limit] {
        // Runs in the child between fork and exec: async-signal-safe calls only.
        struct rlimit rl;
        rl.rlim_cur = limit;
        rl.rlim_max = limit;
        setrlimit(RLIMIT_AS, &rl);
    });
    connect(m_process, &QProcess::readyReadStandardOutput, this,
            [this] { m_stdout += m_process->readAllStandardOutput(); });
    connect(m_process, &QProcess::readyReadStandardError, this, &ReplayProcess::onReadyReadStderr);
    connect(m_process, &QProcess::finished, this, &ReplayProcess::onFinished);
    connect(m_process, &QProcess::started, this, &ReplayProcess::childStarted);
    // Queued: a child that cannot start is reported after this returns.
    connect(
        m_process, &QProcess::errorOccurred, this,
        [this](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart && m_process)
                fail(QStringLiteral("cannot start '%1': %2").arg(m_process->program(), m_process->errorString()));
        },
        Qt::QueuedConnection);
    m_wallTimer = new QTimer(m_process);
    m_wallTimer->setSingleShot(true);
    connect(m_wallTimer, &QTimer::timeout, this, [this, wallLimitMs] {
        m_killReason = QStringLiteral("the replay ran past its wall-clock limit of %1 ms and was stopped").arg(wallLimitMs);
        m_process->kill();
    });
    m_process->start(program, args);
    m_wallTimer->start(wallLimitMs > 0 ? wallLimitMs : 120000);
}

void ReplayProcess::cancel()
{
    if (!m_running)
        return;
    m_killReason = QStringLiteral("cancelled");
    if (m_process) {
        m_process->kill();
    } else {
        ++m_launch; // the worlds are still being written: never start the child
        fail(m_killReason);
    }
}

void ReplayProcess::onReadyReadStderr()
{
    // A read may end inside a line: keep the unfinished tail for the next one
    // (the child's exit flushes it, see onFinished).
    m_stderrPartial += m_process->readAllStandardError();
    const qsizetype end = m_stderrPartial.lastIndexOf('\n');
    if (end < 0)
        return;
    const QList<QByteArray> lines = m_stderrPartial.left(end).split('\n');
    m_stderrPartial.remove(0, end + 1);
    for (const QByteArray &line : lines) {
        if (line.startsWith("progress ")) {
            const QList<QByteArray> parts = line.mid(9).split('/');
            if (parts.size() == 2)
                emit progress(parts.at(0).toInt(), parts.at(1).toInt());
        } else if (!line.isEmpty()) {
            m_stderrTail += line + '\n';
            if (m_stderrTail.size() > 8192)
                m_stderrTail = m_stderrTail.right(8192);
        }
    }
}

void ReplayProcess::fail(const QString &message)
{
    if (!m_running)
        return;
    m_running = false;
    if (m_process) {
        m_process->disconnect(this);
        m_process->deleteLater();
        m_process = nullptr;
    }
    emit failed(message);
}

void ReplayProcess::onFinished(int exitCode, QProcess::ExitStatus status)
{
    m_stdout += m_process->readAllStandardOutput();
    onReadyReadStderr();
    if (!m_stderrPartial.isEmpty()) {
        m_stderrTail += m_stderrPartial + '\n';
        m_stderrPartial.clear();
    }
    if (!m_killReason.isEmpty()) {
        fail(m_killReason);
        return;
    }
    const QString tail = QString::fromUtf8(m_stderrTail).trimmed();
    if (status != QProcess::NormalExit) {
        fail(QStringLiteral("the replay process crashed, most likely out of its %1 MiB memory limit%2")
                 .arg(m_memoryLimitBytes >> 20)
                 .arg(tail.isEmpty() ? QString() : QStringLiteral(": ") + tail));
        return;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(m_stdout, &parseError);
    if (!doc.isObject()) {
        fail(tail.isEmpty() ? QStringLiteral("the replay process exited with status %1 and printed no result").arg(exitCode)
                            : tail);
        return;
    }
    Result<ReplayResult> result = ReplayJson::resultFromJson(doc.object());
    if (!result.ok()) {
        fail(result.error);
        return;
    }
    auto output = std::make_shared<ReplayProcessOutput>();
    output->result = std::move(*result.value);
    if (output->result.worlds.size() == m_worldNames.size()) {
        for (int i = 0; i < m_worldNames.size(); ++i)
            output->result.worlds[i].world = m_worldNames.at(i);
    }
    output->exitCode = exitCode;
    if (!m_tracePath.isEmpty()) {
        QFile file(m_tracePath);
        if (file.open(QIODevice::ReadOnly)) {
            while (!file.atEnd()) {
                const QByteArray line = file.readLine().trimmed();
                if (line.isEmpty())
                    continue;
                // A line that is no trace is skipped.
                const Result<ReplayJson::EpisodeTrace> e =
                    ReplayJson::episodeTraceFromJson(QJsonDocument::fromJson(line).object());
                if (e) {
                    output->traces.append(e.value->episode);
                    const qsizetype at = m_worldPaths.indexOf(e.value->world);
                    output->traceWorlds.append(at >= 0 ? m_worldNames.at(at) : e.value->world);
                }
            }
        }
    }
    m_running = false;
    m_process->disconnect(this);
    m_process->deleteLater();
    m_process = nullptr;
    emit finished(std::shared_ptr<const ReplayProcessOutput>(std::move(output)));
}

} // namespace dreamrsi
