#include "treesummarytext.h"

#include <QStringList>

namespace dreamrsi {

QString TreeSummaryText::of(const DiscoveryTree &tree)
{
    QStringList classes;
    const QMap<QString, int> counts = tree.failClassCounts();
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        classes.append(QStringLiteral("%1=%2").arg(it.key()).arg(it.value()));
    const std::optional<double> best = tree.bestScore();
    return tr("%1 cells, %2 branches, max depth %3, best score %4%5, fail classes: %6")
        .arg(tree.cellCount())
        .arg(tree.branches().size())
        .arg(tree.maxDepth())
        .arg(best ? QString::number(*best, 'g', 12) : tr("none"))
        .arg(tree.isScorable() ? QString() : tr(" (not scorable: S = 0)"))
        .arg(classes.isEmpty() ? tr("none") : classes.join(QLatin1Char(' ')));
}

} // namespace dreamrsi
