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

/// A script with its learned lines rewritten from the history.
struct Learned
{
    QString code;
    QStringList changes;             ///< what was rewritten, for the report; empty = nothing
};

/// Rewrites the learned parts of `code` from `stats`: the DIRECTION_PRIORITY
/// table (each direction's shrunk mean branch attainment, "*" the mean of
/// all branches, so a direction the history never tried ranks as an average
/// one rather than last), the DIRECTION_DEEPEST_GAIN table (the deepest
/// attempt at which each direction gained) and the learned floors of the stopping rules
/// (PATIENCE_FLOOR, STALL_FLOOR: one more than the longest drought or stall
/// after which the history shows a gain). These lines are never mutated:
/// a replay over revealed prefixes cannot see the gains that stopping sooner
/// would lose, so the search may only move the stopping rules above what the
/// history has shown, never below.
Learned learn(const QString &code, const HistoryStats &stats)
{
    Learned out{code, {}};
    if (stats.isEmpty())
        return out;
    const QString priorityTable = QStringLiteral("DIRECTION_PRIORITY");
    if (PolicyTunables::hasDirectionTable(out.code, priorityTable) && !stats.directions.isEmpty()) {
        QList<PolicyTunables::DirectionValue> table;
        QStringList order;
        for (const DirectionStats &d : stats.directions) {
            table.append({d.name, d.priority});
            if (order.size() < 4)
                order << QStringLiteral("%1 %2").arg(d.name.isEmpty() ? QStringLiteral("(untagged)") : d.name,
                                                     QString::number(d.priority, 'f', 3));
        }
        table.append({QStringLiteral("*"), stats.unseenPriority});
        const QString written = PolicyTunables::withDirectionTable(out.code, priorityTable, table);
        if (written != out.code) {
            out.code = written;
            out.changes << QStringLiteral("direction priority %1%2")
                               .arg(order.join(QStringLiteral(" > ")), stats.directions.size() > order.size() ? QStringLiteral(" > …") : QString());
        }
    }
    // The deepest attempt at which each direction gained: a cap on weak
    // directions never cuts a branch off above it.
    const QString depthTable = QStringLiteral("DIRECTION_DEEPEST_GAIN");
    if (PolicyTunables::hasDirectionTable(out.code, depthTable) && !stats.directions.isEmpty()) {
        QList<PolicyTunables::DirectionValue> table;
        for (const DirectionStats &d : stats.directions)
            table.append({d.name, double(std::max(d.deepestGain, 0))});
        const QString written = PolicyTunables::withDirectionTable(out.code, depthTable, table);
        if (written != out.code) {
            out.code = written;
            out.changes << QStringLiteral("deepest gain per direction");
        }
    }
    // Patience per direction: one more than the longest stall before a gain
    // each direction showed; "*" the history's own floor.
    const QString stallTable = QStringLiteral("DIRECTION_STALL");
    if (PolicyTunables::hasDirectionTable(out.code, stallTable) && !stats.directions.isEmpty()) {
        QList<PolicyTunables::DirectionValue> table;
        for (const DirectionStats &d : stats.directions)
            table.append({d.name, double(HistoryStats::stallFloorOf(d))});
        table.append({QStringLiteral("*"), double(stats.stallFloor())});
        const QString written = PolicyTunables::withDirectionTable(out.code, stallTable, table);
        if (written != out.code) {
            out.code = written;
            out.changes << QStringLiteral("stall floor per direction");
        }
    }
    // The evidence the history holds per attempt: probes skip what it knows.
    const QString evidenceTable = QStringLiteral("DEPTH_EVIDENCE");
    if (PolicyTunables::hasDirectionTable(out.code, evidenceTable) && !stats.evidenceAtAttempt.isEmpty()) {
        QList<PolicyTunables::DirectionValue> table;
        for (qsizetype a = 0; a < stats.evidenceAtAttempt.size(); ++a)
            table.append({QString::number(a), double(stats.evidenceAtAttempt.at(a))});
        const QString written = PolicyTunables::withDirectionTable(out.code, evidenceTable, table);
        if (written != out.code) {
            out.code = written;
            out.changes << QStringLiteral("evidence per attempt");
        }
    }
    const QList<PolicyTunable> tunables = PolicyTunables::parse(out.code);
    QStringList floors;
    for (qsizetype i = tunables.size() - 1; i >= 0; --i) { // from the end: offsets stay valid
        const PolicyTunable &t = tunables.at(i);
        if (!t.learned)
            continue;
        std::optional<double> value;
        if (t.name == QLatin1String("PATIENCE_FLOOR"))
            value = stats.patienceFloor();
        else if (t.name == QLatin1String("STALL_FLOOR"))
            value = stats.stallFloor();
        if (!value || *value == t.value)
            continue;
        out.code = PolicyTunables::withValue(out.code, t, *value);
        floors.prepend(QStringLiteral("%1 %2 → %3")
                           .arg(t.name, PolicyTunables::literal(t.value, t.integer), PolicyTunables::literal(*value, t.integer)));
    }
    out.changes << floors;
    return out;
}

/// A candidate the history asks for, before any random step.
struct Proposal
{
    QString code;
    QString what;
};

const PolicyTunable *findTunable(const QList<PolicyTunable> &tunables, const QString &name)
{
    for (const PolicyTunable &t : tunables) {
        if (t.name == name)
            return &t;
    }
    return nullptr;
}

/// `code` with the tunables named in `values` set (those it lacks are left
/// out of the change); `what` lists the changes, empty when nothing changed.
QString withValues(const QString &code, const QList<std::pair<QString, double>> &values, QStringList *what)
{
    QString out = code;
    // From the end of the file, so the offsets of one parse stay valid.
    QList<std::pair<PolicyTunable, double>> edits;
    const QList<PolicyTunable> tunables = PolicyTunables::parse(code);
    for (const auto &[name, value] : values) {
        const PolicyTunable *t = findTunable(tunables, name);
        if (t && !t->learned && t->value != value)
            edits.append({*t, value});
    }
    std::sort(edits.begin(), edits.end(),
              [](const auto &a, const auto &b) { return a.first.literalStart > b.first.literalStart; });
    for (const auto &[t, value] : edits) {
        out = PolicyTunables::withValue(out, t, value);
        what->prepend(QStringLiteral("%1 %2 → %3")
                          .arg(t.name, PolicyTunables::literal(t.value, t.integer), PolicyTunables::literal(value, t.integer)));
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

/// The candidates the history asks for (before the random steps), each new:
/// - directions: when some directions paid clearly more than the others, a
///   version that opens only those (SKIP_WEAK_ROOTS 1 with WEAK_SHARE at the
///   gap), one that also takes patience per direction, and one that only
///   ranks and caps them (SKIP_WEAK_ROOTS 0);
/// - probing: when the script does not probe and the history shows late
///   gains (or was stopped while improving), or holds too little evidence
///   (fewer than PROBE_EVIDENCE successes) at some attempt its grids allow,
///   versions with 3 and 2 probe calls.
/// The two kinds alternate in the list.
QList<Proposal> proposals(const QString &code, const HistoryStats &stats)
{
    QList<Proposal> directions, probes;
    if (stats.isEmpty())
        return {};
    const QList<PolicyTunable> tunables = PolicyTunables::parse(code);
    QList<Proposal> *into = &directions;
    auto propose = [&](const QList<std::pair<QString, double>> &values, const QString &why) {
        QStringList what;
        const QString written = withValues(code, values, &what);
        if (written == code)
            return;
        for (const Proposal &p : *into) {
            if (p.code == written)
                return;
        }
        into->append({written, QStringLiteral("%1 (%2)").arg(what.join(QStringLiteral(", ")), why)});
    };
    QStringList paying;
    if (const std::optional<double> share = payingShare(stats, &paying);
        share && findTunable(tunables, QStringLiteral("WEAK_SHARE")) && PolicyTunables::hasDirectionTable(code, QStringLiteral("DIRECTION_PRIORITY"))) {
        const QString why = QStringLiteral("the history's paying directions: %1").arg(paying.join(QStringLiteral(", ")));
        propose({{QStringLiteral("WEAK_SHARE"), *share}, {QStringLiteral("SKIP_WEAK_ROOTS"), 1}}, why);
        propose({{QStringLiteral("WEAK_SHARE"), *share}, {QStringLiteral("SKIP_WEAK_ROOTS"), 1}, {QStringLiteral("STALL_BY_DIRECTION"), 1}}, why);
        propose({{QStringLiteral("WEAK_SHARE"), *share}, {QStringLiteral("SKIP_WEAK_ROOTS"), 0}}, why);
    }
    into = &probes;
    const PolicyTunable *probe = findTunable(tunables, QStringLiteral("PROBE_CALLS"));
    const PolicyTunable *enough = findTunable(tunables, QStringLiteral("PROBE_EVIDENCE"));
    const int thin = thinAttempt(stats, enough ? int(enough->value) : 1);
    if (probe && probe->value == 0.0 && (showsLateGains(stats) || thin >= 0)) {
        const QString why = showsLateGains(stats)
                                ? QStringLiteral("late gains in the history: %1 of the gain at attempt 2 or later, %2 branches stopped while improving")
                                      .arg(QString::number(stats.lateGainShare(), 'f', 3))
                                      .arg(stats.stoppedWhileImproving)
                                : QStringLiteral("the history holds %1 successes at attempt %2, fewer than PROBE_EVIDENCE")
                                      .arg(stats.evidenceAtAttempt.value(thin, 0))
                                      .arg(thin);
        propose({{QStringLiteral("PROBE_CALLS"), 3}}, why);
        propose({{QStringLiteral("PROBE_CALLS"), 2}}, why);
    }
    // The two kinds in turn, so the first step tries one of each.
    QList<Proposal> out;
    for (qsizetype i = 0; i < std::max(directions.size(), probes.size()); ++i) {
        if (i < directions.size())
            out.append(directions.at(i));
        if (i < probes.size())
            out.append(probes.at(i));
    }
    return out;
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

DevelopmentOutcome PolicyImprover::develop(const DevelopmentContext &context, const std::atomic_bool &cancel)
{
    DevelopmentOutcome outcome;
    outcome.origin = PolicyOrigin::Agent;
    outcome.model = kind();
    outcome.usage.model = kind();
    outcome.usage.calls = 0;

    // The base: the best clean version so far; version m when none is clean.
    QList<DevelopedVersion> seen = context.history;
    seen.append(context.current);
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
    const DevelopedVersion *base = &seen.at(baseIndex);
    outcome.baseIndex = int(baseIndex);
    const QString baseCode = base->version.code;
    // The learned parts first; every candidate mutates that script.
    const Learned learned = learn(baseCode, context.worldStats);
    const QString startCode = learned.code;
    QList<PolicyTunable> tunables;
    for (const PolicyTunable &t : PolicyTunables::parse(startCode)) {
        if (!t.learned)
            tunables.append(t);
    }

    QStringList prompt;
    prompt << QStringLiteral("Built-in policy improver, step %1, seed %2.").arg(context.step).arg(context.seed);
    prompt << QStringLiteral("Base: %1 (mean value %2).").arg(base->version.name, formatValue(base->value));
    QStringList names;
    for (const PolicyTunable &t : tunables)
        names << QStringLiteral("%1=%2").arg(t.name, PolicyTunables::literal(t.value, t.integer));
    prompt << QStringLiteral("Tunables: %1.").arg(names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", ")));
    if (context.worldStats.isEmpty()) {
        prompt << QStringLiteral("History: no statistics.");
    } else {
        prompt << QStringLiteral("History: %1 worlds, %2 cells, %3 directions; stall floor %4, patience floor %5.")
                      .arg(context.worldStats.worlds)
                      .arg(context.worldStats.cells)
                      .arg(context.worldStats.directions.size())
                      .arg(context.worldStats.stallFloor())
                      .arg(context.worldStats.patienceFloor());
        prompt << QStringLiteral("Learned from it: %1.")
                      .arg(learned.changes.isEmpty() ? QStringLiteral("nothing the script can take") : learned.changes.join(QStringLiteral("; ")));
    }
    outcome.prompt = prompt.join(QLatin1Char('\n'));

    if (tunables.isEmpty() && startCode == baseCode) {
        outcome.error = QStringLiteral("%1 has no tunables for the built-in improver: it mutates top-level "
                                       "`const NAME = number;` lines (NAME in capitals), optionally annotated "
                                       "`// range [lo, hi]` or `// choice a|b|c`")
                            .arg(base->version.name);
        return outcome;
    }
    if (!context.evaluate) {
        outcome.error = QStringLiteral("the built-in improver needs a replay of its candidates, and none was given");
        return outcome;
    }

    QSet<QString> tried;
    for (const DevelopedVersion &v : seen)
        tried.insert(v.version.code);

    Random rng(context.seed ^ (quint64(context.step + 1) * 0xD1B54A32D192ED03ull));
    QStringList report;
    std::optional<double> bestValue;
    QString bestCode, bestChange;
    QString firstError;
    int written = 0;
    // Replays one candidate; false when the dream was cancelled.
    auto tryCandidate = [&](const QString &code, const QString &what) {
        tried.insert(code);
        ++written;
        const CandidateScore score = context.evaluate(code, cancel);
        if (score.cancelled || cancel.load())
            return false;
        if (!score.value) {
            if (firstError.isEmpty())
                firstError = score.error;
            report << QStringLiteral("- %1: failed: %2").arg(what, score.error);
            return true;
        }
        report << QStringLiteral("- %1: mean value %2").arg(what, formatValue(score.value));
        if (!bestValue || *score.value > *bestValue) {
            bestValue = score.value;
            bestCode = code;
            bestChange = what;
        }
        return true;
    };
    const QString learnedWhat = learned.changes.join(QStringLiteral(", "));
    // The learned script as it is: the first candidate when it is new.
    if (startCode != baseCode && !tried.contains(startCode) && !cancel.load() && !tryCandidate(startCode, learnedWhat)) {
        outcome.cancelled = true;
        outcome.error = QStringLiteral("cancelled");
        return outcome;
    }
    // What the history asks for (at most half the candidates, taken in turn
    // from step to step, so a proposal that lost does not crowd out the
    // random steps), then random steps.
    const QList<Proposal> asked = proposals(startCode, context.worldStats);
    const int askedNow = std::min<int>(int(asked.size()), std::max(1, m_candidates / 2));
    for (int i = 0; i < askedNow; ++i) {
        const Proposal &p = asked.at((std::max(0, context.step) + i) % asked.size());
        if (written >= m_candidates)
            break;
        if (tried.contains(p.code))
            continue;
        if (cancel.load() || !tryCandidate(p.code, learnedWhat.isEmpty() ? p.what : QStringLiteral("learned, ") + p.what)) {
            outcome.cancelled = true;
            outcome.error = QStringLiteral("cancelled");
            return outcome;
        }
    }
    for (int attempt = 0; !tunables.isEmpty() && written < m_candidates && attempt < m_candidates * 8; ++attempt) {
        if (cancel.load()) {
            outcome.cancelled = true;
            outcome.error = QStringLiteral("cancelled");
            return outcome;
        }
        // One or two tunables, distinct, edited from the end of the file so
        // the literal offsets stay valid.
        const int changes = std::min<int>(int(tunables.size()), 1 + rng.below(2));
        QList<int> picks;
        while (picks.size() < changes) {
            const int i = rng.below(int(tunables.size()));
            if (!picks.contains(i))
                picks.append(i);
        }
        std::sort(picks.begin(), picks.end(), std::greater<int>());
        QString code = startCode;
        QStringList change;
        for (const int i : picks) {
            const PolicyTunable &t = tunables.at(i);
            const std::optional<double> v = mutate(t, rng);
            if (!v)
                continue;
            code = PolicyTunables::withValue(code, t, *v);
            change.prepend(QStringLiteral("%1 %2 → %3")
                               .arg(t.name, PolicyTunables::literal(t.value, t.integer), PolicyTunables::literal(*v, t.integer)));
        }
        if (change.isEmpty() || tried.contains(code))
            continue;
        if (!learnedWhat.isEmpty())
            change.prepend(QStringLiteral("learned"));
        if (!tryCandidate(code, change.join(QStringLiteral(", ")))) {
            outcome.cancelled = true;
            outcome.error = QStringLiteral("cancelled");
            return outcome;
        }
    }
    outcome.usage.calls = written;

    QStringList response;
    response << QStringLiteral("Candidates replayed (%1):").arg(written);
    response << report;
    if (bestCode.isEmpty()) {
        outcome.error = written == 0 ? QStringLiteral("the built-in improver found no untried variant of %1").arg(base->version.name)
                                     : QStringLiteral("every candidate of the built-in improver failed; the first: %1").arg(firstError);
        response << outcome.error;
        outcome.response = response.join(QLatin1Char('\n'));
        return outcome;
    }
    const bool better = !base->value || *bestValue > *base->value;
    response << (better ? QStringLiteral("Kept %1 (mean value %2 > %3 of the base).")
                              .arg(bestChange, formatValue(bestValue), formatValue(base->value))
                        : QStringLiteral("No candidate beat the base (%1); the best one, %2 (%3), is proposed "
                                         "for the record and the next step climbs from the base again.")
                              .arg(formatValue(base->value), bestChange, formatValue(bestValue)));
    outcome.response = response.join(QLatin1Char('\n'));
    outcome.code = bestCode;
    outcome.ok = true;
    return outcome;
}

} // namespace dreamrsi
