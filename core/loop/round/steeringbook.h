#pragma once

#include "steeringinbox.h"

#include "policy/cellmeta.h"
#include "policy/policystate.h"
#include "store/storetypes.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

namespace dreamrsi {

class RoundTree;

/// What people did to one live round, and what it means for the next
/// batch (the round runner's driver thread owns it; not thread-safe).
///
/// - `close B`: branch B's leaf is never legal again.
/// - `refine B`: B's next attempt goes first in the next batch (a pin); the
///   policy is asked for the rest with W less the pins and a legal list
///   without them (and without closed branches). Pins are used by one batch.
/// - `hint B TEXT`: the text goes to the agent with B's next attempt (that
///   cell id is the event's target); `hint new TEXT` with the first new
///   branch a later batch opens.
/// - `pause` / `continue`: no new batch starts while paused.
///
/// Every applied request is a stored SteeringEvent; rebuild() recovers the
/// book from them and the recorded batches, so a resumed round honours
/// everything that was acknowledged before a crash.
class SteeringBook
{
public:
    /// Why `request` cannot be applied to the round now, or empty. A branch
    /// not opened, closed, or finished (its leaf no longer legal) is named.
    QString check(const SteeringRequest &request, const RoundTree &tree) const;
    /// The event an accepted request becomes (its target worked out).
    SteeringEvent eventFor(const SteeringRequest &request, const RoundTree &tree, IterationId iteration,
                           int round) const;
    /// Applies a stored event.
    void apply(const SteeringEvent &event);

    bool paused() const { return m_paused; }
    void setPaused(bool paused) { m_paused = paused; }
    bool isClosed(int branch) const { return m_closed.contains(branch); }
    /// The pins still legal in `tree`, in pin order, at most `workers`.
    QStringList pins(const RoundTree &tree, int workers) const;
    /// `legal` without closed branches and without `pins`.
    QList<CellMeta> policyLegal(const QList<CellMeta> &legal, const QStringList &pins) const;
    /// What the policy sees this round (state.steering).
    PolicySteering view(const RoundTree &tree, const QStringList &pins) const;
    /// A batch was recorded: its pins are used, new-branch hints go to the
    /// first new branches it opens.
    void noteBatch(const QStringList &batch);
    /// The hint for attempt `cellId`, empty when none.
    QString hintFor(const QString &cellId) const { return m_hints.value(cellId); }

    /// Rebuilds the book from an iteration's stored events (in order) and
    /// its recorded batches (index = round). A pin whose round has a
    /// recorded batch was used by it; a new-branch hint went to the first
    /// new branch of a batch from its round on.
    void rebuild(const QList<SteeringEvent> &events, const QList<QStringList> &batches);

    /// Branch numbers closed so far, ascending.
    QList<int> closedBranches() const;

private:
    QSet<int> m_closed;
    QStringList m_pins;                 ///< cell ids for the next batch
    QHash<QString, QString> m_hints;    ///< cell id -> hint text
    QStringList m_newHints;             ///< waiting for the next new branches
    bool m_paused = false;
};

} // namespace dreamrsi
