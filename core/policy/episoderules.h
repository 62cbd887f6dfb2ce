#pragma once

#include "gridplan.h"
#include "observation.h"
#include "policy.h"

#include <QString>
#include <QVarLengthArray>

#include <algorithm>
#include <optional>

namespace dreamrsi {

/// The rules an episode follows, written once for the three places that
/// run one: the live round (RoundTree), the replay engine (ReplayEngine::
/// runEpisode) and the compact engine (CompactReplay). Replay is only worth
/// something if it does what the live round would have done, so these are
/// not copies kept in step by tests but the same code
/// (docs/replay.md#an-episode, docs/policy-api.md#observations).
///
/// They are templates over the few facts they need, so that each engine
/// keeps its own cell representation (a Cell, the compact engine's facts)
/// and its speed.
namespace EpisodeRules {

/// The observation of a revealed cell whose metadata the caller built.
/// `parent` is the revealed parent of an attempt > 0 (null for attempt 0);
/// `CellLike` has the Cell fields score, evaluated, valid, failClass,
/// error, nValid and nTotal.
///
/// deltaVsBaseline = score − baseline; deltaVsParent = score − the parent's
/// score, or deltaVsBaseline for attempt 0; each empty when an operand is
/// not a number.
template <typename CellLike>
Observation observe(const CellLike &c, CellMeta meta, std::optional<double> baseline, const CellLike *parent)
{
    Observation o;
    const int attempt = meta.attempt;
    o.meta = std::move(meta);
    o.score = c.score;
    o.evaluated = c.evaluated;
    o.valid = c.valid;
    o.failClass = c.failClass;
    o.error = c.error;
    o.nValid = c.nValid;
    o.nTotal = c.nTotal;
    if (c.score && baseline)
        o.deltaVsBaseline = *c.score - *baseline;
    if (attempt == 0)
        o.deltaVsParent = o.deltaVsBaseline;
    else if (parent && c.score && parent->score)
        o.deltaVsParent = *c.score - *parent->score;
    return o;
}

/// Where each chosen cell sits in the legal list of the round.
using Places = QVarLengthArray<qsizetype, 32>;

/// Checks a batch against the legal list of the round and returns the
/// first fault, in the documented order
/// (docs/replay.md#illegal-batches-and-policy-errors): going through the
/// batch in order, an id that is not
/// legal now or one that repeats an earlier id; then more ids than
/// `workers`. Empty when the batch is legal; `places` then holds each
/// item's place in the legal list, in batch order.
///
/// `placeOf(item)` is the item's place in the legal list (< 0: not legal);
/// `idOf(item)` its cell id for the message. An id is legal at most once,
/// so a repeat is an item whose place an earlier item took.
template <typename Batch, typename PlaceOf, typename IdOf>
QString checkBatch(const Batch &batch, qsizetype legalCount, int workers, PlaceOf &&placeOf, IdOf &&idOf, Places *places)
{
    places->clear();
    // Small batches (every real one) look back over the places taken;
    // large ones mark them, so that a hostile batch stays linear.
    const bool mark = qsizetype(batch.size()) > 32;
    QVarLengthArray<bool, 32> taken(mark ? legalCount : 0, false);
    for (const auto &item : batch) {
        const qsizetype j = placeOf(item);
        if (j < 0)
            return QStringLiteral("id %1 is not legal").arg(idOf(item));
        const bool repeat = mark ? taken[j] : std::find(places->cbegin(), places->cend(), j) != places->cend();
        if (repeat)
            return QStringLiteral("id %1 appears twice in the batch").arg(idOf(item));
        if (mark)
            taken[j] = true;
        places->append(j);
    }
    if (qsizetype(batch.size()) > workers)
        return QStringLiteral("batch of %1 ids exceeds the %2 workers").arg(qsizetype(batch.size())).arg(workers);
    return {};
}

/// The reveal bookkeeping of one batch, in batch order: the cell at legal
/// place `places[b]` is revealed; its branch's next attempt takes that
/// place when `advance(place)` says the attempt exists (within the plan's
/// depth) and moved it there, otherwise `remove(place)` takes the place out
/// of the legal list and the later places of the batch shift down.
/// `reveal(place)` is called first for each cell.
template <typename PlacesLike, typename Reveal, typename Advance, typename Remove>
void revealBatch(PlacesLike &places, Reveal &&reveal, Advance &&advance, Remove &&remove)
{
    for (qsizetype b = 0; b < qsizetype(places.size()); ++b) {
        const auto j = places[b];
        reveal(j);
        if (advance(j))
            continue;
        remove(j);
        for (qsizetype later = b + 1; later < qsizetype(places.size()); ++later) {
            if (places[later] > j)
                --places[later];
        }
    }
}

/// What is wrong with the answer of planGrid to `context`, or empty:
/// the policy's own error, else a plan outside 1..hardMaxBranches branches
/// or 0..hardMaxRefinements refinements (docs/policy-api.md#plangrid).
/// Each caller says where (the live round names the policy, replay the
/// round); an answer without a plan and without an error is no fault.
inline QString checkGridPlan(const GridPlanResult &planned, const GridContext &context)
{
    if (!planned.error.isEmpty() || !planned.plan)
        return planned.error;
    const GridPlan &g = *planned.plan;
    if (g.branches < 1 || g.branches > context.hardMaxBranches)
        return QStringLiteral("planGrid: branches %1 is outside 1..%2").arg(g.branches).arg(context.hardMaxBranches);
    if (g.refinements < 0 || g.refinements > context.hardMaxRefinements)
        return QStringLiteral("planGrid: refinements %1 is outside 0..%2").arg(g.refinements).arg(context.hardMaxRefinements);
    return {};
}

} // namespace EpisodeRules

} // namespace dreamrsi
