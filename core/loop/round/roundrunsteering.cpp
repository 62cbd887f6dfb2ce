// RoundRunner::Run: steering requests from the inbox, applied before each
// batch (docs/steering.md). Private part of RoundRunner (roundrun_p.h).
#include "roundrun_p.h"

#include "store/projectstore.h"
#include "store/storeawait.h"

#include "steeringinbox.h"

namespace dreamrsi {

bool RoundRunner::Run::beginSteering(bool resumed)
{
    projectPath = q->m_store->path();
    if (resumed) {
        const StoreResult<QList<SteeringEvent>> events = await(q->m_store->steeringEvents(iteration));
        if (!events.ok()) {
            error = events.error;
            return false;
        }
        book.rebuild(*events.value, journal().batches());
        for (const SteeringEvent &e : *events.value)
            appliedRequests.insert(e.requestId);
        if (!events.value->isEmpty())
            log(QStringLiteral("steering: %1 earlier interventions honoured").arg(events.value->size()));
        if (book.paused()) {
            book.setPaused(false);
            log(QStringLiteral("steering: the round was paused; resuming it continues it"));
        }
    }
    if (!q->m_config.acceptSteering && !manual)
        return true;
    if (const Result<Done> published = SteeringInbox::publish(projectPath, SteeringLive{0, QStringLiteral("round"), iteration, {}});
        !published.ok()) {
        error = QStringLiteral("cannot accept steering: ") + published.error;
        return false;
    }
    steerable = true;
    log(QStringLiteral("accepting steering requests (dreamrsi steer --project %1)").arg(projectPath));
    return true;
}

void RoundRunner::Run::endSteering()
{
    if (!steerable)
        return;
    steerable = false;
    SteeringInbox::unpublish(projectPath);
    QList<SteeringAck> acks;
    for (const SteeringRequest &r : SteeringInbox::pending(projectPath, &acks))
        acks.append(SteeringAck{r.id, false, QStringLiteral("the round has ended (iteration %1)").arg(iteration), 0});
    for (const SteeringAck &ack : std::as_const(acks))
        SteeringInbox::acknowledge(projectPath, ack); // the round is over: nobody to tell of a failure
}

QString RoundRunner::Run::describeEvent(const SteeringEvent &e)
{
    QString what;
    if (e.action == QLatin1String("close"))
        what = QStringLiteral("closed branch b%1").arg(e.branch.value_or(-1));
    else if (e.action == QLatin1String("refine"))
        what = QStringLiteral("pinned %1 first in the next batch").arg(e.target);
    else if (e.action == QLatin1String("hint") && e.target == QLatin1String("new"))
        what = QStringLiteral("hint for the next new branch: \"%1\"").arg(e.text);
    else if (e.action == QLatin1String("hint"))
        what = QStringLiteral("hint for %1: \"%2\"").arg(e.target, e.text);
    else if (e.action == QLatin1String("pause"))
        what = QStringLiteral("paused the round after the current batch");
    else if (e.action == QLatin1String("continue"))
        what = QStringLiteral("continued the round");
    else if (e.action == QLatin1String("batch"))
        what = e.text.isEmpty() ? QStringLiteral("picked an empty batch (the round ends)")
                                : QStringLiteral("picked the batch %1").arg(e.text);
    else
        what = e.action;
    return what;
}

QString RoundRunner::Run::manualCheck(const SteeringRequest &r, int round) const
{
    if (r.action != QLatin1String("batch")) {
        if (r.action == QLatin1String("refine"))
            return QStringLiteral("this round is manual: put b%1's next attempt in the batch you pick").arg(r.branch.value_or(-1));
        return book.check(r, tree);
    }
    if (!manual)
        return QStringLiteral("this round is not manual: its policy picks the batches");
    if (manualBatch)
        return QStringLiteral("round %1 has its batch already").arg(round + 1);
    const QStringList ids = r.text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (const QString illegal = RoundTree::checkBatchAgainst(ids, book.policyLegal(tree.legal(), {}), workers);
        !illegal.isEmpty())
        return illegal;
    return {};
}

bool RoundRunner::Run::pollSteering(int round)
{
    if (!steerable)
        return true;
    QList<SteeringAck> unreadable;
    const QList<SteeringRequest> requests = SteeringInbox::pending(projectPath, &unreadable);
    for (const SteeringRequest &r : requests) {
        SteeringAck ack;
        ack.id = r.id;
        if (appliedRequests.contains(r.id)) {
            ack.applied = true;
            ack.message = QStringLiteral("%1: applied before the round was resumed").arg(r.describe());
        } else if (r.action == QLatin1String("kill")) {
            // Kills are applied while attempts run (pollKills); between batches none does.
            ack.message = QStringLiteral("%1 is not running (no attempt runs between batches)").arg(r.attempt);
        } else if (const QString refusal = manual || r.action == QLatin1String("batch") ? manualCheck(r, round)
                                                                                        : book.check(r, tree);
                   !refusal.isEmpty()) {
            ack.message = refusal;
            log(QStringLiteral("steering: refused %1 from %2: %3")
                    .arg(r.describe(), r.by.isEmpty() ? QStringLiteral("someone") : r.by, refusal));
        } else {
            SteeringEvent e = book.eventFor(r, tree, iteration, round);
            if (r.action == QLatin1String("batch"))
                e.text = r.text.split(QLatin1Char(' '), Qt::SkipEmptyParts).join(QLatin1Char(' '));
            const StoreResult<qint64> id = await(q->m_store->addSteeringEvent(e));
            if (!id.ok()) {
                error = id.error;
                return false;
            }
            e.id = *id.value;
            book.apply(e);
            if (e.action == QLatin1String("batch"))
                manualBatch = e.text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
            appliedRequests.insert(r.id);
            ack.applied = true;
            ack.eventId = e.id;
            ack.message = QStringLiteral("%1 before round %2").arg(describeEvent(e)).arg(round + 1);
            log(QStringLiteral("steering: %1 %2%3")
                    .arg(e.who.isEmpty() ? QStringLiteral("someone") : e.who, ack.message,
                         e.why.isEmpty() ? QString() : QStringLiteral(" (why: %1)").arg(e.why)));
            emit q->steered(e);
        }
        if (const Result<Done> answered = SteeringInbox::acknowledge(projectPath, ack); !answered.ok())
            log(QStringLiteral("steering: cannot answer request %1: %2").arg(r.id, answered.error));
    }
    for (const SteeringAck &ack : std::as_const(unreadable))
        SteeringInbox::acknowledge(projectPath, ack);
    return true;
}

} // namespace dreamrsi
