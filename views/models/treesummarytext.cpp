#include "treesummarytext.h"

#include <QJsonObject>
#include <QStringList>

namespace dreamrsi {

QString TreeSummaryText::of(const DiscoveryTree &tree)
{
    QStringList classes;
    const QMap<QString, int> counts = tree.failClassCounts();
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        classes.append(QStringLiteral("%1=%2").arg(it.key()).arg(it.value()));
    const std::optional<double> best = tree.bestScore();
    QString text = tr("%1 cells, %2 branches, max depth %3, best score %4%5, fail classes: %6")
                       .arg(tree.cellCount())
                       .arg(tree.branches().size())
                       .arg(tree.maxDepth())
                       .arg(best ? QString::number(*best, 'g', 12) : tr("none"))
                       .arg(tree.isScorable() ? QString() : tr(" (not scorable: S = 0)"))
                       .arg(classes.isEmpty() ? tr("none") : classes.join(QLatin1Char(' ')));
    // An imported run (docs/tree-format.md#imported-runs): where it came from and what the chains lost.
    const QJsonObject from = tree.meta().payload.value(QLatin1String("imported_from")).toObject();
    if (!from.isEmpty()) {
        const auto count = [&from](const char *key) { return from.value(QLatin1String(key)).toInteger(); };
        text += QLatin1Char('\n')
                + tr("Imported from %1: programs read %2, forks %3, orphans %4, copies dropped %5")
                      .arg(from.value(QLatin1String("framework")).toString())
                      .arg(count("programs"))
                      .arg(count("forks"))
                      .arg(count("orphans"))
                      .arg(count("copies_dropped"));
        if (const QString snapshot = from.value(QLatin1String("population_snapshot")).toString(); !snapshot.isEmpty())
            text += QLatin1String(", ") + tr("population snapshot: %1").arg(snapshot);
    }
    if (tree.meta().approximate)
        text += QLatin1Char('\n') + tr("An approximate world: replays leave it out unless asked, and label results over it.");
    return text;
}

} // namespace dreamrsi
