#include "roundattempt.h"

#include "backend/evaluationbackend.h"

#include "model/cell.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

namespace dreamrsi {

namespace {

// Workspace files are a working copy: the durable copy is the artifact the
// store keeps, and a rerun rebuilds the workspace; no fsync per file.
dreamrsi::Result<Done> writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size())
        return dreamrsi::Result<Done>::failure(QStringLiteral("cannot write '%1': %2").arg(path, file.errorString()));
    return dreamrsi::Result<Done>::success({});
}

} // namespace

dreamrsi::Result<Done> RoundAttempt::copyWorkspace(const QString &source, const QString &target)
{
    const QDir from(source);
    QDirIterator it(source, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = from.relativeFilePath(path);
        if (relative == QLatin1String("error.txt") || relative == QLatin1String("agent.log")
            || relative == QLatin1String("proposal.md") || relative.startsWith(QLatin1String("eval/")))
            continue;
        const QString destination = target + QLatin1Char('/') + relative;
        QDir().mkpath(QFileInfo(destination).absolutePath());
        // Read and written plainly (QFile::copy goes through a temporary
        // file and a rename per file); the permissions come along.
        QFile in(path);
        const auto fail = [&](const QString &why) {
            return dreamrsi::Result<Done>::failure(
                QStringLiteral("cannot copy '%1' into the workspace '%2': %3").arg(path, target, why));
        };
        if (!in.open(QIODevice::ReadOnly))
            return fail(in.errorString());
        if (const dreamrsi::Result<Done> written = writeFile(destination, in.readAll()); !written)
            return fail(written.error);
        if (!QFile::setPermissions(destination, in.permissions()))
            return fail(QStringLiteral("cannot set its permissions"));
    }
    return dreamrsi::Result<Done>::success({});
}

void RoundAttempt::Control::end(Ending ending, const QString &why)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_ending != Ending::None)
            return;
        m_ending = ending;
        m_reason = why;
    }
    m_cancel.store(true);
}

RoundAttempt::Control::Ending RoundAttempt::Control::ending() const
{
    std::lock_guard lock(m_mutex);
    return m_ending;
}

QString RoundAttempt::Control::reason() const
{
    std::lock_guard lock(m_mutex);
    return m_reason;
}

void RoundAttempt::Control::begin()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_startedMs.store(now);
    m_phaseStartedMs.store(now);
    m_phase.store(int(Phase::Agent));
}

void RoundAttempt::Control::enter(Phase phase)
{
    if (m_phase.exchange(int(phase)) != int(phase))
        m_phaseStartedMs.store(QDateTime::currentMSecsSinceEpoch());
}

RoundAttempt::Outcome RoundAttempt::run(const Job &job, DiscoveryAgent &agent, EvaluationBackend &backend,
                                       const std::atomic_bool &kill, const EvaluationBackend::ProgressSink &progress)
{
    Control control; // never ended: `kill` alone stops the attempt
    return run(job, agent, backend, kill, progress, control);
}

RoundAttempt::Outcome RoundAttempt::run(const Job &job, DiscoveryAgent &agent, EvaluationBackend &backend, Control &control,
                                       const EvaluationBackend::ProgressSink &progress)
{
    return run(job, agent, backend, control.cancelFlag(), progress, control);
}

RoundAttempt::Outcome RoundAttempt::run(const Job &job, DiscoveryAgent &agent, EvaluationBackend &backend,
                                       const std::atomic_bool &kill, const EvaluationBackend::ProgressSink &progress,
                                       Control &control)
{
    control.begin();
    QElapsedTimer wall;
    wall.start();
    Outcome r;
    const AttemptContext &ctx = job.context;
    r.cellId = ctx.cellId;
    r.branch = ctx.branch;
    r.attempt = ctx.attempt;
    r.round = job.round;
    r.workspace = ctx.workspaceDir;
    r.programFileName = ctx.programFileName;
    const QString programPath = ctx.workspaceDir + QLatin1Char('/') + ctx.programFileName;
    auto finish = [&]() {
        r.wallSeconds = double(wall.nsecsElapsed()) / 1e9;
        return r;
    };

    // The workspace: a fresh copy of the parent's (a rerun after a crash
    // starts again from the parent, never from its own leftovers).
    QDir(ctx.workspaceDir).removeRecursively();
    if (!QDir().mkpath(ctx.workspaceDir)) {
        r.setupError = QStringLiteral("cannot create the workspace '%1'").arg(ctx.workspaceDir);
        return finish();
    }
    if (ctx.attempt == 0 || !QFileInfo(ctx.parentWorkspaceDir).isDir()) {
        // Attempt 0 starts from the initial program; a parent workspace that
        // is gone (project copied without its attempts) from the stored program.
        dreamrsi::Result<Done> copied = dreamrsi::Result<Done>::success({});
        if (ctx.attempt == 0) {
            QFile::remove(programPath);
            if (!QFile::copy(job.initialProgram, programPath))
                copied = dreamrsi::Result<Done>::failure(QStringLiteral("cannot copy the initial program '%1' into '%2'")
                                                             .arg(job.initialProgram, ctx.workspaceDir));
        } else {
            copied = writeFile(programPath, ctx.parentProgram.toUtf8());
        }
        if (!copied) {
            r.setupError = copied.error;
            return finish();
        }
    } else if (const dreamrsi::Result<Done> copied = copyWorkspace(ctx.parentWorkspaceDir, ctx.workspaceDir);
               !copied.ok()) {
        r.setupError = copied.error;
        return finish();
    }

    QElapsedTimer timer;
    timer.start();
    r.outcome = agent.propose(ctx, kill);
    r.agentSeconds = double(timer.nsecsElapsed()) / 1e9;
    if (kill.load() || r.outcome.cancelled) {
        switch (control.ending()) {
        case Control::Ending::AgentTimeLimit: // an agent failure, stored like any other
            r.outcome = AgentOutcome::failure(control.reason(), r.outcome.usage, r.outcome.log);
            break;
        case Control::Ending::Killed:
            r.setupError = control.reason();
            return finish();
        default:
            r.abandoned = true;
            return finish();
        }
    }
    // The log and the error text are a convenience for whoever opens the
    // workspace (the store keeps both): a failure to write them is not the
    // attempt's.
    writeFile(ctx.workspaceDir + QStringLiteral("/agent.log"), r.outcome.log.toUtf8());
    if (!r.outcome.ok) {
        if (r.outcome.error.isEmpty())
            r.outcome.error = QStringLiteral("the agent returned no program");
        writeFile(ctx.workspaceDir + QStringLiteral("/error.txt"), r.outcome.error.toUtf8());
        // An answer without a program still said something (a refusal, a
        // plan, a cut-off text): it is the attempt's proposal, kept with it.
        if (!r.outcome.proposal.isEmpty())
            writeFile(ctx.workspaceDir + QStringLiteral("/proposal.md"), r.outcome.proposal.toUtf8());
        return finish();
    }
    dreamrsi::Result<Done> written = writeFile(ctx.workspaceDir + QStringLiteral("/proposal.md"), r.outcome.proposal.toUtf8());
    if (written)
        written = writeFile(programPath, r.outcome.program.toUtf8());
    if (!written) {
        r.setupError = written.error;
        return finish();
    }

    EvaluationRequest request;
    request.task = job.evaluationTask;
    request.candidatePath = programPath;
    request.sandboxMode = job.sandboxMode;
    timer.restart();
    control.enter(Control::Phase::Evaluation);
    EvaluationResult result = backend.evaluate(request, kill, [&r, &progress, &control](const EvaluationProgress &p) {
        r.scheduling = p;
        control.enter(p.isQueued() ? Control::Phase::Queued : Control::Phase::Evaluation);
        if (progress)
            progress(p);
    });
    r.evalSeconds = double(timer.nsecsElapsed()) / 1e9;
    if (kill.load()) {
        if (control.ending() == Control::Ending::Killed) {
            r.setupError = control.reason();
            return finish();
        }
        r.abandoned = true;
        return finish();
    }
    QDir().mkpath(ctx.workspaceDir + QStringLiteral("/eval"));
    writeFile(ctx.workspaceDir + QStringLiteral("/eval/score.json"),
              QJsonDocument(result.toJson()).toJson(QJsonDocument::Indented));
    if (result.error)
        writeFile(ctx.workspaceDir + QStringLiteral("/error.txt"), result.error->toUtf8());
    r.evaluation = std::move(result);
    return finish();
}

} // namespace dreamrsi
