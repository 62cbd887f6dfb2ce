#include "historystats.h"

#include <QMap>
#include <QSet>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

constexpr int ShownAttempts = 12; ///< rows of the along-a-branch table before the rest is summed

const QString DirectionPrefix = QStringLiteral("direction:");

QString directionTag(const Cell &c, bool *found)
{
    for (const QString &tag : c.tags) {
        if (tag.startsWith(DirectionPrefix)) {
            *found = true;
            return tag.mid(DirectionPrefix.size());
        }
    }
    *found = false;
    return {};
}

QString directionOf(const DiscoveryTree &tree, const DiscoveryTree::Branch &branch)
{
    for (const int index : branch.cells) {
        bool found = false;
        const QString name = directionTag(tree.cells().at(index), &found);
        if (found)
            return name;
    }
    return {};
}

/// Running sums of one direction.
struct Accumulator
{
    DirectionStats stats;
    double attainmentSum = 0.0;
    int attainmentCount = 0;
};

QString shortNumber(double x)
{
    return QString::number(x, 'g', 4);
}

QString displayName(const QString &name)
{
    return name.isEmpty() ? QStringLiteral("(untagged)") : name;
}

} // namespace

double shrunkMean(double sum, int count, double prior)
{
    constexpr double k = 1.0;
    return (sum + k * prior) / (count + k);
}

HistoryStats computeHistoryStats(const QList<const DiscoveryTree *> &trees)
{
    HistoryStats h;
    QMap<QString, Accumulator> byName; // sorted by name: the order is deterministic
    double allSum = 0.0;
    int allCount = 0;
    for (const DiscoveryTree *tree : trees) {
        if (!tree)
            continue;
        ++h.worlds;
        const double s = tree->bestEffectiveScore();
        const bool scorable = s > 0.0;
        if (scorable)
            ++h.scorableWorlds;
        const std::optional<double> baseline = tree->meta().baselineScore;
        const double base = baseline && std::isfinite(*baseline) ? std::max(*baseline, 0.0) : 0.0;
        h.cells += tree->cellCount();
        if (const std::optional<GridShape> &grid = tree->meta().grid)
            h.deepestGridAttempt = std::max(h.deepestGridAttempt, grid->refinements);

        QSet<QString> here;
        for (const DiscoveryTree::Branch &branch : tree->branches()) {
            ++h.branches;
            const QString name = directionOf(*tree, branch);
            here.insert(name);
            Accumulator &acc = byName[name];
            acc.stats.name = name;
            ++acc.stats.branches;

            double level = base;
            double branchBest = 0.0;
            std::optional<double> anchor;
            int stall = 0;
            bool lastRaised = false;
            for (qsizetype a = 0; a < branch.cells.size(); ++a) {
                const Cell &c = tree->cells().at(branch.cells.at(a));
                ++acc.stats.calls;
                if (h.branchesAtAttempt.size() <= a) {
                    h.branchesAtAttempt.append(0);
                    h.gainAtAttempt.append(0.0);
                    h.evidenceAtAttempt.append(0);
                }
                ++h.branchesAtAttempt[a];
                const double e = c.effectiveScore();
                branchBest = std::max(branchBest, e);
                if (scorable && e > level) {
                    const double gain = (e - level) / s;
                    level = e;
                    h.gainAtAttempt[a] += gain;
                    acc.stats.gain += gain;
                    acc.stats.deepestGain = std::max(acc.stats.deepestGain, int(a));
                }
                lastRaised = false;
                if (c.isSuccess()) {
                    ++acc.stats.successes;
                    const bool scored = c.score && std::isfinite(*c.score);
                    if (scored && (!acc.stats.best || *c.score > *acc.stats.best))
                        acc.stats.best = c.score;
                    if (scored && (a == 0 || anchor))
                        ++h.evidenceAtAttempt[a];
                    if (scored && (!anchor || *c.score > *anchor)) {
                        h.longestStallBeforeGain = std::max(h.longestStallBeforeGain, stall);
                        acc.stats.longestStallBeforeGain = std::max(acc.stats.longestStallBeforeGain, stall);
                        anchor = c.score;
                        stall = 0;
                        lastRaised = true;
                    } else {
                        ++stall;
                    }
                }
            }
            if (lastRaised && branch.cells.size() >= 2)
                ++h.stoppedWhileImproving;
            if (scorable && !branch.cells.isEmpty()) {
                const double attainment = std::min(branchBest / s, 1.0);
                acc.attainmentSum += attainment;
                ++acc.attainmentCount;
                acc.stats.bestAttainment = std::max(acc.stats.bestAttainment, attainment);
                allSum += attainment;
                ++allCount;
            }
        }
        for (const QString &name : here)
            ++byName[name].stats.worlds;

        // Droughts in creation order, counted as the portfolio counts reveals
        // since its best: every cell that does not raise the best successful
        // score (cells before the first success included).
        bool hasBest = false;
        double best = 0.0;
        int since = 0;
        for (const Cell &c : tree->cells()) {
            if (c.isSuccess() && c.score && std::isfinite(*c.score) && (!hasBest || *c.score > best)) {
                h.longestDroughtBeforeGain = std::max(h.longestDroughtBeforeGain, since);
                hasBest = true;
                best = *c.score;
                since = 0;
            } else {
                ++since;
            }
        }
    }

    h.deepestGridAttempt = std::max(h.deepestGridAttempt, int(h.branchesAtAttempt.size()) - 1);
    h.unseenPriority = allCount > 0 ? allSum / allCount : 0.0;
    for (Accumulator &acc : byName) {
        DirectionStats d = acc.stats;
        d.meanAttainment = acc.attainmentCount > 0 ? acc.attainmentSum / acc.attainmentCount : 0.0;
        d.priority = shrunkMean(acc.attainmentSum, acc.attainmentCount, h.unseenPriority);
        h.directions.append(d);
    }
    std::stable_sort(h.directions.begin(), h.directions.end(),
                     [](const DirectionStats &a, const DirectionStats &b) { return a.priority > b.priority; });
    return h;
}

double HistoryStats::lateGainShare() const
{
    double all = 0.0, late = 0.0;
    for (qsizetype a = 0; a < gainAtAttempt.size(); ++a) {
        all += gainAtAttempt.at(a);
        if (a >= 2)
            late += gainAtAttempt.at(a);
    }
    return all > 0.0 ? late / all : 0.0;
}

const DirectionStats *HistoryStats::direction(const QString &name) const
{
    for (const DirectionStats &d : directions) {
        if (d.name == name)
            return &d;
    }
    return nullptr;
}

QString HistoryStats::markdown() const
{
    QStringList out;
    out << QStringLiteral("%1 worlds (%2 scorable), %3 cells, %4 branches. Attainment is a score over its world's best; "
                          "a gain is how far a cell raised its branch's best (from the baseline for attempt 0), in attainment.")
               .arg(worlds)
               .arg(scorableWorlds)
               .arg(cells)
               .arg(branches);
    out << QString();
    out << QStringLiteral("| direction | worlds | branches | calls | successes | best score | mean branch attainment | "
                          "best attainment | gain per call | deepest gain (attempt) | priority |");
    out << QStringLiteral("|---|---|---|---|---|---|---|---|---|---|---|");
    for (const DirectionStats &d : directions) {
        out << QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 | %9 | %10 | %11 |")
                   .arg(displayName(d.name))
                   .arg(d.worlds)
                   .arg(d.branches)
                   .arg(d.calls)
                   .arg(d.successes)
                   .arg(d.best ? shortNumber(*d.best) : QStringLiteral("none"), shortNumber(d.meanAttainment), shortNumber(d.bestAttainment),
                        shortNumber(d.gainPerCall()), d.deepestGain >= 0 ? QString::number(d.deepestGain) : QStringLiteral("none"),
                        shortNumber(d.priority));
    }
    out << QStringLiteral("Priority: mean branch attainment shrunk towards the mean of all branches (%1), which is also "
                          "what a direction the history never tried is expected to reach.")
               .arg(shortNumber(unseenPriority));
    out << QString();
    out << QStringLiteral("Where gains arrive along a branch:");
    out << QStringLiteral("| attempt | branches reaching it | gain | gain per branch |");
    out << QStringLiteral("|---|---|---|---|");
    int restBranches = 0;
    double restGain = 0.0;
    for (qsizetype a = 0; a < branchesAtAttempt.size(); ++a) {
        if (a >= ShownAttempts) {
            restBranches += branchesAtAttempt.at(a);
            restGain += gainAtAttempt.at(a);
            continue;
        }
        const int n = branchesAtAttempt.at(a);
        out << QStringLiteral("| %1 | %2 | %3 | %4 |").arg(a).arg(n).arg(shortNumber(gainAtAttempt.at(a)), shortNumber(n > 0 ? gainAtAttempt.at(a) / n : 0.0));
    }
    if (restBranches > 0)
        out << QStringLiteral("| ≥ %1 | %2 (cells) | %3 | |").arg(ShownAttempts).arg(restBranches).arg(shortNumber(restGain));
    out << QStringLiteral("Share of the gain at attempt 2 or later: %1.").arg(shortNumber(lateGainShare()));
    out << QStringLiteral("Branches still improving at their last revealed attempt: %1 of %2 refined branches.")
               .arg(stoppedWhileImproving)
               .arg(branchesAtAttempt.size() > 1 ? branchesAtAttempt.at(1) : 0);
    out << QStringLiteral("Longest stall before a branch improved again: %1 successful non-improving attempts (a branch "
                          "closed after fewer than %2 would have missed that gain).")
               .arg(longestStallBeforeGain)
               .arg(stallFloor());
    out << QStringLiteral("Longest drought before a world's best rose, in creation order: %1 cells (a stop after fewer "
                          "than %2 reveals without a new best would have missed that gain).")
               .arg(longestDroughtBeforeGain)
               .arg(patienceFloor());
    out << QStringLiteral("Caution: these worlds hold only what earlier policies revealed. A direction they never opened "
                          "is missing here, and gains beyond where they stopped are unseen; a policy that only stops "
                          "earlier scores well on them and worse on the next world.");
    return out.join(QLatin1Char('\n'));
}

} // namespace dreamrsi
