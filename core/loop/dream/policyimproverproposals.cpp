// What the history suggests to the built-in improver
// (docs/online.md#what-the-history-suggests): a kind of candidate each,
// offered at most once per dream, in the order of what the history shows.
#include "policyimprover_p.h"

#include <algorithm>
#include <cmath>

namespace dreamrsi::ImproverRules {

namespace {

/// The share of the best priority that separates the directions that paid
/// from the others: the widest relative gap between consecutive priorities of
/// named directions seen on at least two branches, when the lower side is
/// below 0.9 of the upper (a real separation). The share is the gap's midpoint
/// over the best priority; nothing when the history shows no such gap.
std::optional<double> payingShare(const HistoryStats &stats, QStringList *paying)
{
    QList<const DirectionStats *> named;
    for (const DirectionStats &d : stats.directions) {
        if (!d.name.isEmpty() && d.branches >= 2)
            named.append(&d);
    }
    if (named.size() < 2 || named.first()->priority <= 0.0)
        return std::nullopt; // directions are sorted by priority already
    qsizetype split = -1;
    double lowest = 0.9;
    for (qsizetype i = 0; i + 1 < named.size(); ++i) {
        const double upper = named.at(i)->priority, lower = named.at(i + 1)->priority;
        if (upper > 0.0 && lower / upper < lowest) {
            lowest = lower / upper;
            split = i;
        }
    }
    if (split < 0)
        return std::nullopt;
    for (qsizetype i = 0; i <= split; ++i)
        paying->append(named.at(i)->name);
    const double mid = 0.5 * (named.at(split)->priority + named.at(split + 1)->priority);
    return std::round(mid / named.first()->priority * 1e4) / 1e4;
}

/// Whether the history shows gains a stopping rule would cut off or never
/// reach: gains at attempt 2 or later, branches still improving when they
/// were stopped, or a gain after a stall.
bool showsLateGains(const HistoryStats &stats)
{
    return stats.lateGainShare() > 0.0 || stats.stoppedWhileImproving > 0 || stats.longestStallBeforeGain > 0;
}

/// The first attempt ≥ 1 within the history's grids at which it holds fewer
/// than `enough` cells showing what a success scores there; -1 when none.
int thinAttempt(const HistoryStats &stats, int enough)
{
    for (int a = 1; a <= stats.deepestGridAttempt; ++a) {
        if (stats.evidenceAtAttempt.value(a, 0) < enough)
            return a;
    }
    return -1;
}

double valueOf(const QList<PolicyTunable> &tunables, const QString &name, double fallback)
{
    const PolicyTunable *t = findTunable(tunables, name);
    return t ? t->value : fallback;
}

/// BASE and SLOPE of a rule `BASE + floor(SLOPE·β)` set so that it gives
/// `target` at the deployed β: the slope kept when the base that fits it is
/// in range, else the slope 0 and the base `target`.
QList<std::pair<QString, double>> effectiveAt(const QList<PolicyTunable> &tunables, const QString &base, const QString &slope,
                                             double target, double beta)
{
    const double s = valueOf(tunables, slope, 0.0);
    const PolicyTunable *b = findTunable(tunables, base);
    const double lowest = b && b->low ? *b->low : 0.0;
    const double keep = target - std::floor(s * beta);
    if (keep >= lowest)
        return {{base, keep}, {slope, s}};
    return {{base, std::max(target, lowest)}, {slope, 0.0}};
}

/// The tunables of a script, asked by name.
struct Tunables
{
    QList<PolicyTunable> list;
    bool has(const char *name) const { return findTunable(list, QLatin1String(name)) != nullptr; }
    double value(const char *name, double fallback) const { return valueOf(list, QLatin1String(name), fallback); }
};

/// Frugal: no refinement, stopping after a round without a new best or after
/// the first round, half the roots, one root.
QList<Proposal> frugalProposals(const Tunables &t, double beta, double refined)
{
    QList<Proposal> frugal;
    const QList<PolicyTunable> &tunables = t.list;
    const QString frugalWhy = QStringLiteral("refinements brought %1 of the history's gain").arg(QString::number(refined, 'f', 3));
    if (t.has("STALL_BASE") && t.has("STALL_SLOPE")) {
        QList<std::pair<QString, double>> v = effectiveAt(tunables, QStringLiteral("STALL_BASE"), QStringLiteral("STALL_SLOPE"), 0.0, beta);
        v.append({QStringLiteral("STALL_FLOOR"), 0.0});
        v.append({QStringLiteral("STALL_BY_DIRECTION"), 0.0});
        frugal.append({QStringLiteral("frugal: no refinement"), v, frugalWhy});
    }
    if (t.has("PATIENCE_BASE") && t.has("PATIENCE_SLOPE")) {
        QList<std::pair<QString, double>> v = effectiveAt(tunables, QStringLiteral("PATIENCE_BASE"), QStringLiteral("PATIENCE_SLOPE"), 1.0, beta);
        v.append({QStringLiteral("PATIENCE_FLOOR"), 0.0});
        frugal.append({QStringLiteral("frugal: stop after a round without a new best"), v, frugalWhy});
    }
    if (t.has("ROOT_SHARE")) {
        const double share = t.value("ROOT_SHARE", 1.0);
        frugal.append({QStringLiteral("frugal: half the roots"), {{QStringLiteral("ROOT_SHARE"), std::round(share * 0.5 * 1e4) / 1e4}}, frugalWhy});
    }
    if (t.has("PATIENCE_BASE") && t.has("PATIENCE_SLOPE")) {
        QList<std::pair<QString, double>> v = effectiveAt(tunables, QStringLiteral("PATIENCE_BASE"), QStringLiteral("PATIENCE_SLOPE"), 0.0, beta);
        v.append({QStringLiteral("PATIENCE_FLOOR"), 0.0});
        frugal.append({QStringLiteral("frugal: stop after the first round"), v, frugalWhy});
    }
    if (t.has("ROOT_SHARE") && t.has("FIRST_SHARE"))
        frugal.append({QStringLiteral("frugal: one root at a time"),
                       {{QStringLiteral("ROOT_SHARE"), 0.0}, {QStringLiteral("FIRST_SHARE"), 0.0}, {QStringLiteral("ROOT_BASE"), 1.0},
                        {QStringLiteral("FIRST_BASE"), 1.0}},
                       frugalWhy});
    return frugal;
}

/// Deep: a probe first (the cheapest way past patience), then more patience,
/// a longer probe, more patience on fewer roots.
QList<Proposal> deepProposals(const Tunables &t, const HistoryStats &stats, double beta, int workers, bool late)
{
    QList<Proposal> deep;
    const QList<PolicyTunable> &tunables = t.list;
    const QString deepWhy = late ? QStringLiteral("late gains in the history: %1 of the gain at attempt 2 or later, %2 branches stopped while improving")
                                      .arg(QString::number(stats.lateGainShare(), 'f', 3))
                                      .arg(stats.stoppedWhileImproving)
                                : QStringLiteral("the deep end of the family (the history shows no late gain)");
    std::optional<Proposal> probeSix, deepNarrow;
    if (t.has("PROBE_CALLS") && t.value("PROBE_CALLS", 0) == 0.0) {
        const int thin = thinAttempt(stats, int(t.value("PROBE_EVIDENCE", 1)));
        if (late || thin >= 0) {
            const QString why = late ? deepWhy
                                     : QStringLiteral("the history holds %1 successes at attempt %2, fewer than PROBE_EVIDENCE")
                                           .arg(stats.evidenceAtAttempt.value(thin, 0))
                                           .arg(thin);
            deep.append({QStringLiteral("deep: probe 3"), {{QStringLiteral("PROBE_CALLS"), 3}}, why});
            probeSix = Proposal{QStringLiteral("deep: probe 6"), {{QStringLiteral("PROBE_CALLS"), 6}}, why};
        }
    }
    if (t.has("STALL_BASE") && t.has("PATIENCE_BASE")) {
        const double p = t.value("STALL_BASE", 1) + std::floor(t.value("STALL_SLOPE", 0) * beta);
        const double g = t.value("PATIENCE_BASE", 1) + std::floor(t.value("PATIENCE_SLOPE", 0) * beta);
        QList<std::pair<QString, double>> v =
            effectiveAt(tunables, QStringLiteral("STALL_BASE"), QStringLiteral("STALL_SLOPE"), std::max(p + 2.0, double(stats.stallFloor())), beta);
        const double gTarget = std::max(g + 1.0, std::ceil(double(stats.patienceFloor()) / std::max(1, workers)));
        v << effectiveAt(tunables, QStringLiteral("PATIENCE_BASE"), QStringLiteral("PATIENCE_SLOPE"), gTarget, beta);
        deep.append({QStringLiteral("deep: more patience"), v, deepWhy});
        QList<std::pair<QString, double>> narrow = v;
        if (t.has("ROOT_SHARE"))
            narrow.append({QStringLiteral("ROOT_SHARE"), std::round(t.value("ROOT_SHARE", 1.0) * 0.5 * 1e4) / 1e4});
        deepNarrow = Proposal{QStringLiteral("deep: more patience, half the roots"), narrow, deepWhy};
    }
    if (probeSix)
        deep.append(*probeSix);
    if (deepNarrow)
        deep.append(*deepNarrow);
    return deep;
}

/// Floors: what the history shows, offered both ways.
QList<Proposal> floorProposals(const Tunables &t, const HistoryStats &stats)
{
    if (!t.has("PATIENCE_FLOOR") && !t.has("STALL_FLOOR"))
        return {};
    return {{QStringLiteral("floors: the history's"),
             {{QStringLiteral("PATIENCE_FLOOR"), double(stats.patienceFloor())}, {QStringLiteral("STALL_FLOOR"), double(stats.stallFloor())}},
             QStringLiteral("longest drought before a new best %1, longest stall before a gain %2")
                 .arg(stats.longestDroughtBeforeGain)
                 .arg(stats.longestStallBeforeGain)},
            {QStringLiteral("floors: none"), {{QStringLiteral("PATIENCE_FLOOR"), 0.0}, {QStringLiteral("STALL_FLOOR"), 0.0}},
             QStringLiteral("the stopping rules without floors")}};
}

/// Directions: opening only the directions that paid (with and without
/// patience per direction) or only ranking them, when priorities show a gap.
QList<Proposal> directionProposals(const Tunables &t, const QString &code, const HistoryStats &stats)
{
    QList<Proposal> directions;
    QStringList paying;
    if (const std::optional<double> share = payingShare(stats, &paying);
        share && t.has("WEAK_SHARE") && PolicyTunables::hasDirectionTable(code, QStringLiteral("DIRECTION_PRIORITY"))) {
        const QString why = QStringLiteral("the history's paying directions: %1").arg(paying.join(QStringLiteral(", ")));
        directions.append({QStringLiteral("directions: only the paying"), {{QStringLiteral("WEAK_SHARE"), *share}, {QStringLiteral("SKIP_WEAK_ROOTS"), 1}}, why});
        directions.append({QStringLiteral("directions: only the paying, frugal"),
                           {{QStringLiteral("WEAK_SHARE"), *share}, {QStringLiteral("SKIP_WEAK_ROOTS"), 1}, {QStringLiteral("ROOT_SHARE"), 0.5}},
                           why});
        directions.append({QStringLiteral("directions: only the paying, patience per direction"),
                           {{QStringLiteral("WEAK_SHARE"), *share}, {QStringLiteral("SKIP_WEAK_ROOTS"), 1}, {QStringLiteral("STALL_BY_DIRECTION"), 1}},
                           why});
        directions.append({QStringLiteral("directions: rank and cap"), {{QStringLiteral("WEAK_SHARE"), *share}, {QStringLiteral("SKIP_WEAK_ROOTS"), 0}}, why});
    }
    return directions;
}


} // namespace

/// The share of the history's gain that came from refinements (attempts
/// ≥ 1); 0 when the history gained nothing.
double refinementShare(const HistoryStats &stats)
{
    double total = 0.0, refined = 0.0;
    for (qsizetype a = 0; a < stats.gainAtAttempt.size(); ++a) {
        total += std::max(0.0, stats.gainAtAttempt.at(a));
        if (a >= 1)
            refined += std::max(0.0, stats.gainAtAttempt.at(a));
    }
    return total > 0.0 ? refined / total : 0.0;
}

/// The candidates the history asks for, in order of what it shows, each a
/// kind offered at most once per dream (docs/online.md#what-the-history-suggests):
/// - frugal: no refinement, stopping after a round without a new best or
///   after the first round, fewer roots, one root — first when refinements
///   brought (almost) none of the history's gain;
/// - deep: more patience per branch and for the episode, the same with fewer
///   roots, probing past patience — first when the history shows late gains
///   or too little evidence at some depth;
/// - floors: the history's longest stall and drought as floors of P and G,
///   or no floors — proposals, never constraints;
/// - directions: opening only the directions that paid (with and without
///   patience per direction) or only ranking them, when priorities show a gap.
QList<Proposal> proposals(const QString &code, const HistoryStats &stats, double beta, int workers)
{
    if (stats.isEmpty())
        return {};
    const Tunables tunables{PolicyTunables::parse(code)};
    const double refined = refinementShare(stats);
    const bool late = showsLateGains(stats);
    QList<Proposal> frugal = frugalProposals(tunables, beta, refined);
    QList<Proposal> deep = deepProposals(tunables, stats, beta, workers, late);
    QList<Proposal> floors = floorProposals(tunables, stats);
    QList<Proposal> directions = directionProposals(tunables, code, stats);

    // The groups in the order of what the history shows, taken in turn.
    QList<QList<Proposal> *> groups;
    if (!directions.isEmpty())
        groups.append(&directions);
    if (refined < 0.1)
        groups.append(&frugal);
    if (late)
        groups.append(&deep);
    for (QList<Proposal> *g : {&frugal, &deep, &floors}) {
        if (!groups.contains(g))
            groups.append(g);
    }
    QList<Proposal> out;
    for (qsizetype i = 0;; ++i) {
        bool any = false;
        for (QList<Proposal> *g : groups) {
            if (i < g->size()) {
                out.append(g->at(i));
                any = true;
            }
        }
        if (!any)
            break;
    }
    return out;
}

} // namespace dreamrsi::ImproverRules
