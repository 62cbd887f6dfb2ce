#pragma once

#include "cellmeta.h"
#include "observation.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace dreamrsi {

/// What a person did to a live round so far, as its policy sees it
/// (`state.steering` of a scripted policy): the branches they closed (never
/// legal again), the cells they pinned first in this round's batch (already
/// taken out of the legal list and of maxParallelism), and the hints waiting
/// for the next attempt of a branch ("3") or for the next new branch
/// ("new"). Empty in replay unless an iteration is replayed with its
/// steering applied.
struct PolicySteering
{
    QList<int> closed;                         ///< ascending
    QStringList pinned;                        ///< cell ids, in pin order
    QList<std::pair<QString, QString>> hints;  ///< (branch number or "new", text), in the order given

    bool isEmpty() const { return closed.isEmpty() && pinned.isEmpty() && hints.isEmpty(); }
    friend bool operator==(const PolicySteering &, const PolicySteering &) = default;
};

/// The state a policy decides from, one round of one episode (docs/policy-api.md#state).
///
/// Prefix-only by construction: it holds the revealed cells as observations
/// (in reveal order), the metadata of the cells legal now, and nothing else
/// of the world: no B, no S, no unrevealed outcome. The engine owns one per
/// episode and grows it incrementally between rounds (observations are only
/// appended); a policy gets it by const reference and cannot change it.
/// meta() and observation() build their id index on first use, so one state
/// is read by one thread at a time (as the engine does).
class PolicyState
{
public:
    PolicyState() = default;

    /// Rounds completed so far (k).
    int round() const { return m_round; }
    /// The budget preference of the episode, fixed within it.
    double beta() const { return m_beta; }
    /// W, the largest batch the engine accepts.
    int maxParallelism() const { return m_maxParallelism; }
    /// What a person did to the live round (PolicySteering); empty in replay.
    const PolicySteering &steering() const { return m_steering; }
    /// The world's `baseline_score`, if it has one.
    std::optional<double> baselineScore() const { return m_baselineScore; }

    /// Revealed cells, in reveal order.
    const QList<Observation> &observed() const { return m_observed; }
    /// Cells legal now (roots of unopened branches and frontiers of opened
    /// ones, after any grid restriction), sorted by (branch, attempt).
    const QList<CellMeta> &legal() const { return m_legal; }
    QStringList legalIds() const;
    /// The legal roots only, sorted by branch.
    QStringList legalRootIds() const;
    /// Branch ids with a revealed cell, ascending.
    const QList<int> &openedBranches() const { return m_openedBranches; }

    /// Metadata of a legal or revealed cell; nullptr for any other id.
    const CellMeta *meta(const QString &id) const;
    /// The observation of a revealed cell; nullptr when `id` is not revealed.
    const Observation *observation(const QString &id) const;

    // --- Building (the replay engine and live rounds; policies never call these) ---

    /// Starts a new episode: clears everything.
    void reset(double beta, int maxParallelism, std::optional<double> baselineScore);
    void setRound(int round) { m_round = round; }
    /// A live round with cells pinned by hand: W less the pins.
    void setMaxParallelism(int maxParallelism) { m_maxParallelism = maxParallelism; }
    void setSteering(PolicySteering steering) { m_steering = std::move(steering); }
    /// Appends a revealed cell; its branch becomes opened.
    void appendObservation(const Observation &observation);
    void appendObservation(Observation &&observation);
    /// Room for `count` observations (the engine: the world's cell count).
    void reserveObservations(qsizetype count) { m_observed.reserve(count); }
    /// Replaces the legal list (already sorted by (branch, attempt)).
    void setLegal(QList<CellMeta> legal);

private:
    int m_round = 0;
    double m_beta = 0.0;
    int m_maxParallelism = 1;
    std::optional<double> m_baselineScore;
    PolicySteering m_steering;
    QList<Observation> m_observed;
    QList<CellMeta> m_legal;
    QList<int> m_openedBranches;
    // Lookup indexes, built on the first meta()/observation() call after a
    // change (most policies never look up by id): id -> index.
    mutable QHash<QString, int> m_observedIndex; ///< covers m_observed[0, m_observedIndexed)
    mutable qsizetype m_observedIndexed = 0;
    mutable QHash<QString, int> m_legalIndex;
    mutable bool m_legalIndexed = false;
    void indexObserved() const;
};

} // namespace dreamrsi
