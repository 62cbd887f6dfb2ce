#include "builtinprogress.h"

#include "builtinrandom.h"

#include <algorithm>

namespace dreamrsi {

namespace {

/// Attempt 0 never reaches more of the gap than this.
constexpr double firstAttemptCap = 0.6;
/// Share of refinements whose change does not pay.
constexpr double missRate = 0.3;
/// With a better program of an earlier iteration to read, fewer changes miss.
constexpr double missRateWithHistory = 0.2;
/// Of the mistakes: invalid constructions, crashes, the rest timeouts.
constexpr double invalidShare = 0.45;
constexpr double crashShare = 0.40;

} // namespace

QString builtinDefectKindName(BuiltinDefect::Kind kind)
{
    switch (kind) {
    case BuiltinDefect::Kind::Invalid:
        return QStringLiteral("invalid construction");
    case BuiltinDefect::Kind::Crash:
        return QStringLiteral("crash");
    case BuiltinDefect::Kind::Timeout:
        return QStringLiteral("timeout");
    }
    return {};
}

QString BuiltinPlan::explain() const
{
    QString text = QStringLiteral("progress model: from %1 of the gap, ceiling %2%3, target %4%5")
                       .arg(from, 0, 'f', 4)
                       .arg(ceiling, 0, 'f', 4)
                       .arg(borrowed ? QStringLiteral(" (an earlier iteration's best)") : QString())
                       .arg(target, 0, 'f', 4)
                       .arg(pays ? QString() : QStringLiteral(" (this change does not pay)"));
    if (defect)
        text += QStringLiteral("; the program has a mistake (%1)").arg(builtinDefectKindName(*defect));
    return text;
}

BuiltinPlan planBuiltinStep(const BuiltinProfile &profile, double from, bool fresh,
                            std::optional<double> historyBest, double failRate, BuiltinRandom &random)
{
    // Every draw is made whatever the branch taken, so one decision does not
    // shift the random stream of the next.
    const double reach = random.uniform();
    const double miss = random.uniform();
    const double stride = random.uniform();
    const double fail = random.uniform();
    const double kind = random.uniform();

    BuiltinPlan plan;
    plan.ceiling = std::clamp(profile.ceiling, 0.0, 1.0);
    if (fresh) {
        plan.from = 0.0;
        plan.target = std::min(firstAttemptCap, plan.ceiling * profile.first * (0.7 + 0.3 * reach));
    } else {
        plan.from = std::max(0.0, from);
        double step = profile.step;
        double missing = missRate;
        if (historyBest && *historyBest > plan.from) {
            step = std::min(0.8, step * 1.6);
            missing = missRateWithHistory;
            if (*historyBest > plan.ceiling) {
                plan.ceiling = std::min(1.0, *historyBest);
                plan.borrowed = true;
            }
        }
        if (plan.from >= plan.ceiling - 1e-4 || miss < missing) {
            plan.pays = false;
            plan.target = plan.from;
        } else {
            plan.target =
                std::min(plan.ceiling, plan.from + step * (0.5 + stride) * (plan.ceiling - plan.from));
        }
    }
    const double rate = failRate >= 0.0 ? failRate : profile.failRate;
    if (fail < rate) {
        plan.defect = kind < invalidShare                ? BuiltinDefect::Kind::Invalid
                      : kind < invalidShare + crashShare ? BuiltinDefect::Kind::Crash
                                                         : BuiltinDefect::Kind::Timeout;
    }
    return plan;
}

} // namespace dreamrsi
