#include "recursiveloop.h"

#include "base/jsonnumber.h"
#include "loop/dream/autoapproval.h"
#include "loop/round/roundrunner.h"
#include "loop/round/roundsession.h"
#include "loop/round/steeringinbox.h"
#include "project/policyresolution.h"

#include "store/projectstore.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonArray>
#include <QTimer>

namespace dreamrsi {

RecursiveLoop::RecursiveLoop(ProjectStore *store, std::shared_ptr<DiscoveryAgent> agent,
                             std::shared_ptr<EvaluationBackend> backend, std::shared_ptr<PolicyDeveloper> developer,
                             QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_agent(std::move(agent))
    , m_backend(std::move(backend))
    , m_developer(std::move(developer))
    , m_events(new RoundEvents(this))
{
}

void RecursiveLoop::stop()
{
    m_stop.store(true);
    std::lock_guard lock(m_activeMutex);
    if (auto *runner = qobject_cast<RoundRunner *>(m_active))
        runner->stop();
    else if (auto *dreamer = qobject_cast<Dreamer *>(m_active))
        dreamer->cancel();
    else if (auto *wait = qobject_cast<QEventLoop *>(m_active)) // waiting for approval
        QMetaObject::invokeMethod(wait, &QEventLoop::quit, Qt::QueuedConnection);
}

void RecursiveLoop::setActive(QObject *object)
{
    std::lock_guard lock(m_activeMutex);
    m_active = object;
}

LoopReport RecursiveLoop::run(const LoopSettings &settings)
{
    LoopReport report;
    report.fixed = settings.fixed;
    if (const QString refused = refusal(settings); !refused.isEmpty()) {
        report.error = refused;
        return report;
    }
    const int total = settings.iterations;
    if (!settings.fixed && !settings.autoApprove && !settings.awaitApproval)
        emit message(QStringLiteral("no dreamed version will be deployed: without --auto-approve or --await-approval "
                                    "every round runs the version deployed now"));
    std::optional<PolicyVersion> pinned;
    // `loop --policy P`: P drives the rounds (and is version 0 of the dreams)
    // until a version of a dream is approved; --fixed keeps it throughout.
    std::optional<PolicyVersion> started;
    if (settings.round.policy.kind() != PolicyChoice::Kind::LatestApproved) {
        const Result<ResolvedPolicy> chosen = PolicyResolution::resolve(*m_store, settings.round.policy);
        if (!chosen.ok()) {
            report.error = chosen.error;
            return report;
        }
        started = chosen.value->version;
    }
    qint64 calls = 0;
    std::optional<double> best;

    for (int t = 1; t <= total; ++t) {
        if (m_stop.load()) {
            report.stopped = true;
            break;
        }
        StoreResult<PolicyVersion> policy = pinned    ? StoreResult<PolicyVersion>::success(*pinned)
                                            : started ? StoreResult<PolicyVersion>::success(*started)
                                                      : Dreamer::deployedVersion(*m_store);
        if (!policy.ok()) {
            report.error = policy.error;
            break;
        }
        if (settings.fixed)
            pinned = *policy.value;

        LoopIteration it;
        it.index = t;
        it.policyVersion = policy.value->id;
        it.policyName = policy.value->name;
        if (const QString failed = runRound(settings, *policy.value, t, it); !failed.isEmpty()) {
            report.error = failed;
            break;
        }
        calls += it.round.counters.calls;
        if (it.round.counters.bestScore && (!best || *it.round.counters.bestScore > *best))
            best = it.round.counters.bestScore;
        it.cumulativeCalls = calls;
        it.bestScore = best;
        QString error;
        Went went = afterRound(it, t, &error);
        if (went == Went::On && !settings.fixed && t < total) {
            went = dreamAfter(settings, started, t, it, &error);
            if (it.approved != 0)
                started.reset(); // the approved version is the deployed one now
        }
        report.iterations.append(it);
        if (went == Went::Failed)
            report.error = error;
        if (went == Went::Stopped)
            report.stopped = true;
        if (went != Went::On)
            break;
        emit iterationFinished(t, total);
    }
    return report;
}

QString RecursiveLoop::refusal(const LoopSettings &settings) const
{
    if (!m_store || !m_agent || !m_backend)
        return QStringLiteral("the loop needs an open project, an agent and an evaluation backend");
    if (!settings.fixed && !m_developer)
        return QStringLiteral("the loop needs a policy developer to dream (or run it --fixed)");
    if (settings.iterations < 1)
        return QStringLiteral("the number of iterations must be at least 1 (got %1)").arg(settings.iterations);
    return {};
}

QString RecursiveLoop::runRound(const LoopSettings &settings, const PolicyVersion &policy, int t, LoopIteration &it)
{
    RoundConfig config = settings.round;
    config.policy = PolicyChoice::stored(policy.name);
    config.seed = settings.round.seed + quint64(t - 1); // the round's agent seed follows (RoundSession::prepare)
    config.resume = 0;
    emit message(QStringLiteral("iteration %1/%2%3: round with %4")
                     .arg(t)
                     .arg(settings.iterations)
                     .arg(settings.fixed ? QStringLiteral(" (fixed)") : QString(), it.policyName));
    // Every round is put together the one way (RoundSession::prepare: the
    // project open for writing, a task), with the loop's own agent and backend.
    RoundOptions options;
    options.round = config;
    const Result<PreparedRound> prepared =
        RoundSession::prepare(m_store, options, {}, RoundSession::Parts{m_agent, m_backend}).result();
    if (!prepared)
        return QStringLiteral("round %1: %2").arg(t).arg(prepared.error);
    RoundRunner runner(m_store, prepared.value->config, prepared.value->agent, prepared.value->backend);
    connect(&runner, &RoundRunner::logLine, this, &RecursiveLoop::message, Qt::DirectConnection);
    // The round's stream is the loop's (events()), as it comes.
    connect(&runner, &RoundEvents::iterationStarted, m_events, &RoundEvents::iterationStarted, Qt::DirectConnection);
    connect(&runner, &RoundEvents::cellFinished, m_events, &RoundEvents::cellFinished, Qt::DirectConnection);
    connect(&runner, &RoundEvents::countersChanged, m_events, &RoundEvents::countersChanged, Qt::DirectConnection);
    connect(&runner, &RoundEvents::logLine, m_events, &RoundEvents::logLine, Qt::DirectConnection);
    connect(&runner, &RoundEvents::finished, m_events, &RoundEvents::finished, Qt::DirectConnection);
    QEventLoop wait;
    connect(&runner, &RoundRunner::finished, &wait, &QEventLoop::quit, Qt::QueuedConnection);
    setActive(&runner);
    runner.start();
    if (m_stop.load())
        runner.stop();
    if (runner.isRunning())
        wait.exec();
    runner.wait();
    setActive(nullptr);
    it.round = runner.summary();
    return {};
}

RecursiveLoop::Went RecursiveLoop::afterRound(const LoopIteration &it, int t, QString *error) const
{
    if (!it.round.ok()) {
        *error = QStringLiteral("round %1: %2").arg(t).arg(it.round.error);
        return Went::Failed;
    }
    return it.round.status != IterationStatus::Finished || m_stop.load() ? Went::Stopped : Went::On;
}

RecursiveLoop::Went RecursiveLoop::dreamAfter(const LoopSettings &settings, const std::optional<PolicyVersion> &deployed, int t,
                                              LoopIteration &it, QString *error)
{
    const StoreResult<QList<DreamWorld>> worlds = Dreamer::finishedWorlds(*m_store);
    if (!worlds.ok()) {
        *error = worlds.error;
        return Went::Failed;
    }
    DreamSettings dream = settings.dream;
    dream.deployed = deployed;
    dream.seed = settings.dream.seed + quint64(t - 1);
    // The completions of the dream after iteration t (docs/online.md#valuation):
    // S + 1000·repeat + t, with one repeat.
    dream.imagineSeed = settings.dream.seed + quint64(t);
    Dreamer dreamer(m_store, m_developer);
    connect(&dreamer, &Dreamer::message, this, [this](const QString &line) { emit message(QStringLiteral("dream: ") + line); },
            Qt::DirectConnection);
    setActive(&dreamer);
    if (m_stop.load())
        dreamer.cancel();
    it.dream = dreamer.run(*worlds.value, dream);
    setActive(nullptr);
    const DreamReport &dr = *it.dream;
    if (!dr.error.isEmpty()) {
        *error = QStringLiteral("dream after round %1: %2").arg(t).arg(dr.error);
        return Went::Failed;
    }
    if (dr.cancelled)
        return Went::Stopped;
    return deployProposal(settings, dr, *worlds.value, t, it, error);
}

RecursiveLoop::Went RecursiveLoop::deployProposal(const LoopSettings &settings, const DreamReport &dr,
                                                  const QList<DreamWorld> &worlds, int t, LoopIteration &it, QString *error)
{
    const DreamVersion *p = dr.proposal();
    if (!p)
        return Went::On;
    if (settings.autoApprove) {
        const StoreResult<qint64> a = approveAutomatically(*m_store, dr, dr.proposed, worlds, QStringLiteral("dreamrsi loop"));
        if (!a.ok()) {
            *error = QStringLiteral("cannot record the approval: %1").arg(a.error);
            return Went::Failed;
        }
        it.approved = p->developed.version.id;
        emit message(QStringLiteral("approved %1 automatically (mean value %2)")
                         .arg(p->developed.version.name, QString::number(*p->developed.value, 'g', 6)));
    } else if (settings.awaitApproval) {
        const Result<ApprovalAnswer> answer = awaitApproval(dr, worlds, t);
        if (!answer) {
            *error = answer.error;
            return Went::Failed;
        }
        it.approved = answer.value->approved;
        if (answer.value->outcome == ApprovalAnswer::Outcome::Stopped)
            return Went::Stopped;
    } else {
        emit message(QStringLiteral("%1 is proposed but not approved (no automatic approval): the deployed version stays")
                         .arg(p->developed.version.name));
    }
    return Went::On;
}

Result<RecursiveLoop::ApprovalAnswer> RecursiveLoop::awaitApproval(const DreamReport &dr, const QList<DreamWorld> &worlds,
                                                                    int t)
{
    using Answer = Result<ApprovalAnswer>;
    const DreamVersion *p = dr.proposal();
    const QString path = m_store->path();
    QJsonArray versions;
    for (const DreamVersion &v : dr.versions)
        versions.append(QJsonObject{{QStringLiteral("id"), v.developed.version.id},
                                    {QStringLiteral("name"), v.developed.version.name},
                                    {QStringLiteral("value"), jsonNumber(v.developed.value)},
                                    {QStringLiteral("error"), v.developed.error}});
    QJsonObject proposal{{QStringLiteral("version"), p->developed.version.id},
                         {QStringLiteral("name"), p->developed.version.name},
                         {QStringLiteral("value"), jsonNumber(p->developed.value)},
                         {QStringLiteral("index"), t},
                         {QStringLiteral("versions"), versions}};
    SteeringEvent waiting;
    waiting.action = QStringLiteral("awaiting_approval");
    waiting.who = QStringLiteral("dreamrsi loop");
    waiting.text = p->developed.version.name;
    waiting.payload = proposal;
    const StoreResult<qint64> recorded = m_store->addSteeringEvent(waiting).result();
    if (!recorded.ok())
        return Answer::failure(recorded.error);
    proposal.insert(QStringLiteral("event"), *recorded.value);
    if (const Result<Done> published =
            SteeringInbox::publish(path, SteeringLive{0, QStringLiteral("approval"), 0, proposal});
        !published.ok())
        return Answer::failure(QStringLiteral("cannot wait for approval: ") + published.error);
    emit message(QStringLiteral("iteration %1: %2 (mean value %3) awaits approval: dreamrsi approve --project %4 "
                                "--version V | --best | --decline")
                     .arg(t)
                     .arg(p->developed.version.name, proposal.value(QStringLiteral("value")).toVariant().toString(), path));
    emit m_events->approvalAwaited(ApprovalWait{QCoreApplication::applicationPid(), proposal});

    // Until a request approves or declines, or Stop: the inbox is read
    // every 100 ms on this thread's event loop, which stop() ends at once.
    std::optional<Answer> outcome;
    QEventLoop wait;
    QTimer look;
    look.setInterval(100);
    const auto check = [&] {
        if (m_stop.load()) {
            emit message(QStringLiteral("stopped while %1 awaited approval; it stays proposed").arg(p->developed.version.name));
            outcome = Answer::success({ApprovalAnswer::Outcome::Stopped, 0});
        } else {
            outcome = answerApprovalRequests(dr, worlds, *recorded.value);
        }
        if (outcome)
            wait.quit();
    };
    connect(&look, &QTimer::timeout, &wait, check);
    setActive(&wait);
    check();
    if (!outcome) {
        look.start();
        wait.exec();
    }
    setActive(nullptr);
    if (!outcome) { // stop() ended the wait between two looks
        emit message(QStringLiteral("stopped while %1 awaited approval; it stays proposed").arg(p->developed.version.name));
        outcome = Answer::success({ApprovalAnswer::Outcome::Stopped, 0});
    }
    SteeringInbox::unpublish(path);
    for (const SteeringRequest &r : SteeringInbox::pending(path))
        SteeringInbox::acknowledge(path, SteeringAck{r.id, false, QStringLiteral("the loop no longer waits for approval"), 0});
    emit m_events->approvalEnded();
    return *outcome;
}

std::optional<Result<RecursiveLoop::ApprovalAnswer>> RecursiveLoop::answerApprovalRequests(const DreamReport &dr,
                                                                                         const QList<DreamWorld> &worlds,
                                                                                         qint64 awaited)
{
    using Answer = Result<ApprovalAnswer>;
    const DreamVersion *p = dr.proposal();
    const QString path = m_store->path();
    auto answer = [&](const SteeringAck &ack) { SteeringInbox::acknowledge(path, ack); };
    QList<SteeringAck> unreadable;
    for (const SteeringRequest &r : SteeringInbox::pending(path, &unreadable)) {
        SteeringEvent e;
        e.who = r.by;
        e.why = r.why;
        e.requestId = r.id;
        e.payload = QJsonObject{{QStringLiteral("awaited"), awaited}};
        int index = -1;
        if (r.action == QLatin1String("approve")) {
            for (const DreamVersion &v : dr.versions) {
                if (r.best ? v.index == dr.proposed
                           : (v.developed.version.name == r.version || QString::number(v.developed.version.id) == r.version))
                    index = v.index;
            }
            QString refusal;
            if (index < 0) {
                QStringList names;
                for (const DreamVersion &v : dr.versions)
                    names.append(v.developed.version.name);
                refusal = QStringLiteral("version %1 is not one of this dream's versions (%2)")
                              .arg(r.version, names.join(QStringLiteral(", ")));
            } else if (!dr.versions.at(index).developed.error.isEmpty() || !dr.versions.at(index).developed.value) {
                refusal = QStringLiteral("%1 has no clean replay value (%2)")
                              .arg(dr.versions.at(index).developed.version.name,
                                   dr.versions.at(index).developed.error.isEmpty() ? QStringLiteral("no value")
                                                                                   : dr.versions.at(index).developed.error);
            }
            if (!refusal.isEmpty()) {
                answer(SteeringAck{r.id, false, refusal, 0});
                continue;
            }
            const DevelopedVersion &candidate = dr.versions.at(index).developed;
            Approval approval;
            approval.version = candidate.version.id;
            approval.who = r.by;
            approval.note = r.why;
            approval.evidence = dreamApprovalEvidence(dr, index, worlds);
            const StoreResult<qint64> a = m_store->addApproval(approval).result();
            if (!a.ok()) {
                const QString why = QStringLiteral("cannot record the approval: %1").arg(a.error);
                answer(SteeringAck{r.id, false, why, 0});
                return Answer::failure(why);
            }
            e.action = QStringLiteral("approved");
            e.text = candidate.version.name;
            e.payload.insert(QStringLiteral("version"), candidate.version.id);
            e.payload.insert(QStringLiteral("approval"), *a.value);
        } else if (r.action == QLatin1String("decline")) {
            e.action = QStringLiteral("declined");
            e.text = p->developed.version.name;
        } else {
            answer(SteeringAck{r.id, false, QStringLiteral("the loop is waiting for approval after a dream, not running a round"),
                               0});
            continue;
        }
        const StoreResult<qint64> id = m_store->addSteeringEvent(e).result();
        if (!id.ok()) {
            answer(SteeringAck{r.id, false, id.error, 0});
            return Answer::failure(id.error);
        }
        const QString what = e.action == QLatin1String("approved")
                                 ? QStringLiteral("%1 approved by %2; it drives the next round").arg(e.text, r.by)
                                 : QStringLiteral("%1 declined by %2; the deployed version stays").arg(e.text, r.by);
        answer(SteeringAck{r.id, true, what, *id.value});
        emit message(what);
        if (e.action == QLatin1String("approved"))
            return Answer::success({ApprovalAnswer::Outcome::Approved, dr.versions.at(index).developed.version.id});
        return Answer::success({ApprovalAnswer::Outcome::Declined, 0});
    }
    for (const SteeringAck &ack : std::as_const(unreadable))
        answer(ack);
    return std::nullopt;
}

QJsonObject RecursiveLoop::runJson(const LoopReport &run)
{
    QJsonArray rows;
    for (const LoopIteration &it : run.iterations) {
        QJsonObject row{{QStringLiteral("iteration"), it.round.iteration},
                        {QStringLiteral("index"), it.index},
                        {QStringLiteral("policy_version"), it.policyVersion},
                        {QStringLiteral("policy_name"), it.policyName},
                        {QStringLiteral("status"), iterationStatusName(it.round.status)},
                        {QStringLiteral("cells"), it.round.counters.cells},
                        {QStringLiteral("rounds"), it.round.counters.rounds},
                        {QStringLiteral("calls"), it.round.counters.calls},
                        {QStringLiteral("round_best_score"), jsonNumber(it.round.counters.bestScore)},
                        {QStringLiteral("best_score"), jsonNumber(it.bestScore)},
                        {QStringLiteral("cumulative_calls"), it.cumulativeCalls},
                        {QStringLiteral("grid"), QJsonObject{{QStringLiteral("branches"), it.round.grid.branches},
                                                             {QStringLiteral("refinements"), it.round.grid.refinements},
                                                             {QStringLiteral("reason"), it.round.grid.reason}}}};
        if (it.dream) {
            QJsonArray versions;
            for (const DreamVersion &v : it.dream->versions)
                versions.append(QJsonObject{{QStringLiteral("id"), v.developed.version.id},
                                            {QStringLiteral("name"), v.developed.version.name},
                                            {QStringLiteral("value"), jsonNumber(v.developed.value)},
                                            {QStringLiteral("error"), v.developed.error.isEmpty()
                                                                          ? QJsonValue(QJsonValue::Null)
                                                                          : QJsonValue(v.developed.error)}});
            const DreamVersion *p = it.dream->proposal();
            row.insert(QStringLiteral("dream"),
                       QJsonObject{{QStringLiteral("versions"), versions},
                                   {QStringLiteral("proposed"), p ? QJsonValue(p->developed.version.id) : QJsonValue(QJsonValue::Null)},
                                   {QStringLiteral("approved"), it.approved ? QJsonValue(it.approved) : QJsonValue(QJsonValue::Null)}});
        }
        rows.append(row);
    }
    QJsonObject o{{QStringLiteral("fixed"), run.fixed}, {QStringLiteral("iterations"), rows}, {QStringLiteral("stopped"), run.stopped}};
    if (!run.error.isEmpty())
        o.insert(QStringLiteral("error"), run.error);
    return o;
}

QJsonObject RecursiveLoop::toJson(const QList<LoopReport> &runs)
{
    QJsonArray a;
    for (const LoopReport &r : runs)
        a.append(runJson(r));
    return QJsonObject{{QStringLiteral("runs"), a}};
}

} // namespace dreamrsi
