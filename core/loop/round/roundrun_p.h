#pragma once

// The state of one live round while RoundRunner drives it: private to
// roundrunner.cpp (the driver: attempts, storing, batches), roundrunsetup.cpp
// (a new or resumed iteration, the history, an attempt's context) and
// roundrunsteering.cpp (requests from the inbox). Not part of the API.

#include "roundjournal.h"
#include "roundrunner.h"
#include "roundtask.h"
#include "roundtree.h"
#include "roundattempt.h"
#include "steeringbook.h"

#include "agent/agent.h"
#include "model/splitmix64.h"

#include <QSet>
#include <QStringList>

#include <optional>

namespace dreamrsi {

namespace RoundRunPrivate {

/// Per-attempt seeds that differ in every bit.
inline quint64 mix(quint64 x)
{
    return SplitMix64::mix(x);
}

/// What the agent sees of an earlier attempt.
AttemptRecord recordOf(const Cell &c, qint64 iteration);

} // namespace RoundRunPrivate

struct RoundRunner::Run
{
    RoundRunner *q;
    RoundTask task;
    RoundTree tree;
    IterationInfo info;
    IterationId iteration = 0;
    QString artifactDir;
    QString iterationDir;          ///< attempts/<iteration>
    double beta = 0.5;
    int workers = 1;
    RoundCounters counters;
    QList<AttemptRecord> history;  ///< earlier iterations, then this one's cells
    QString stopReason;
    QString error;
    /// Steering (RoundConfig::acceptSteering): the book of what was applied,
    /// the project whose inbox is read, the requests already stored as
    /// events (a request seen again after a crash is acknowledged, not
    /// applied twice).
    SteeringBook book;
    QString projectPath;
    bool steerable = false;
    QSet<QString> appliedRequests;
    /// Manual exploration (RoundPolicy::manual): the batch a person picked
    /// for the next round, once a `batch` request was applied.
    bool manual = false;
    std::optional<QStringList> manualBatch;

    explicit Run(RoundRunner *runner) : q(runner) {}

    void log(const QString &line) { emit q->logLine(line); }

    /// The resume journal of this iteration (its rounds/<k>.json).
    RoundJournal journal() const { return RoundJournal(iterationDir); }

    /// On resume, rebuilds the steering applied before (honoured whether or
    /// not this run accepts steering); then, when the round accepts it,
    /// starts accepting requests (live.json).
    bool beginSteering(bool resumed);

    /// Stops accepting requests: every request still waiting is refused.
    void endSteering();

    /// What an applied event did, in words.
    static QString describeEvent(const SteeringEvent &e);

    /// Why request `r` cannot be applied to a manual round (or why a batch
    /// cannot go to a round that is not manual), or empty.
    QString manualCheck(const SteeringRequest &r, int round) const;

    /// Applies the requests waiting in the inbox, before round `round`.
    /// False on a store error (the round stops).
    bool pollSteering(int round);

    /// Counts a stored cell (RoundSession::count), best score from the tree.
    void addCounters(const Cell &c);

    /// The cells of earlier iterations of `taskName` (what the agent sees of
    /// them) and, for planGrid, one entry per earlier live round. False on a store error.
    bool loadHistory(const QString &taskName, QList<GridHistoryEntry> *entries);

    /// What attempt `id` of round `round` is given: its workspace, its
    /// parent, its direction, a researcher's hint, its seed.
    RoundAttempt::Job jobFor(const QString &id, int round) const;

    /// The cell a finished attempt is stored as, with its AttemptPayload.
    Cell cellOf(const RoundAttempt::Outcome &r, const AgentUsage &usage) const;

    /// Stores one finished attempt: its artifacts, then the cell. False on a store error.
    bool store(const RoundAttempt::Outcome &r);

    /// Runs the ids of one round on the pool and stores them as they finish.
    bool runBatch(int round, const QStringList &ids);

    /// Opens the iteration to run: the resumed one (config.resume), or reads
    /// the project and the task for a new one. False with `error` set.
    bool begin();
};

} // namespace dreamrsi
