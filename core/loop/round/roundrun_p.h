#pragma once

// The state of one live round while RoundRunner drives it: private to
// roundrunner.cpp (the driver: the rounds, batches, attempts, storing, the
// end), roundrunsetup.cpp (the run's set-up: the backend, the policy, a new
// iteration with its grid plan or a resumed one; the history, an attempt's
// context) and roundrunsteering.cpp (requests from the inbox). Not part of
// the API.

#include "roundjournal.h"
#include "roundrunner.h"
#include "task/task.h"
#include "roundtree.h"
#include "roundattempt.h"
#include "steeringbook.h"

#include "agent/agent.h"
#include "model/splitmix64.h"
#include "policy/policy.h"

#include <QHash>
#include <QSet>
#include <QStringList>

#include <functional>
#include <map>
#include <memory>
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
    Task task;
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
    /// The policy that picks the batches, and its stored version.
    std::unique_ptr<Policy> policy;
    PolicyVersionId policyVersion = 0;
    /// The probes of this round (RoundConfig::probe resolved by makePolicy())
    /// and the reason of each probe call made, by cell id.
    ProbeSetting probe;
    QHash<QString, QString> probeReasons;
    /// Rounds completed; the ids of a recorded batch still to run (a resume).
    int completed = 0;
    QStringList pending;

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

    /// The attempts in flight (runBatch), by cell id, as the driver watches them.
    std::map<QString, std::shared_ptr<RoundAttempt::Control>> running;
    /// While attempts run (every 200 ms): the round's kill passed on to
    /// them, an agent past its wall-clock limit ended, `kill` requests from
    /// the inbox applied, and the running attempts published (RoundLiveness).
    void watchRunning();
    /// Applies the `kill` requests waiting in the inbox (the other requests
    /// wait for the next batch). False on a store error.
    bool pollKills();
    /// Publishes the attempts in flight (attempts.json beside the inbox).
    void publishRunning();

    // RoundRunner::run() is setUp(), then openNewIteration() or
    // continueResumed(), then runRounds() and finish(). A step that returns
    // false has set `error` or `stopReason`; run() then closes the
    // iteration as stopped.

    /// The run's set-up (roundrunsetup.cpp): an agent, a backend and a
    /// project; the backend prepared; begin(); the first job checked with
    /// the backend; the policy resolved and created.
    bool setUp();

    /// Opens the iteration to run: the resumed one (loadResumed()), or reads
    /// the project and the task for a new one. False with `error` set.
    bool begin();

    /// The stored iteration config.resume: its task, grid, cells and history,
    /// announced as started again.
    bool loadResumed();

    /// Whether the backend would accept the first evaluation's job (a
    /// cluster that would refuse it is found before any agent call).
    bool checkFirstJob();

    /// Resolves and creates the policy of config.policy (`policy`,
    /// `policyVersion`, `manual`).
    bool makePolicy();

    /// A new iteration: the history, the baseline, the episode, the grid
    /// plan, the stored row, steering; announced as started.
    bool openNewIteration();

    /// The initial program's score (config.evaluateBaseline), or none. False
    /// when the backend refused the job.
    bool evaluateBaseline(std::optional<double> *baseline);

    /// The grid the iteration runs: the policy's planGrid (checked by
    /// EpisodeRules::checkGridPlan) or the fallback grid.
    bool planGrid(const QList<GridHistoryEntry> &entries, GridPlan *plan);

    /// Stores the new iteration's row and sets up its tree.
    bool storeNewIteration(const GridPlan &plan, std::optional<double> baseline);

    /// A resumed iteration: the recorded batch's ids still to run, the
    /// steering applied before, the policy's episode.
    bool continueResumed();

    /// The rounds (roundrunner.cpp), each a batch chosen (or the recorded
    /// one rerun) and run, until a stop, a limit or an error.
    void runRounds();

    /// Applies the waiting steering before a new batch; a paused round waits
    /// here for continue or Stop. False when the round ends.
    bool steerBeforeBatch();

    /// The one place the driver waits for a person: while `waiting()` holds
    /// and no stop was asked for, waits up to 100 ms (stop() ends the wait
    /// at once), then reads the inbox. False on a store error.
    bool waitWhile(const std::function<bool()> &waiting);

    /// The next fresh batch: the limits and caps checked, the pins first,
    /// then the researcher's (manual) or the policy's choice, cut to the
    /// call budget. False when the round ends.
    bool nextBatch(PolicyState &state, QStringList *batch);

    /// A manual round: waits for the researcher's batch out of `legal`.
    bool askResearcher(const QList<CellMeta> &legal, QStringList *chosen);

    /// The policy's batch for the workers the pins leave, checked against
    /// `legal` (the legal cells less pins and closed branches).
    bool askPolicy(PolicyState &state, const QStringList &pins, const QList<CellMeta> &legal, QStringList *chosen);

    /// Records `batch` in the journal, runs it and counts the round. `fresh`:
    /// chosen now, not a recorded batch run again.
    bool runRound(const QStringList &batch, bool fresh);

    /// After the policy's last batch: up to probe.budget() probe calls, one
    /// per round, each where the world model of the task's finished worlds
    /// and this round's cells is blind (Probes::next); stops at the call and
    /// cost budgets, a stop, or when nothing is blind. False on an error.
    bool runProbes();
    /// The task's finished replay worlds, as trees: the probes' history.
    bool loadProbeHistory(QList<ReplayWorld> *worlds);
    /// Whether stop() was called.
    bool stopAsked() const;

    /// Closes the iteration: finished, or stopped on a stop or an error.
    void finish();

    /// Marks the stored iteration (if one was opened) with `status`, then
    /// concludes.
    void closeIteration(IterationStatus status);

    /// Ends the run: steering refused from here, the summary, the last log
    /// line, finished().
    void conclude(IterationStatus status);
};

} // namespace dreamrsi
