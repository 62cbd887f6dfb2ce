#include "policyimprover.h"

#include "model/splitmix64.h"

#include "historystats.h"
#include "policytunables.h"

#include <QSet>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <functional>

namespace dreamrsi {

namespace {

/// splitmix64: small, portable and the same on every platform.
/// The improver's draws (uniform(), below()): splitmix64.
class Random : public SplitMix64
{
public:
    using SplitMix64::SplitMix64;
    double unit() { return uniform(); }
};

QString formatValue(const std::optional<double> &v)
{
    return v ? QString::number(*v, 'f', 6) : QStringLiteral("none");
}

/// A new value for `t`, different from its current one when possible.
std::optional<double> mutate(const PolicyTunable &t, Random &rng)
{
    if (!t.choices.isEmpty()) {
        QList<double> others = t.choices;
        others.removeAll(t.value);
        if (others.isEmpty())
            return std::nullopt;
        return others.at(rng.below(int(others.size())));
    }
    const bool nonNegative = t.value >= 0.0;
    auto clamp = [&](double v) {
        if (t.low)
            v = std::max(v, *t.low);
        if (t.high)
            v = std::min(v, *t.high);
        if (!t.low && nonNegative)
            v = std::max(v, 0.0);
        return v;
    };
    for (int attempt = 0; attempt < 6; ++attempt) {
        double v = t.value;
        if (t.integer) {
            static const int steps[] = {-2, -1, 1, 2};
            v = clamp(t.value + steps[rng.below(4)]);
        } else if (t.low && t.high && *t.high > *t.low) {
            const double span = *t.high - *t.low;
            const double step = span * (0.05 + 0.25 * rng.unit());
            v = clamp(t.value + (rng.below(2) ? step : -step));
            v = std::round(v * 1e6) / 1e6; // keep literals short
        } else {
            const double factor = 1.0 + 0.1 + 0.4 * rng.unit();
            v = rng.below(2) ? t.value * factor : t.value / factor;
            if (t.value == 0.0)
                v = 0.1 * (1.0 + rng.unit());
            v = clamp(std::round(v * 1e6) / 1e6);
        }
        if (v != t.value)
            return v;
    }
    return std::nullopt;
}

/// A script with its learned tables rewritten from the history.
struct Learned
{
    QString code;
    QStringList changes;             ///< what was rewritten, for the report; empty = nothing
};

/// Rewrites the learned tables of `code` from `stats`: DIRECTION_PRIORITY
/// (each direction's shrunk mean branch attainment, "*" the mean of all
/// branches, so a direction the history never tried ranks as an average one
/// rather than last), DIRECTION_DEEPEST_GAIN (the deepest attempt at which
/// each direction gained), DIRECTION_STALL (per direction, one more than the
/// longest stall before a gain) and DEPTH_EVIDENCE (per attempt, the cells
/// that show what a success there scores). Tables are knowledge, not rules:
/// each switch that acts on them is a tunable. Numbers are never rewritten
/// here; what the history suggests for them is a proposal (proposals()).
Learned learnTables(const QString &code, const HistoryStats &stats)
{
    Learned out{code, {}};
    if (stats.isEmpty())
        return out;
    auto write = [&](const QString &table, const QList<PolicyTunables::DirectionValue> &entries, const QString &what) {
        if (!PolicyTunables::hasDirectionTable(out.code, table) || entries.isEmpty())
            return;
        const QString written = PolicyTunables::withDirectionTable(out.code, table, entries);
        if (written != out.code) {
            out.code = written;
            out.changes << what;
        }
    };
    if (!stats.directions.isEmpty()) {
        QList<PolicyTunables::DirectionValue> priority, deepest, stall;
        QStringList order;
        for (const DirectionStats &d : stats.directions) {
            priority.append({d.name, d.priority});
            deepest.append({d.name, double(std::max(d.deepestGain, 0))});
            stall.append({d.name, double(HistoryStats::stallFloorOf(d))});
            if (order.size() < 4)
                order << QStringLiteral("%1 %2").arg(d.name.isEmpty() ? QStringLiteral("(untagged)") : d.name,
                                                     QString::number(d.priority, 'f', 3));
        }
        priority.append({QStringLiteral("*"), stats.unseenPriority});
        stall.append({QStringLiteral("*"), double(stats.stallFloor())});
        write(QStringLiteral("DIRECTION_PRIORITY"), priority,
              QStringLiteral("direction priority %1%2")
                  .arg(order.join(QStringLiteral(" > ")), stats.directions.size() > order.size() ? QStringLiteral(" > …") : QString()));
        write(QStringLiteral("DIRECTION_DEEPEST_GAIN"), deepest, QStringLiteral("deepest gain per direction"));
        write(QStringLiteral("DIRECTION_STALL"), stall, QStringLiteral("stall floor per direction"));
    }
    QList<PolicyTunables::DirectionValue> evidence;
    for (qsizetype a = 0; a < stats.evidenceAtAttempt.size(); ++a)
        evidence.append({QString::number(a), double(stats.evidenceAtAttempt.at(a))});
    write(QStringLiteral("DEPTH_EVIDENCE"), evidence, QStringLiteral("evidence per attempt"));
    return out;
}

const PolicyTunable *findTunable(const QList<PolicyTunable> &tunables, const QString &name)
{
    for (const PolicyTunable &t : tunables) {
        if (t.name == name)
            return &t;
    }
    return nullptr;
}

QString changeText(const TunableChange &c)
{
    return QStringLiteral("%1 %2 → %3").arg(c.name, PolicyTunables::literal(c.from, c.integer), PolicyTunables::literal(c.to, c.integer));
}

QString changesText(const QList<TunableChange> &changes)
{
    QStringList parts;
    for (const TunableChange &c : changes)
        parts << changeText(c);
    return parts.join(QStringLiteral(", "));
}

/// `code` with the tunables named in `values` set (those it lacks, and
/// values it already has, are left out); `changes` lists what changed.
/// Every number line is a tunable here, `learned` ones of older scripts too:
/// nothing is a one-way constraint.
QString withValues(const QString &code, const QList<std::pair<QString, double>> &values, QList<TunableChange> *changes)
{
    QString out = code;
    // From the end of the file, so the offsets of one parse stay valid.
    QList<std::pair<PolicyTunable, double>> edits;
    const QList<PolicyTunable> tunables = PolicyTunables::parse(code);
    for (const auto &[name, value] : values) {
        const PolicyTunable *t = findTunable(tunables, name);
        if (!t || t->value == value)
            continue;
        double v = value;
        if (t->low)
            v = std::max(v, *t->low);
        if (t->high)
            v = std::min(v, *t->high);
        if (v != t->value)
            edits.append({*t, v});
    }
    std::sort(edits.begin(), edits.end(),
              [](const auto &a, const auto &b) { return a.first.literalStart > b.first.literalStart; });
    for (const auto &[t, value] : edits) {
        out = PolicyTunables::withValue(out, t, value);
        changes->prepend(TunableChange{t.name, t.value, value, t.integer});
    }
    return out;
}

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

/// A candidate the history asks for, before any random step.
struct Proposal
{
    QString key;                     ///< the kind, offered once per dream
    QList<std::pair<QString, double>> values;
    QString why;
};

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
    const QList<PolicyTunable> tunables = PolicyTunables::parse(code);
    auto has = [&](const char *name) { return findTunable(tunables, QLatin1String(name)) != nullptr; };
    auto value = [&](const char *name, double fallback) { return valueOf(tunables, QLatin1String(name), fallback); };
    QList<Proposal> frugal, deep, floors, directions;
    const double refined = refinementShare(stats);

    // Frugal.
    const QString frugalWhy = QStringLiteral("refinements brought %1 of the history's gain").arg(QString::number(refined, 'f', 3));
    if (has("STALL_BASE") && has("STALL_SLOPE")) {
        QList<std::pair<QString, double>> v = effectiveAt(tunables, QStringLiteral("STALL_BASE"), QStringLiteral("STALL_SLOPE"), 0.0, beta);
        v.append({QStringLiteral("STALL_FLOOR"), 0.0});
        v.append({QStringLiteral("STALL_BY_DIRECTION"), 0.0});
        frugal.append({QStringLiteral("frugal: no refinement"), v, frugalWhy});
    }
    if (has("PATIENCE_BASE") && has("PATIENCE_SLOPE")) {
        QList<std::pair<QString, double>> v = effectiveAt(tunables, QStringLiteral("PATIENCE_BASE"), QStringLiteral("PATIENCE_SLOPE"), 1.0, beta);
        v.append({QStringLiteral("PATIENCE_FLOOR"), 0.0});
        frugal.append({QStringLiteral("frugal: stop after a round without a new best"), v, frugalWhy});
    }
    if (has("ROOT_SHARE")) {
        const double share = value("ROOT_SHARE", 1.0);
        frugal.append({QStringLiteral("frugal: half the roots"), {{QStringLiteral("ROOT_SHARE"), std::round(share * 0.5 * 1e4) / 1e4}}, frugalWhy});
    }
    if (has("PATIENCE_BASE") && has("PATIENCE_SLOPE")) {
        QList<std::pair<QString, double>> v = effectiveAt(tunables, QStringLiteral("PATIENCE_BASE"), QStringLiteral("PATIENCE_SLOPE"), 0.0, beta);
        v.append({QStringLiteral("PATIENCE_FLOOR"), 0.0});
        frugal.append({QStringLiteral("frugal: stop after the first round"), v, frugalWhy});
    }
    if (has("ROOT_SHARE") && has("FIRST_SHARE"))
        frugal.append({QStringLiteral("frugal: one root at a time"),
                       {{QStringLiteral("ROOT_SHARE"), 0.0}, {QStringLiteral("FIRST_SHARE"), 0.0}, {QStringLiteral("ROOT_BASE"), 1.0},
                        {QStringLiteral("FIRST_BASE"), 1.0}},
                       frugalWhy});

    // Deep.
    const bool late = showsLateGains(stats);
    const QString deepWhy = late ? QStringLiteral("late gains in the history: %1 of the gain at attempt 2 or later, %2 branches stopped while improving")
                                      .arg(QString::number(stats.lateGainShare(), 'f', 3))
                                      .arg(stats.stoppedWhileImproving)
                                : QStringLiteral("the deep end of the family (the history shows no late gain)");
    // Deep: a probe first (the cheapest way past patience), then more
    // patience, a longer probe, more patience on fewer roots.
    std::optional<Proposal> probeSix, deepNarrow;
    if (has("PROBE_CALLS") && value("PROBE_CALLS", 0) == 0.0) {
        const int thin = thinAttempt(stats, int(value("PROBE_EVIDENCE", 1)));
        if (late || thin >= 0) {
            const QString why = late ? deepWhy
                                     : QStringLiteral("the history holds %1 successes at attempt %2, fewer than PROBE_EVIDENCE")
                                           .arg(stats.evidenceAtAttempt.value(thin, 0))
                                           .arg(thin);
            deep.append({QStringLiteral("deep: probe 3"), {{QStringLiteral("PROBE_CALLS"), 3}}, why});
            probeSix = Proposal{QStringLiteral("deep: probe 6"), {{QStringLiteral("PROBE_CALLS"), 6}}, why};
        }
    }

    if (has("STALL_BASE") && has("PATIENCE_BASE")) {
        const double p = value("STALL_BASE", 1) + std::floor(value("STALL_SLOPE", 0) * beta);
        const double g = value("PATIENCE_BASE", 1) + std::floor(value("PATIENCE_SLOPE", 0) * beta);
        QList<std::pair<QString, double>> v =
            effectiveAt(tunables, QStringLiteral("STALL_BASE"), QStringLiteral("STALL_SLOPE"), std::max(p + 2.0, double(stats.stallFloor())), beta);
        const double gTarget = std::max(g + 1.0, std::ceil(double(stats.patienceFloor()) / std::max(1, workers)));
        v << effectiveAt(tunables, QStringLiteral("PATIENCE_BASE"), QStringLiteral("PATIENCE_SLOPE"), gTarget, beta);
        deep.append({QStringLiteral("deep: more patience"), v, deepWhy});
        QList<std::pair<QString, double>> narrow = v;
        if (has("ROOT_SHARE"))
            narrow.append({QStringLiteral("ROOT_SHARE"), std::round(value("ROOT_SHARE", 1.0) * 0.5 * 1e4) / 1e4});
        deepNarrow = Proposal{QStringLiteral("deep: more patience, half the roots"), narrow, deepWhy};
    }
    if (probeSix)
        deep.append(*probeSix);
    if (deepNarrow)
        deep.append(*deepNarrow);

    // Floors: what the history shows, offered both ways.
    if (has("PATIENCE_FLOOR") || has("STALL_FLOOR")) {
        floors.append({QStringLiteral("floors: the history's"),
                       {{QStringLiteral("PATIENCE_FLOOR"), double(stats.patienceFloor())}, {QStringLiteral("STALL_FLOOR"), double(stats.stallFloor())}},
                       QStringLiteral("longest drought before a new best %1, longest stall before a gain %2")
                           .arg(stats.longestDroughtBeforeGain)
                           .arg(stats.longestStallBeforeGain)});
        floors.append({QStringLiteral("floors: none"), {{QStringLiteral("PATIENCE_FLOOR"), 0.0}, {QStringLiteral("STALL_FLOOR"), 0.0}},
                       QStringLiteral("the stopping rules without floors")});
    }

    // Directions.
    QStringList paying;
    if (const std::optional<double> share = payingShare(stats, &paying);
        share && has("WEAK_SHARE") && PolicyTunables::hasDirectionTable(code, QStringLiteral("DIRECTION_PRIORITY"))) {
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

/// A value one step from `t`'s, up (`up`) or down, for the check of which
/// tunables act: ±1 for an integer, a tenth of the range (or ×/÷ 1.25) for a
/// real, the next or previous alternative of a choice; none at a bound.
std::optional<double> neighbour(const PolicyTunable &t, bool up)
{
    double v = t.value;
    if (!t.choices.isEmpty()) {
        const qsizetype i = t.choices.indexOf(t.value);
        const qsizetype j = up ? i + 1 : i - 1;
        if (i < 0 || j < 0 || j >= t.choices.size())
            return std::nullopt;
        return t.choices.at(j);
    }
    if (t.integer)
        v += up ? 1.0 : -1.0;
    else if (t.low && t.high && *t.high > *t.low)
        v += (up ? 0.1 : -0.1) * (*t.high - *t.low);
    else
        v = t.value == 0.0 ? (up ? 0.1 : -0.1) : (up ? t.value * 1.25 : t.value / 1.25);
    if (t.low)
        v = std::max(v, *t.low);
    if (t.high)
        v = std::min(v, *t.high);
    if (!t.low && !t.integer && t.value >= 0.0)
        v = std::max(v, 0.0);
    if (!t.low && t.integer && t.value >= 0.0)
        v = std::max(v, 0.0);
    v = std::round(v * 1e6) / 1e6;
    if (v == t.value)
        return std::nullopt;
    return v;
}

} // namespace

PolicyImprover::PolicyImprover(int candidates)
    : m_candidates(std::max(1, candidates))
{
}

QString PolicyImprover::kind() const
{
    return QStringLiteral("builtin-improver");
}

namespace {

/// One step of the improver: the base, the learned script, the candidates
/// and what they scored. Every candidate goes through `tryCandidate`, which
/// values a behaviour once per dream and replaces what changes nothing at the
/// deployed β.
class ImproverStep
{
public:
    ImproverStep(const DevelopmentContext &context, const std::atomic_bool &cancel, int candidates, DreamMemory &memory)
        : m_context(context)
        , m_cancel(cancel)
        , m_target(candidates)
        , m_memory(memory)
        , m_rng(context.seed ^ (quint64(context.step + 1) * 0xD1B54A32D192ED03ull))
    {
    }

    DevelopmentOutcome run();

private:
    enum class Tried { New, Wasted, Skipped, Cancelled };

    const DevelopedVersion &chooseBase(QList<DevelopedVersion> &seen, int *index) const;
    Tried tryCandidate(const QString &code, const QString &kind, const QString &why, const QList<TunableChange> &changes);
    /// Whether `code` does at the deployed β, on the cheap probe, what the
    /// start script or an earlier candidate already does: then it is not
    /// worth a full replay.
    bool screenedOut(const QString &code);
    /// The tunables of the start script that change what it does at the
    /// deployed β (one step up or down), checked once per start script.
    QList<PolicyTunable> actingTunables();
    bool cancelled(DevelopmentOutcome &outcome) const
    {
        if (!m_cancel.load() && !m_wasCancelled)
            return false;
        outcome.cancelled = true;
        outcome.error = QStringLiteral("cancelled");
        return true;
    }

    const DevelopmentContext &m_context;
    const std::atomic_bool &m_cancel;
    const int m_target;
    DreamMemory &m_memory;
    Random m_rng;

    QString m_baseName;
    QString m_startCode;
    std::optional<quint64> m_startDeployed; ///< the start script's behaviour at the deployed β
    CandidateScore m_lastScore;              ///< what the last candidate scored
    QList<int> m_candidates;
    QStringList m_report;
    std::optional<double> m_bestValue;
    QString m_bestCode, m_bestChange;
    int m_bestIndex = -1;
    QString m_firstError;
    int m_counted = 0;                       ///< candidates with a new behaviour that acts
    int m_replays = 0;
    bool m_wasCancelled = false;
};

const DevelopedVersion &ImproverStep::chooseBase(QList<DevelopedVersion> &seen, int *index) const
{
    // The best clean version so far; version m when none is clean.
    qsizetype baseIndex = seen.size() - 1;
    for (qsizetype i = 0; i < seen.size(); ++i) {
        const DevelopedVersion &v = seen.at(i);
        const DevelopedVersion &b = seen.at(baseIndex);
        if (v.value && v.error.isEmpty() && (!b.value || !b.error.isEmpty() || *v.value > *b.value))
            baseIndex = i;
    }
    if (seen.at(baseIndex).version.code.trimmed().isEmpty()) {
        for (qsizetype i = 0; i < seen.size(); ++i) {
            if (!seen.at(i).version.code.trimmed().isEmpty()) {
                baseIndex = i;
                break;
            }
        }
    }
    *index = int(baseIndex);
    return seen.at(baseIndex);
}

ImproverStep::Tried ImproverStep::tryCandidate(const QString &code, const QString &kind, const QString &why,
                                               const QList<TunableChange> &changes)
{
    if (m_memory.codes.contains(code))
        return Tried::Skipped;
    m_memory.codes.insert(code);
    ++m_replays;
    const CandidateScore score = m_context.evaluate(code, m_cancel);
    m_lastScore = score;
    if (score.cancelled || m_cancel.load()) {
        m_wasCancelled = true;
        return Tried::Cancelled;
    }
    CandidateRecord record;
    record.index = int(m_memory.candidates.size());
    record.parent = m_baseName;
    record.code = code;
    record.kind = kind;
    record.why = why;
    record.changes = changes;
    record.value = score.value;
    record.error = score.error;
    const int index = int(m_memory.candidates.size());
    const QString what = changes.isEmpty() ? why : QStringLiteral("%1 (%2)").arg(changesText(changes), why);
    bool wasted = false;
    if (score.behaviour && m_memory.behaviours.contains(*score.behaviour)) {
        record.duplicate = true;
        record.duplicateOf = m_memory.behaviours.value(*score.behaviour);
        m_report << (record.duplicateOf >= 0
                         ? QStringLiteral("- %1: the same behaviour as candidate %2, replaced").arg(what).arg(record.duplicateOf + 1)
                         : QStringLiteral("- %1: the same behaviour as a version of this dream, replaced").arg(what));
        wasted = true;
    } else {
        if (score.behaviour)
            m_memory.behaviours.insert(*score.behaviour, index);
        if (kind != QLatin1String("learned") && m_startDeployed && score.deployedBehaviour && *score.deployedBehaviour == *m_startDeployed) {
            record.inertAtDeployedBeta = true;
            for (const TunableChange &c : changes)
                m_memory.inertTunables.insert(c.name);
            m_report << QStringLiteral("- %1: changes nothing at the deployed β %2, replaced").arg(what).arg(m_context.deployedBeta);
            wasted = true;
        }
    }
    if (!wasted) {
        if (!score.value) {
            if (m_firstError.isEmpty())
                m_firstError = score.error;
            m_report << QStringLiteral("- %1: failed: %2").arg(what, score.error);
        } else {
            m_report << QStringLiteral("- %1: mean value %2").arg(what, formatValue(score.value));
            if (!m_bestValue || *score.value > *m_bestValue) {
                m_bestValue = score.value;
                m_bestCode = code;
                m_bestChange = what;
                m_bestIndex = index;
            }
        }
        ++m_counted;
    }
    m_memory.candidates.append(record);
    m_candidates.append(index);
    return wasted ? Tried::Wasted : Tried::New;
}

bool ImproverStep::screenedOut(const QString &code)
{
    if (!m_context.deployedBehaviour || m_memory.codes.contains(code))
        return false;
    const std::optional<quint64> b = m_context.deployedBehaviour(code, m_cancel);
    if (!b || m_cancel.load())
        return false;
    if (m_memory.probed.contains(*b)) {
        m_memory.codes.insert(code);
        ++m_memory.screened;
        return true;
    }
    m_memory.probed.insert(*b);
    return false;
}

QList<PolicyTunable> ImproverStep::actingTunables()
{
    QList<PolicyTunable> all;
    for (const PolicyTunable &t : PolicyTunables::parse(m_startCode)) {
        if (!m_memory.inertTunables.contains(t.name))
            all.append(t);
    }
    if (!m_context.deployedBehaviour)
        return all;
    if (const auto known = m_memory.actingByStart.constFind(m_startCode); known != m_memory.actingByStart.cend()) {
        QList<PolicyTunable> acting;
        for (const PolicyTunable &t : all) {
            if (known->contains(t.name))
                acting.append(t);
        }
        return acting;
    }
    const std::optional<quint64> start = m_context.deployedBehaviour(m_startCode, m_cancel);
    if (!start)
        return all;
    m_memory.probed.insert(*start);
    QList<PolicyTunable> acting;
    for (const PolicyTunable &t : all) {
        bool acts = false;
        for (const bool up : {true, false}) {
            const std::optional<double> v = neighbour(t, up);
            if (!v || m_cancel.load())
                continue;
            const std::optional<quint64> b = m_context.deployedBehaviour(PolicyTunables::withValue(m_startCode, t, *v), m_cancel);
            if (!b || *b != *start) {
                acts = true;
                break;
            }
        }
        if (acts)
            acting.append(t);
        else
            m_memory.inertTunables.insert(t.name);
    }
    if (!m_cancel.load()) {
        QStringList names;
        for (const PolicyTunable &t : acting)
            names << t.name;
        m_memory.actingByStart.insert(m_startCode, names);
    }
    return acting;
}

DevelopmentOutcome ImproverStep::run()
{
    DevelopmentOutcome outcome;
    outcome.origin = PolicyOrigin::Agent;
    outcome.model = QStringLiteral("builtin-improver");
    outcome.usage.model = outcome.model;
    outcome.usage.calls = 0;

    QList<DevelopedVersion> seen = m_context.history;
    seen.append(m_context.current);
    int baseIndex = 0;
    const DevelopedVersion &base = chooseBase(seen, &baseIndex);
    outcome.baseIndex = baseIndex;
    m_baseName = base.version.name;
    const QString baseCode = base.version.code;
    // The learned tables first; every candidate starts from that script.
    const Learned learned = learnTables(baseCode, m_context.worldStats);
    m_startCode = learned.code;
    const QList<PolicyTunable> tunables = PolicyTunables::parse(m_startCode);

    QStringList prompt;
    prompt << QStringLiteral("Built-in policy improver, step %1, seed %2, deployed β %3.")
                  .arg(m_context.step)
                  .arg(m_context.seed)
                  .arg(m_context.deployedBeta);
    prompt << QStringLiteral("Base: %1 (mean value %2).").arg(base.version.name, formatValue(base.value));
    QStringList names;
    for (const PolicyTunable &t : tunables)
        names << QStringLiteral("%1=%2").arg(t.name, PolicyTunables::literal(t.value, t.integer));
    prompt << QStringLiteral("Tunables: %1.").arg(names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", ")));
    const HistoryStats &stats = m_context.worldStats;
    if (stats.isEmpty()) {
        prompt << QStringLiteral("History: no statistics.");
    } else {
        prompt << QStringLiteral("History: %1 worlds, %2 cells, %3 directions; longest stall before a gain %4, longest drought %5; "
                                 "refinements brought %6 of the gain.")
                      .arg(stats.worlds)
                      .arg(stats.cells)
                      .arg(stats.directions.size())
                      .arg(stats.longestStallBeforeGain)
                      .arg(stats.longestDroughtBeforeGain)
                      .arg(QString::number(refinementShare(stats), 'f', 3));
        prompt << QStringLiteral("Learned from it: %1.")
                      .arg(learned.changes.isEmpty() ? QStringLiteral("nothing the script can take") : learned.changes.join(QStringLiteral("; ")));
    }
    outcome.prompt = prompt.join(QLatin1Char('\n'));

    if (tunables.isEmpty() && m_startCode == baseCode) {
        outcome.error = QStringLiteral("%1 has no tunables for the built-in improver: it mutates top-level "
                                       "`const NAME = number;` lines (NAME in capitals), optionally annotated "
                                       "`// range [lo, hi]` or `// choice a|b|c`")
                            .arg(base.version.name);
        return outcome;
    }
    if (!m_context.evaluate) {
        outcome.error = QStringLiteral("the built-in improver needs a replay of its candidates, and none was given");
        return outcome;
    }

    // Every version of the dream is known: none is a candidate again, and
    // their behaviours count as seen.
    for (const DevelopedVersion &v : seen)
        m_memory.codes.insert(v.version.code);
    const int limit = m_target * 3; // replays per step, wasted ones included

    // The learned script as it is: the first candidate when it is new; else
    // the base's own behaviour is the reference (a replay the dreamer has cached).
    bool haveReference = false;
    if (m_startCode != baseCode) {
        const Tried t = tryCandidate(m_startCode, QStringLiteral("learned"), learned.changes.join(QStringLiteral(", ")), {});
        if (t == Tried::Cancelled && cancelled(outcome))
            return outcome;
        if (t != Tried::Skipped) {
            m_startDeployed = m_lastScore.deployedBehaviour;
            haveReference = true;
        }
    }
    if (!haveReference) {
        const CandidateScore reference = m_context.evaluate(m_startCode, m_cancel);
        if (reference.cancelled && cancelled(outcome))
            return outcome;
        m_startDeployed = reference.deployedBehaviour;
        if (reference.behaviour && !m_memory.behaviours.contains(*reference.behaviour))
            m_memory.behaviours.insert(*reference.behaviour, -1); // a version's behaviour, not a candidate's
    }

    // Which tunables act at the deployed β (and the start's behaviour
    // there, against which candidates are screened).
    QList<PolicyTunable> acting = actingTunables();
    if (cancelled(outcome))
        return outcome;

    // What the history suggests (at most half the candidates of a step; each
    // kind once per dream), then random steps over the tunables that act.
    const QList<Proposal> asked = proposals(m_startCode, stats, m_context.deployedBeta, m_context.workers);
    int askedNow = 0;
    const int askedMax = std::max(1, m_target / 2);
    for (const Proposal &p : asked) {
        if (askedNow >= askedMax || m_counted >= m_target || m_replays >= limit)
            break;
        if (m_memory.proposalsOffered.contains(p.key))
            continue;
        QList<TunableChange> changes;
        const QString code = withValues(m_startCode, p.values, &changes);
        if (code == m_startCode || m_memory.codes.contains(code))
            continue;
        m_memory.proposalsOffered.insert(p.key);
        if (screenedOut(code)) {
            m_report << QStringLiteral("- %1 (%2): does at the deployed β what another script of this dream does, not replayed")
                            .arg(changesText(changes), p.key);
            continue;
        }
        const Tried t = tryCandidate(code, QStringLiteral("proposal"), QStringLiteral("%1: %2").arg(p.key, p.why), changes);
        if (t == Tried::Cancelled && cancelled(outcome))
            return outcome;
        if (t == Tried::New)
            ++askedNow;
    }
    for (int attempt = 0; !acting.isEmpty() && m_counted < m_target && m_replays < limit && attempt < m_target * 8; ++attempt) {
        if (cancelled(outcome))
            return outcome;
        // One or two tunables, distinct, edited from the end of the file so
        // the literal offsets stay valid.
        const int changes = std::min<int>(int(acting.size()), 1 + m_rng.below(2));
        QList<int> picks;
        while (picks.size() < changes) {
            const int i = m_rng.below(int(acting.size()));
            if (!picks.contains(i))
                picks.append(i);
        }
        std::sort(picks.begin(), picks.end(), [&](int a, int b) { return acting.at(a).literalStart > acting.at(b).literalStart; });
        QString code = m_startCode;
        QList<TunableChange> change;
        for (const int i : picks) {
            const PolicyTunable &t = acting.at(i);
            const std::optional<double> v = mutate(t, m_rng);
            if (!v)
                continue;
            code = PolicyTunables::withValue(code, t, *v);
            change.prepend(TunableChange{t.name, t.value, *v, t.integer});
        }
        if (change.isEmpty() || m_memory.codes.contains(code) || screenedOut(code))
            continue;
        const Tried t = tryCandidate(code, QStringLiteral("random"), QStringLiteral("random step"), change);
        if (t == Tried::Cancelled && cancelled(outcome))
            return outcome;
        // What turned out inert leaves the pool.
        for (qsizetype i = acting.size() - 1; i >= 0; --i) {
            if (m_memory.inertTunables.contains(acting.at(i).name))
                acting.removeAt(i);
        }
    }
    outcome.usage.calls = m_replays;
    outcome.candidates = m_candidates;

    QStringList response;
    response << QStringLiteral("Candidates replayed (%1, %2 with a new behaviour that acts at the deployed β):").arg(m_replays).arg(m_counted);
    response << m_report;
    if (m_bestCode.isEmpty()) {
        outcome.error = m_replays == 0 ? QStringLiteral("the built-in improver found no untried variant of %1").arg(base.version.name)
                        : m_counted == 0 ? QStringLiteral("every candidate of the built-in improver repeated a behaviour or changed nothing at the deployed β")
                                         : QStringLiteral("every candidate of the built-in improver failed; the first: %1").arg(m_firstError);
        response << outcome.error;
        outcome.response = response.join(QLatin1Char('\n'));
        return outcome;
    }
    m_memory.candidates[m_bestIndex].kept = true;
    const bool better = !base.value || *m_bestValue > *base.value;
    response << (better ? QStringLiteral("Kept %1 (mean value %2 > %3 of the base).")
                              .arg(m_bestChange, formatValue(m_bestValue), formatValue(base.value))
                        : QStringLiteral("No candidate beat the base (%1); the best one, %2 (%3), is proposed "
                                         "for the record and the next step climbs from the base again.")
                              .arg(formatValue(base.value), m_bestChange, formatValue(m_bestValue)));
    outcome.response = response.join(QLatin1Char('\n'));
    outcome.code = m_bestCode;
    outcome.ok = true;
    return outcome;
}

} // namespace

DevelopmentOutcome PolicyImprover::develop(const DevelopmentContext &context, const std::atomic_bool &cancel)
{
    DreamMemory own;
    DreamMemory &memory = context.memory ? *context.memory : own;
    ImproverStep step(context, cancel, m_candidates, memory);
    return step.run();
}

} // namespace dreamrsi
