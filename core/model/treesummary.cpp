#include "treesummary.h"

#include <QStringList>

namespace dreamrsi {

TreeFacts treeFacts(const DiscoveryTree &tree)
{
    TreeFacts facts;
    facts.cells = tree.cellCount();
    facts.branches = int(tree.branches().size());
    facts.maxDepth = tree.maxDepth();
    facts.bestScore = tree.bestScore();
    facts.scorable = tree.isScorable();
    const QMap<QString, int> counts = tree.failClassCounts();
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        facts.failClasses.append({it.key(), it.value()});
    return facts;
}

QString summarizeTree(const TreeFacts &facts)
{
    QStringList classes;
    for (const auto &[name, count] : facts.failClasses)
        classes.append(QStringLiteral("%1=%2").arg(name).arg(count));
    return QStringLiteral("%1 cells, %2 branches, max depth %3, best score %4%5, fail classes: %6")
        .arg(facts.cells)
        .arg(facts.branches)
        .arg(facts.maxDepth)
        .arg(facts.bestScore ? QString::number(*facts.bestScore, 'g', 12) : QStringLiteral("none"))
        .arg(facts.scorable ? QString() : QStringLiteral(" (not scorable: S = 0)"))
        .arg(classes.isEmpty() ? QStringLiteral("none") : classes.join(QLatin1Char(' ')));
}

QString summarizeTree(const DiscoveryTree &tree)
{
    return summarizeTree(treeFacts(tree));
}

} // namespace dreamrsi
