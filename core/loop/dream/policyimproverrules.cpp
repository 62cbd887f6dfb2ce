// The built-in improver's draws and edits of tunables and its learned tables
// (docs/online.md#dreaming); what the history suggests is in
// policyimproverproposals.cpp, the step in policyimprover.cpp.
#include "policyimprover_p.h"

#include <algorithm>
#include <cmath>

namespace dreamrsi::ImproverRules {

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

namespace {

QString changeText(const TunableChange &c)
{
    return QStringLiteral("%1 %2 → %3").arg(c.name, PolicyTunables::literal(c.from, c.integer), PolicyTunables::literal(c.to, c.integer));
}

} // namespace

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

} // namespace dreamrsi::ImproverRules
