#include "slurmevaluationbackend.h"

#include "model/cell.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QThread>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <map>
#include <mutex>

namespace dreamrsi {

namespace {

struct Command
{
    bool started = false;
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QString text() const { return QString::fromLocal8Bit(err + out).trimmed(); }
};

/// Slurm's job states after which nothing more happens to the job.
bool isTerminal(const QString &state)
{
    static const QStringList terminal = {
        QStringLiteral("COMPLETED"),     QStringLiteral("FAILED"),    QStringLiteral("CANCELLED"),
        QStringLiteral("TIMEOUT"),       QStringLiteral("DEADLINE"),  QStringLiteral("OUT_OF_MEMORY"),
        QStringLiteral("NODE_FAIL"),     QStringLiteral("BOOT_FAIL"), QStringLiteral("PREEMPTED"),
        QStringLiteral("SPECIAL_EXIT"),  QStringLiteral("REVOKED")};
    return terminal.contains(state);
}

/// squeue's reason for a job that waits for nothing.
bool quietReason(const QString &reason)
{
    return reason.isEmpty() || reason == QLatin1String("None");
}

qint64 readEpochMs(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    bool ok = false;
    const qint64 ns = file.readAll().trimmed().toLongLong(&ok);
    return ok ? ns / 1'000'000 : 0;
}

QString shellQuote(const QString &text)
{
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString tail(const QString &path, int chars)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QString text = QString::fromUtf8(file.readAll()).trimmed();
    return text.size() > chars ? QStringLiteral("…") + text.right(chars) : text;
}

/// An error of a Slurm command that says the controller could not be
/// reached or was busy (it comes back), not that the request was wrong.
bool isTransient(const QString &text)
{
    static const char *const needles[] = {"Unable to contact slurm controller", "Socket timed out", "Connection refused",
                                          "temporarily unable", "Zero Bytes were transmitted", "Connection timed out",
                                          "Resource temporarily unavailable", "timed out", "Communication connection failure",
                                          "Slurm backup controller in standby mode", "slurmctld is not responding"};
    for (const char *n : needles) {
        if (text.contains(QLatin1String(n), Qt::CaseInsensitive))
            return true;
    }
    return false;
}

/// What slurmstepd writes into a job's output when it kills the job for
/// its memory (cgroup OOM or the accounting plugin's OverMemoryKill).
bool killedForMemory(const QString &output)
{
    static const char *const needles[] = {"Exceeded job memory limit", "Exceeded step memory limit", "exceeded memory limit",
                                          "oom-kill", "out-of-memory handler", "OOM Killed"};
    for (const char *n : needles) {
        if (output.contains(QLatin1String(n), Qt::CaseInsensitive))
            return true;
    }
    return false;
}

/// Slurm's time limit text ("infinite", "MM", "MM:SS", "HH:MM:SS",
/// "D-HH", "D-HH:MM", "D-HH:MM:SS") in minutes; -1 when unlimited or unreadable.
int limitMinutes(const QString &text)
{
    if (text.isEmpty() || text == QLatin1String("infinite") || text == QLatin1String("UNLIMITED"))
        return -1;
    int days = 0;
    QString rest = text;
    if (text.contains(QLatin1Char('-'))) {
        days = text.section(QLatin1Char('-'), 0, 0).toInt();
        rest = text.section(QLatin1Char('-'), 1);
    }
    const QStringList f = rest.split(QLatin1Char(':'));
    bool ok = true;
    QList<int> n;
    for (const QString &x : f) {
        bool good = false;
        n << x.toInt(&good);
        ok = ok && good;
    }
    if (!ok || n.isEmpty() || n.size() > 3)
        return -1;
    int minutes = 0;
    if (text.contains(QLatin1Char('-')))
        minutes = n.value(0) * 60 + n.value(1) + (n.value(2) > 0 ? 1 : 0);
    else if (n.size() == 3)
        minutes = n.at(0) * 60 + n.at(1) + (n.at(2) > 0 ? 1 : 0);
    else
        minutes = n.at(0) + (n.size() == 2 && n.at(1) > 0 ? 1 : 0);
    return days * 24 * 60 + minutes;
}

/// Waits `ms` unless `cancel` turns true first (checked every 50 ms). False when cancelled.
bool pause(int ms, const std::atomic_bool &cancel)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < ms) {
        if (cancel.load())
            return false;
        QThread::msleep(50);
    }
    return !cancel.load();
}

} // namespace

/// What the poller knows about one job.
struct TrackedJob
{
    QString state = QStringLiteral("SUBMITTED");
    QString reason;
    QString memory;
    int missingPolls = 0;
    bool gone = false;
};

/// One submission of an evaluation as runOnce() takes it through its
/// phases: its folder and job, then its id and what was reported of it.
struct Submission
{
    QString dir;                                 ///< the job's folder under the shared directory
    SlurmEvaluationBackend::JobSpec spec;
    QString label;                               ///< the attempt's name in the log
    qint64 submittedMs = 0;
    QString id;                                  ///< Slurm's job id, once submitted
    EvaluationProgress report;                   ///< what the progress sink was told last
};

/// Writes `spec`'s job.sh into `dir`. False when it cannot.
static bool writeJobScript(const QString &dir, const SlurmEvaluationBackend::JobSpec &spec)
{
    QSaveFile file(dir + QStringLiteral("/job.sh"));
    return file.open(QIODevice::WriteOnly) && file.write(spec.script.toUtf8()) >= 0 && file.commit();
}

class SlurmEvaluationBackend::Private
{
public:
    explicit Private(SlurmSettings s)
        : settings(std::move(s))
    {
    }

    QString tool(const QString &name) const
    {
        return settings.binDir.isEmpty() ? name : settings.binDir + QLatin1Char('/') + name;
    }

    Command runTool(const QString &name, const QStringList &args, int timeoutMs = 30'000) const
    {
        Command c;
        QProcess process;
        process.start(tool(name), args);
        if (!process.waitForStarted(timeoutMs)) {
            c.err = process.errorString().toLocal8Bit();
            return c;
        }
        c.started = true;
        if (!process.waitForFinished(timeoutMs)) {
            process.kill();
            process.waitForFinished(1000);
            c.err = QByteArrayLiteral("timed out");
            return c;
        }
        c.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        c.out = process.readAllStandardOutput();
        c.err = process.readAllStandardError();
        return c;
    }

    void log(const QString &line)
    {
        LogSink sink;
        {
            std::lock_guard lock(mutex);
            sink = logSink;
        }
        if (sink)
            sink(line);
    }

    QString sharedDir() const
    {
        return settings.sharedDir.isEmpty() ? QDir::homePath() + QStringLiteral("/.cache/dreamrsi/slurm")
                                            : QFileInfo(settings.sharedDir).absoluteFilePath();
    }

    QString program() const
    {
        if (!settings.program.isEmpty())
            return QFileInfo(settings.program).absoluteFilePath();
        return QCoreApplication::applicationDirPath() + QStringLiteral("/dreamrsi");
    }

    /// Registers a job with the poller (started on first use) and wakes it.
    void track(const QString &id)
    {
        {
            std::lock_guard lock(mutex);
            jobs[id] = TrackedJob();
            pollChanged = true;
            if (!poller) {
                poller.reset(QThread::create([this] { pollLoop(); }));
                poller->start();
            }
        }
        wake.notify_all();
    }

    /// The one poller: a single squeue call for every job, then backoff.
    void pollLoop()
    {
        int intervalMs = settings.pollInitialMs;
        std::unique_lock lock(mutex);
        while (!quit) {
            if (jobs.empty()) {
                wake.wait(lock, [this] { return quit || !jobs.empty(); });
                intervalMs = settings.pollInitialMs;
                continue;
            }
            QStringList ids;
            for (const auto &[id, job] : jobs)
                ids << id;
            lock.unlock();
            const qint64 askedMs = QDateTime::currentMSecsSinceEpoch();
            const Command c = runTool(QStringLiteral("squeue"),
                                      {QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("all"),
                                       QStringLiteral("-o"), QStringLiteral("%i|%T|%r|%m"), QStringLiteral("-j"),
                                       ids.join(QLatin1Char(','))});
            ++pollCount;
            lock.lock();
            bool changed = pollChanged;
            pollChanged = false;
            // squeue names a single unknown id "Invalid job id" (exit 1); several unknown ids are just absent.
            const bool invalidIds = c.started && c.exitCode != 0 && c.text().contains(QLatin1String("Invalid job id"));
            const bool answered = c.started && (c.exitCode == 0 || invalidIds);
            if (answered && controllerDownSinceMs != 0) {
                // Back: from here on a job it does not list is really gone.
                const qint64 downS = (QDateTime::currentMSecsSinceEpoch() - controllerDownSinceMs) / 1000;
                controllerDownSinceMs = 0;
                changed = true;
                lock.unlock();
                log(QStringLiteral("slurm: the controller answers again (after about %1 s)").arg(downS));
                lock.lock();
            }
            if (answered) {
                std::map<QString, QStringList> seen;
                for (const QByteArray &line : c.out.split('\n')) {
                    const QStringList f = QString::fromLocal8Bit(line).trimmed().split(QLatin1Char('|'));
                    if (f.size() >= 3)
                        seen[f.at(0)] = f;
                }
                for (auto &[id, job] : jobs) {
                    const auto it = seen.find(id);
                    if (it == seen.end()) {
                        // Purged from the controller (MinJobAge) or lost: two answers in a row without it.
                        if (++job.missingPolls >= 2 && !job.gone) {
                            job.gone = true;
                            changed = true;
                        }
                        continue;
                    }
                    job.missingPolls = 0;
                    const QStringList &f = it->second;
                    if (f.at(1) != job.state || f.at(2) != job.reason) {
                        job.state = f.at(1);
                        job.reason = f.at(2);
                        changed = true;
                    }
                    if (f.size() >= 4)
                        job.memory = f.at(3);
                }
            } else if (controllerDownSinceMs == 0) {
                // Not an answer: the controller is restarting or unreachable. Jobs keep their state.
                controllerDownSinceMs = askedMs; // a call that fails may take many seconds to say so
                const QString why = c.text();
                lock.unlock();
                log(QStringLiteral("slurm: squeue does not answer (%1); waiting for the controller").arg(why));
                lock.lock();
                changed = true;
            }
            if (changed) {
                intervalMs = settings.pollInitialMs;
                stateChanged.notify_all();
            } else {
                intervalMs = std::min(intervalMs * 2, settings.pollMaxMs);
            }
            wake.wait_for(lock, std::chrono::milliseconds(intervalMs), [this] { return quit || pollChanged; });
        }
    }

    /// One submission of `request`: writeJob, submitJob, followJob, then
    /// collectResult (or the cancellation, or a controller gone too long).
    EvaluationResult runOnce(const EvaluationRequest &request, const std::atomic_bool &cancel, int submit, QJsonObject *info,
                             const ProgressSink &progress);

    /// The job's folder `job->dir` gets the candidate and job.sh; sets
    /// `job->spec`. The failure, or nothing.
    std::optional<EvaluationResult> writeJob(const EvaluationRequest &request, Submission *job);

    /// sbatch, with a controller that cannot be reached waited for and asked
    /// again (adopting the job a failed-looking sbatch did submit); sets
    /// `job->id`. The failure (refused for good, out of patience,
    /// cancelled), or nothing.
    std::optional<EvaluationResult> submitJob(const std::atomic_bool &cancel, Submission *job);

    /// The id of a job of this folder the controller knows (a submission
    /// that looked failed but reached it), or empty.
    QString submittedAfterAll(const QString &dir);

    /// Waits for the poller to see the job end, reporting every change;
    /// the job as last seen. `outOfPatience`: the controller has not
    /// answered for longer than controllerPatienceS.
    TrackedJob followJob(const std::atomic_bool &cancel, const ProgressSink &progress, Submission *job,
                         bool *outOfPatience);

    /// The ended job's timing and verdict, or the evaluator's result.
    EvaluationResult collectResult(const TrackedJob &end, Submission *job, QJsonObject *info, const ProgressSink &progress);

    /// Which of the job's requests no node of its partition meets (memory,
    /// CPUs, GPUs, time), from sinfo; empty when none stands out.
    QString whyNoNodeFits(const JobSpec &spec) const
    {
        QStringList args = {QStringLiteral("-h"), QStringLiteral("-N"), QStringLiteral("-o"), QStringLiteral("%N|%m|%c|%G|%l")};
        if (!settings.partition.isEmpty())
            args << QStringLiteral("-p") << settings.partition;
        const Command c = runTool(QStringLiteral("sinfo"), args);
        if (!c.started || c.exitCode != 0)
            return {};
        qint64 maxMemory = 0;
        int maxCpus = 0;
        bool anyGpu = false;
        int maxMinutes = 0;
        bool unlimited = false;
        int nodes = 0;
        for (const QByteArray &line : c.out.split('\n')) {
            const QStringList f = QString::fromLocal8Bit(line).trimmed().split(QLatin1Char('|'));
            if (f.size() < 5)
                continue;
            ++nodes;
            maxMemory = std::max(maxMemory, f.at(1).toLongLong());
            maxCpus = std::max(maxCpus, f.at(2).toInt());
            anyGpu = anyGpu || f.at(3).contains(QLatin1String("gpu"));
            const int m = limitMinutes(f.at(4));
            unlimited = unlimited || m < 0;
            maxMinutes = std::max(maxMinutes, m);
        }
        if (nodes == 0)
            return {};
        const QString where = settings.partition.isEmpty() ? QStringLiteral("the cluster")
                                                           : QStringLiteral("partition %1").arg(settings.partition);
        QStringList why;
        if (spec.memoryMb > maxMemory)
            why << QStringLiteral("no node of %1 has %2 MB of memory (the largest has %3 MB)").arg(where).arg(spec.memoryMb).arg(maxMemory);
        if (spec.cpus > maxCpus)
            why << QStringLiteral("no node of %1 has %2 CPUs (the largest has %3)").arg(where).arg(spec.cpus).arg(maxCpus);
        if (spec.gpus > 0 && !anyGpu)
            why << QStringLiteral("no node of %1 has a GPU").arg(where);
        if (!unlimited && spec.minutes > maxMinutes)
            why << QStringLiteral("%1 allows at most %2 min, the job asks %3").arg(where).arg(maxMinutes).arg(spec.minutes);
        return why.join(QStringLiteral("; "));
    }

    SlurmSettings settings;
    std::mutex mutex;
    std::condition_variable wake;         ///< to the poller: a new job, or quit
    std::condition_variable stateChanged; ///< from the poller: some job changed
    std::map<QString, TrackedJob> jobs;
    std::unique_ptr<QThread> poller;
    bool pollChanged = false;
    bool quit = false;
    qint64 controllerDownSinceMs = 0;     ///< when squeue stopped answering; 0 while it answers
    std::atomic<qint64> pollCount{0};
    LogSink logSink;
};

EvaluationResult SlurmEvaluationBackend::Private::runOnce(const EvaluationRequest &request, const std::atomic_bool &cancel,
                                                          int submit, QJsonObject *info, const ProgressSink &progress)
{
    const QString root = sharedDir();
    if (!QDir().mkpath(root))
        return EvaluationResult::failure(FailClass::Env, QStringLiteral("cannot create the shared directory '%1'").arg(root));
    QTemporaryDir jobDir(root + QStringLiteral("/job-XXXXXX"));
    if (!jobDir.isValid())
        return EvaluationResult::failure(FailClass::Env,
                                         QStringLiteral("cannot create a job folder under '%1': %2").arg(root, jobDir.errorString()));
    jobDir.setAutoRemove(!request.keepWorkDir);
    QFile::setPermissions(jobDir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                             | QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther
                                             | QFileDevice::ExeOther);
    Submission job;
    job.dir = jobDir.path();
    if (std::optional<EvaluationResult> failed = writeJob(request, &job))
        return *failed;

    job.label = request.candidatePath.isEmpty() ? QStringLiteral("evaluation") : QFileInfo(request.candidatePath).dir().dirName();
    job.submittedMs = QDateTime::currentMSecsSinceEpoch();
    if (std::optional<EvaluationResult> failed = submitJob(cancel, &job))
        return *failed;
    info->insert(QStringLiteral("job_id"), job.id);
    info->insert(QStringLiteral("submits"), submit);
    log(QStringLiteral("slurm job %1 submitted (%2)").arg(job.id, job.label));
    track(job.id);

    job.report.backend = QStringLiteral("slurm");
    job.report.jobId = job.id;
    job.report.state = QStringLiteral("SUBMITTED");
    job.report.submittedMs = job.submittedMs;
    job.report.submits = submit;
    if (progress)
        progress(job.report);

    bool outOfPatience = false;
    const TrackedJob end = followJob(cancel, progress, &job, &outOfPatience);
    info->insert(QStringLiteral("state"), end.gone ? QStringLiteral("GONE") : end.state);
    info->insert(QStringLiteral("reason"), end.reason);
    if (!end.memory.isEmpty())
        info->insert(QStringLiteral("memory"), end.memory);
    if (cancel.load()) {
        const Command c = runTool(QStringLiteral("scancel"), {job.id});
        log(QStringLiteral("slurm job %1 (%2) cancelled%3")
                .arg(job.id, job.label, c.exitCode == 0 ? QString() : QStringLiteral(": ") + c.text()));
        info->insert(QStringLiteral("state"), QStringLiteral("CANCELLED"));
        return EvaluationResult::failure(FailClass::Env, QStringLiteral("cancelled"));
    }
    if (outOfPatience) {
        runTool(QStringLiteral("scancel"), {job.id}); // in case it answers after all
        return EvaluationResult::failure(FailClass::Env, QStringLiteral("the Slurm controller has not answered for %1 s; job %2 given up")
                                                             .arg(settings.controllerPatienceS)
                                                             .arg(job.id));
    }
    return collectResult(end, &job, info, progress);
}

std::optional<EvaluationResult> SlurmEvaluationBackend::Private::writeJob(const EvaluationRequest &request, Submission *job)
{
    const QString &dir = job->dir;
    // The candidate travels in the job's folder.
    if (!request.candidatePath.isEmpty()) {
        const QString local = dir + QStringLiteral("/candidate/") + QFileInfo(request.candidatePath).fileName();
        QDir().mkpath(QFileInfo(local).absolutePath());
        if (!QFile::copy(request.candidatePath, local))
            return EvaluationResult::failure(FailClass::Agent,
                                             QStringLiteral("cannot copy the candidate '%1' to the shared directory '%2'")
                                                 .arg(request.candidatePath, dir));
    }
    job->spec = jobSpec(request, settings, dir, program(), taskOptionDefaults(request.task));
    if (!writeJobScript(dir, job->spec))
        return EvaluationResult::failure(FailClass::Env, QStringLiteral("cannot write the job script in '%1'").arg(dir));
    return std::nullopt;
}

std::optional<EvaluationResult> SlurmEvaluationBackend::Private::submitJob(const std::atomic_bool &cancel, Submission *job)
{
    const QStringList args = QStringList{QStringLiteral("--parsable")} + job->spec.sbatchArgs;
    QElapsedTimer patience;
    patience.start();
    int waitMs = settings.pollInitialMs;
    bool reported = false;
    for (;;) {
        const Command sbatch = runTool(QStringLiteral("sbatch"), args);
        const QString answer = QString::fromLocal8Bit(sbatch.out).trimmed().section(QLatin1Char(';'), 0, 0);
        bool numeric = false;
        answer.toLongLong(&numeric);
        if (sbatch.started && sbatch.exitCode == 0 && numeric) {
            job->id = answer;
            return std::nullopt;
        }
        const QString why = sbatch.text();
        if (!sbatch.started || !isTransient(why)) {
            // Every job of the round asks the same: none would be accepted.
            EvaluationResult refused = EvaluationResult::failure(
                FailClass::Env, QStringLiteral("sbatch refused the evaluation job (%1): %2").arg(job->spec.requestText(), why));
            refused.metrics.insert(QStringLiteral("refused"), true);
            return refused;
        }
        if (patience.elapsed() > qint64(settings.controllerPatienceS) * 1000)
            return EvaluationResult::failure(FailClass::Env, QStringLiteral("sbatch refused the evaluation job: %1").arg(why));
        if (!reported) {
            log(QStringLiteral("slurm: sbatch cannot reach the controller for %1 (%2); trying again").arg(job->label, why));
            reported = true;
        }
        if (!pause(waitMs, cancel))
            return EvaluationResult::failure(FailClass::Env, QStringLiteral("cancelled"));
        waitMs = std::min(waitMs * 2, settings.pollMaxMs);
        // A submission that looked failed (a timeout) may still have reached
        // the controller: adopt that job instead of running the candidate twice.
        job->id = submittedAfterAll(job->dir);
        if (!job->id.isEmpty()) {
            log(QStringLiteral("slurm job %1 (%2) was submitted after all; following it").arg(job->id, job->label));
            return std::nullopt;
        }
    }
}

QString SlurmEvaluationBackend::Private::submittedAfterAll(const QString &dir)
{
    const Command known = runTool(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("all"),
                                                            QStringLiteral("-n"), QStringLiteral("dreamrsi-eval"),
                                                            QStringLiteral("-o"), QStringLiteral("%i|%Z")});
    QString id;
    if (known.started && known.exitCode == 0) {
        for (const QByteArray &line : known.out.split('\n')) {
            const QStringList f = QString::fromLocal8Bit(line).trimmed().split(QLatin1Char('|'));
            if (f.size() == 2 && QDir::cleanPath(f.at(1)) == QDir::cleanPath(dir))
                id = f.at(0);
        }
    }
    return id;
}

TrackedJob SlurmEvaluationBackend::Private::followJob(const std::atomic_bool &cancel, const ProgressSink &progress,
                                                      Submission *submission, bool *outOfPatience)
{
    // Every change is reported. The job script writes its start marker
    // before anything else, so a job that starts (or starts and ends)
    // between two polls is reported as running at once, before the next
    // poll, instead of seeming to skip its run.
    const QString &id = submission->id;
    const QString &label = submission->label;
    EvaluationProgress &report = submission->report;
    TrackedJob job;
    bool requeued = false;
    const QString startMarker = submission->dir + QStringLiteral("/started");
    const auto waiting = [](const QString &state) {
        return state == QLatin1String("PENDING") || state == QLatin1String("SUBMITTED") || state == QLatin1String("REQUEUED");
    };
    std::unique_lock lock(mutex);
    const auto announce = [&](const QString &state, const QString &reason, qint64 startedMs) {
        report.state = state;
        report.reason = reason;
        if (report.startedMs == 0 && startedMs != 0)
            report.startedMs = startedMs;
        lock.unlock();
        log(QStringLiteral("slurm job %1 (%2): %3%4").arg(id, label, state, quietReason(reason) ? QString() : QStringLiteral(" (%1)").arg(reason)));
        if (progress)
            progress(report);
        lock.lock();
    };
    while (true) {
        job = jobs[id];
        requeued = requeued || job.state == QLatin1String("REQUEUED");
        const bool started = report.startedMs != 0;
        if (!started && !requeued && (waiting(job.state) || isTerminal(job.state)) && QFileInfo::exists(startMarker)) {
            const qint64 markerMs = readEpochMs(startMarker);
            announce(QStringLiteral("RUNNING"), QString(), markerMs > 0 ? markerMs : QDateTime::currentMSecsSinceEpoch());
            continue;
        }
        // A poll from before the start marker appeared is not news.
        const bool stale = started && !requeued && waiting(job.state);
        // squeue gives a running job the reason "None"; the marker gives none.
        const bool sameReason = job.reason == report.reason || (quietReason(job.reason) && quietReason(report.reason));
        if (!stale && (job.state != report.state || !sameReason)) {
            const qint64 markerMs = waiting(job.state) ? 0 : readEpochMs(startMarker);
            announce(job.state, job.reason, waiting(job.state) ? 0 : markerMs > 0 ? markerMs : QDateTime::currentMSecsSinceEpoch());
            continue;
        }
        if (cancel.load() || job.gone || isTerminal(job.state))
            break;
        if (controllerDownSinceMs != 0
            && QDateTime::currentMSecsSinceEpoch() - controllerDownSinceMs > qint64(settings.controllerPatienceS) * 1000) {
            *outOfPatience = true;
            break;
        }
        stateChanged.wait_for(lock, std::chrono::milliseconds(100));
    }
    jobs.erase(id);
    return job;
}

EvaluationResult SlurmEvaluationBackend::Private::collectResult(const TrackedJob &job, Submission *submission,
                                                                QJsonObject *info, const ProgressSink &progress)
{
    const QString &dir = submission->dir;
    EvaluationProgress &report = submission->report;
    // Timing: submit → start (queue wait), start → end (run), end → here (result lag).
    const qint64 observedMs = QDateTime::currentMSecsSinceEpoch();
    const qint64 startedMs = readEpochMs(dir + QStringLiteral("/started"));
    const qint64 endedMs = readEpochMs(dir + QStringLiteral("/ended"));
    if (startedMs > 0) {
        report.queueWaitS = double(startedMs - submission->submittedMs) / 1000.0;
        report.startedMs = startedMs;
        info->insert(QStringLiteral("queue_wait_s"), *report.queueWaitS);
    }
    if (startedMs > 0 && endedMs > 0) {
        report.runS = double(endedMs - startedMs) / 1000.0;
        info->insert(QStringLiteral("run_s"), *report.runS);
    }
    if (endedMs > 0)
        info->insert(QStringLiteral("result_lag_s"), double(observedMs - endedMs) / 1000.0);
    report.state = job.gone ? QStringLiteral("GONE") : job.state;
    report.finished = true;
    if (progress)
        progress(report);

    QFile resultFile(dir + QStringLiteral("/result.json"));
    JobEnd end;
    end.jobId = submission->id;
    end.state = job.state;
    end.reason = job.reason;
    end.memory = job.memory.isEmpty() ? QStringLiteral("%1M").arg(submission->spec.memoryMb) : job.memory;
    end.output = tail(dir + QStringLiteral("/slurm.out"), 1000);
    end.minutes = submission->spec.minutes;
    end.gone = job.gone;
    end.haveResult = endedMs > 0 && resultFile.open(QIODevice::ReadOnly);
    if (std::optional<EvaluationResult> failure = verdict(end)) {
        if (failure->metrics.value(QStringLiteral("retry")).toBool()) {
            const QString err = tail(dir + QStringLiteral("/evaluate.err"), 1000);
            if (!err.isEmpty())
                *failure->error += QStringLiteral("\nstderr of the job: ") + err;
        }
        return *failure;
    }
    EvaluationResult result = EvaluationResult::fromEvaluatorOutput(resultFile.readAll());
    if (result.failClass == QLatin1String(FailClass::Env) && result.error) {
        const QString err = tail(dir + QStringLiteral("/evaluate.err"), 2000);
        if (!err.isEmpty())
            *result.error += QStringLiteral("\nstderr of the job: ") + err;
    }
    return result;
}

QJsonObject SlurmEvaluationBackend::taskOptionDefaults(const QString &task)
{
    if (!QFileInfo(task).isDir())
        return {};
    QFile spec(task + QStringLiteral("/task.json"));
    if (!spec.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(spec.readAll()).object().value(QStringLiteral("options")).toObject();
}

SlurmEvaluationBackend::JobSpec SlurmEvaluationBackend::jobSpec(const EvaluationRequest &request, const SlurmSettings &settings,
                                                                const QString &dir, const QString &program,
                                                                const QJsonObject &taskDefaults)
{
    JobSpec spec;
    // The command: the same evaluator as locally, its score JSON on stdout.
    QStringList evaluate = {program, QStringLiteral("evaluate")};
    if (request.task == QLatin1String("custom") || (request.task.isEmpty() && !request.command.isEmpty()))
        evaluate << QStringLiteral("--command") << request.command;
    else
        evaluate << QStringLiteral("--task") << request.task;
    for (auto it = request.options.constBegin(); it != request.options.constEnd(); ++it) {
        const QJsonValue v = it.value();
        const QString text = v.isString() ? v.toString()
                                          : QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
        evaluate << QStringLiteral("--option") << it.key() + QLatin1Char('=') + text;
    }
    evaluate << QStringLiteral("--sandbox")
             << (request.sandboxMode == SandboxMode::Bubblewrap ? QStringLiteral("bwrap")
                 : request.sandboxMode == SandboxMode::Fallback ? QStringLiteral("fallback")
                                                                : QStringLiteral("auto"))
             << QStringLiteral("--json");
    if (!request.candidatePath.isEmpty())
        evaluate << dir + QStringLiteral("/candidate/") + QFileInfo(request.candidatePath).fileName();
    QStringList quoted;
    for (const QString &word : evaluate)
        quoted << shellQuote(word);
    spec.script = QStringLiteral(
                      "#!/bin/sh\n"
                      "# dreamrsi evaluation job (written by the Slurm backend)\n"
                      "export PATH=/usr/local/bin:/usr/bin:/bin LC_ALL=C.UTF-8\n"
                      "cd %1 || exit 3\n"
                      "date +%s%N > started.part && mv started.part started\n"
                      "%2 > result.part 2> evaluate.err\n"
                      "echo $? > exit_code\n"
                      "mv result.part result.json\n"
                      "date +%s%N > ended.part && mv ended.part ended\n")
                      .arg(shellQuote(dir), quoted.join(QLatin1Char(' ')));

    // Requests from the task's limits (a task folder's task.json options as defaults).
    QJsonObject limits = request.options;
    for (auto it = taskDefaults.constBegin(); it != taskDefaults.constEnd(); ++it) {
        if (!limits.contains(it.key()))
            limits.insert(it.key(), it.value());
    }
    const double seconds = limits.value(QStringLiteral("time_limit_s")).toDouble(600.0);
    spec.minutes = settings.timeLimitMinutes > 0 ? settings.timeLimitMinutes : int(std::ceil((seconds * 1.5 + 120.0) / 60.0));
    spec.memoryMb = qint64(limits.value(QStringLiteral("memory_mb")).toDouble(8192.0)) + 256;
    spec.cpus = std::max(1, limits.value(QStringLiteral("cpus")).toInt(1));
    spec.sbatchArgs = {QStringLiteral("--job-name=dreamrsi-eval"), QStringLiteral("--chdir=") + dir,
                       QStringLiteral("--output=") + dir + QStringLiteral("/slurm.out"), QStringLiteral("--export=NONE"),
                       QStringLiteral("--nodes=1"), QStringLiteral("--ntasks=1"), QStringLiteral("--time=%1").arg(spec.minutes),
                       QStringLiteral("--mem=%1M").arg(spec.memoryMb), QStringLiteral("--cpus-per-task=%1").arg(spec.cpus)};
    if (request.task == QLatin1String("cuda_kernels") || limits.value(QStringLiteral("gpus")).toInt() > 0) {
        spec.gpus = std::max(1, limits.value(QStringLiteral("gpus")).toInt(1));
        spec.sbatchArgs << QStringLiteral("--gres=gpu:%1").arg(spec.gpus);
    }
    if (!settings.partition.isEmpty())
        spec.sbatchArgs << QStringLiteral("--partition=") + settings.partition;
    if (!settings.account.isEmpty())
        spec.sbatchArgs << QStringLiteral("--account=") + settings.account;
    if (!settings.qos.isEmpty())
        spec.sbatchArgs << QStringLiteral("--qos=") + settings.qos;
    spec.sbatchArgs << settings.extraArgs << dir + QStringLiteral("/job.sh");
    return spec;
}

QString SlurmEvaluationBackend::JobSpec::requestText() const
{
    QStringList parts = {QStringLiteral("%1 MB of memory").arg(memoryMb), QStringLiteral("%1 min").arg(minutes),
                         QStringLiteral("%1 CPU%2").arg(cpus).arg(cpus == 1 ? QString() : QStringLiteral("s"))};
    if (gpus > 0)
        parts << QStringLiteral("%1 GPU%2").arg(gpus).arg(gpus == 1 ? QString() : QStringLiteral("s"));
    for (const QString &arg : sbatchArgs) {
        if (arg.startsWith(QLatin1String("--partition=")) || arg.startsWith(QLatin1String("--account="))
            || arg.startsWith(QLatin1String("--qos=")))
            parts << arg.mid(2).replace(QLatin1Char('='), QLatin1Char(' '));
    }
    return parts.join(QStringLiteral(", "));
}

std::optional<EvaluationResult> SlurmEvaluationBackend::verdict(const JobEnd &end)
{
    const QString &state = end.state;
    if (state == QLatin1String("TIMEOUT") || state == QLatin1String("DEADLINE"))
        return EvaluationResult::failure(FailClass::Timeout,
                                         QStringLiteral("Slurm job %1 hit its time limit (%2 min)").arg(end.jobId).arg(end.minutes));
    if (state == QLatin1String("OUT_OF_MEMORY"))
        return EvaluationResult::failure(FailClass::Resource,
                                         QStringLiteral("Slurm job %1 ran out of its memory request (%2)").arg(end.jobId, end.memory));
    const bool judged = end.gone || state == QLatin1String("COMPLETED") || state == QLatin1String("FAILED");
    if (end.haveResult && judged)
        return std::nullopt;
    // Killed by slurmstepd for its memory without cgroups (OverMemoryKill): Slurm
    // calls that FAILED or CANCELLED, the job's output says why.
    if (!end.haveResult && killedForMemory(end.output))
        return EvaluationResult::failure(FailClass::Resource,
                                         QStringLiteral("Slurm job %1 was killed for exceeding its memory request (%2): %3")
                                             .arg(end.jobId, end.memory, end.output.trimmed().section(QLatin1Char('\n'), -1)));
    EvaluationResult lost = EvaluationResult::failure(
        FailClass::Env, end.gone ? QStringLiteral("Slurm job %1 vanished without a result").arg(end.jobId)
                                 : QStringLiteral("Slurm job %1 ended %2 (%3) without a result%4")
                                       .arg(end.jobId, state, end.reason,
                                            end.output.isEmpty() ? QString() : QStringLiteral(": ") + end.output));
    lost.metrics.insert(QStringLiteral("retry"), true);
    return lost;
}

SlurmEvaluationBackend::SlurmEvaluationBackend(SlurmSettings settings)
    : d(std::make_unique<Private>(std::move(settings)))
{
}

SlurmEvaluationBackend::~SlurmEvaluationBackend()
{
    {
        std::lock_guard lock(d->mutex);
        d->quit = true;
    }
    d->wake.notify_all();
    if (d->poller)
        d->poller->wait();
}

QString SlurmEvaluationBackend::name() const
{
    return QStringLiteral("slurm");
}

void SlurmEvaluationBackend::setLogSink(LogSink sink)
{
    std::lock_guard lock(d->mutex);
    d->logSink = std::move(sink);
}

const SlurmSettings &SlurmEvaluationBackend::settings() const
{
    return d->settings;
}

QString SlurmEvaluationBackend::prepare()
{
    for (const char *name : {"sbatch", "squeue", "scancel", "sinfo", "scontrol"}) {
        const Command c = d->runTool(QString::fromLatin1(name), {QStringLiteral("--version")});
        if (!c.started)
            return QStringLiteral("the Slurm command '%1' cannot be run (%2); install Slurm's client tools or set its folder")
                .arg(d->tool(QString::fromLatin1(name)), c.text());
    }
    const Command partitions = d->runTool(QStringLiteral("sinfo"), {QStringLiteral("-h"), QStringLiteral("-o"), QStringLiteral("%P")});
    if (partitions.exitCode != 0)
        return QStringLiteral("Slurm does not answer (sinfo: %1)").arg(partitions.text());
    QStringList known;
    for (const QByteArray &line : partitions.out.split('\n')) {
        QString p = QString::fromLocal8Bit(line).trimmed();
        if (p.endsWith(QLatin1Char('*')))
            p = p.chopped(1) + QStringLiteral(" (default)");
        if (!p.isEmpty())
            known << p;
    }
    if (!d->settings.partition.isEmpty()) {
        const Command c = d->runTool(QStringLiteral("scontrol"), {QStringLiteral("show"), QStringLiteral("partition"), d->settings.partition});
        if (c.exitCode != 0)
            return QStringLiteral("Slurm partition '%1' does not exist (partitions: %2)")
                .arg(d->settings.partition, known.isEmpty() ? QStringLiteral("none") : known.join(QStringLiteral(", ")));
    } else if (known.isEmpty()) {
        return QStringLiteral("Slurm has no partition to submit to");
    }
    const QString root = d->sharedDir();
    if (!QDir().mkpath(root) || !QFileInfo(root).isWritable())
        return QStringLiteral("the shared work directory '%1' cannot be created or written").arg(root);
    const QFileInfo program(d->program());
    if (!program.isFile() || !program.isExecutable())
        return QStringLiteral("the dreamrsi program '%1' that the jobs run does not exist or is not executable").arg(program.filePath());
    d->log(QStringLiteral("slurm: partition %1, shared directory %2")
               .arg(d->settings.partition.isEmpty() ? QStringLiteral("(default)") : d->settings.partition, root));
    return {};
}

QString SlurmEvaluationBackend::checkJob(const EvaluationRequest &request)
{
    // The job exactly as a round submits it, in a folder of its own, asked
    // with --test-only: Slurm judges the requests and schedules nothing.
    const QString root = d->sharedDir();
    QDir().mkpath(root);
    QTemporaryDir jobDir(root + QStringLiteral("/check-XXXXXX"));
    if (!jobDir.isValid())
        return QStringLiteral("cannot create a job folder under the shared directory '%1': %2").arg(root, jobDir.errorString());
    const JobSpec spec = jobSpec(request, d->settings, jobDir.path(), d->program(), taskOptionDefaults(request.task));
    if (!writeJobScript(jobDir.path(), spec))
        return QStringLiteral("cannot write the job script in '%1'").arg(jobDir.path());
    const Command c = d->runTool(QStringLiteral("sbatch"), QStringList{QStringLiteral("--test-only")} + spec.sbatchArgs);
    const QString answer = c.text();
    if (c.started && c.exitCode == 0) {
        d->log(QStringLiteral("slurm: the evaluation job (%1) would be accepted: %2").arg(spec.requestText(), answer));
        return {};
    }
    if (c.started && isTransient(answer)) {
        // Not a judgement of the job: the submissions wait for the controller.
        d->log(QStringLiteral("slurm: cannot check the evaluation job now (%1); going on").arg(answer));
        return {};
    }
    const QString cause = d->whyNoNodeFits(spec);
    return QStringLiteral("Slurm would refuse the evaluation jobs (%1): %2%3")
        .arg(spec.requestText(), answer, cause.isEmpty() ? QString() : QStringLiteral(": ") + cause);
}

EvaluationResult SlurmEvaluationBackend::evaluate(const EvaluationRequest &request, const std::atomic_bool &cancel,
                                                  const ProgressSink &progress)
{
    QJsonObject info;
    EvaluationResult result = d->runOnce(request, cancel, 1, &info, progress);
    if (result.metrics.value(QStringLiteral("retry")).toBool() && !cancel.load()) {
        d->log(QStringLiteral("slurm job %1 lost (%2); submitting it once more")
                   .arg(info.value(QStringLiteral("job_id")).toString(), result.error.value_or(QString())));
        info = QJsonObject();
        result = d->runOnce(request, cancel, 2, &info, progress);
    }
    result.metrics.remove(QStringLiteral("retry"));
    info.insert(QStringLiteral("polls"), double(d->pollCount.load()));
    result.metrics.insert(QStringLiteral("slurm"), info);
    return result;
}

} // namespace dreamrsi
