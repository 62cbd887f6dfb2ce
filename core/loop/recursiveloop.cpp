#include "recursiveloop.h"

#include "autoapproval.h"
#include "roundrunner.h"

#include "store/projectstore.h"

#include <QEventLoop>
#include <QJsonArray>

namespace dreamrsi {

namespace {

QJsonValue jsonNumber(const std::optional<double> &x)
{
    return x ? QJsonValue(*x) : QJsonValue(QJsonValue::Null);
}

} // namespace

RecursiveLoop::RecursiveLoop(ProjectStore *store, std::shared_ptr<DiscoveryAgent> agent,
                             std::shared_ptr<EvaluationBackend> backend, std::shared_ptr<PolicyDeveloper> developer,
                             QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_agent(std::move(agent))
    , m_backend(std::move(backend))
    , m_developer(std::move(developer))
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
    if (!m_store || !m_agent || !m_backend) {
        report.error = QStringLiteral("the loop needs an open project, an agent and an evaluation backend");
        return report;
    }
    if (!settings.fixed && !m_developer) {
        report.error = QStringLiteral("the loop needs a policy developer to dream (or run it --fixed)");
        return report;
    }
    if (settings.iterations < 1) {
        report.error = QStringLiteral("the number of iterations must be at least 1 (got %1)").arg(settings.iterations);
        return report;
    }
    const int total = settings.iterations;
    const quint64 seed0 = settings.round.seed;
    std::optional<PolicyVersion> pinned;
    qint64 calls = 0;
    std::optional<double> best;

    for (int t = 1; t <= total; ++t) {
        if (m_stop.load()) {
            report.stopped = true;
            break;
        }
        StoreResult<PolicyVersion> policy =
            pinned ? StoreResult<PolicyVersion>::success(*pinned) : Dreamer::deployedVersion(*m_store);
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
        RoundConfig config = settings.round;
        config.policy = policy.value->name;
        config.seed = seed0 + quint64(t - 1);
        config.agent.seed = config.seed;
        config.resume = 0;
        emit message(QStringLiteral("iteration %1/%2%3: round with %4")
                         .arg(t)
                         .arg(total)
                         .arg(settings.fixed ? QStringLiteral(" (fixed)") : QString(), it.policyName));
        {
            RoundRunner runner(m_store, config, m_agent, m_backend);
            connect(&runner, &RoundRunner::logLine, this, &RecursiveLoop::message, Qt::DirectConnection);
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
        }
        calls += it.round.counters.calls;
        if (it.round.counters.bestScore && (!best || *it.round.counters.bestScore > *best))
            best = it.round.counters.bestScore;
        it.cumulativeCalls = calls;
        it.bestScore = best;
        if (!it.round.ok()) {
            report.iterations.append(it);
            report.error = QStringLiteral("round %1: %2").arg(t).arg(it.round.error);
            break;
        }
        if (it.round.status != IterationStatus::Finished || m_stop.load()) {
            report.iterations.append(it);
            report.stopped = true;
            break;
        }

        if (!settings.fixed && t < total) {
            const StoreResult<QList<DreamWorld>> worlds = Dreamer::finishedWorlds(*m_store);
            if (!worlds.ok()) {
                report.iterations.append(it);
                report.error = worlds.error;
                break;
            }
            DreamSettings dream = settings.dream;
            dream.seed = settings.dream.seed + quint64(t - 1);
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
                report.iterations.append(it);
                report.error = QStringLiteral("dream after round %1: %2").arg(t).arg(dr.error);
                break;
            }
            if (dr.cancelled) {
                report.iterations.append(it);
                report.stopped = true;
                break;
            }
            if (const DreamVersion *p = dr.proposal()) {
                if (settings.autoApprove) {
                    const StoreResult<qint64> a =
                        approveAutomatically(*m_store, dr, dr.proposed, *worlds.value, QStringLiteral("dreamrsi loop"));
                    if (!a.ok()) {
                        report.iterations.append(it);
                        report.error = QStringLiteral("cannot record the approval: %1").arg(a.error);
                        break;
                    }
                    it.approved = p->developed.version.id;
                    emit message(QStringLiteral("approved %1 automatically (mean value %2)")
                                     .arg(p->developed.version.name, QString::number(*p->developed.value, 'g', 6)));
                } else {
                    emit message(QStringLiteral("%1 is proposed but not approved (no automatic approval): the deployed "
                                                "version stays")
                                     .arg(p->developed.version.name));
                }
            }
        }
        report.iterations.append(it);
        emit iterationFinished(t, total);
    }
    return report;
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
