#include "treecellstyles.h"

#include "colormap.h"

#include "model/discoverytree.h"
#include "replay/worldmodel.h"

#include <QJsonValue>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

QColor TreeCellStyles::colorFor(double score) const
{
    const double span = scoreMax - scoreMin;
    return Colormap::viridis(span > 0 ? (score - scoreMin) / span : 1.0);
}

TreeCellStyles TreeCellStyles::of(const DiscoveryTree &tree)
{
    TreeCellStyles s;
    const auto &cells = tree.cells();
    s.failCounts = tree.failClassCounts();
    for (const Cell &c : cells) {
        if (!c.score || !std::isfinite(*c.score))
            continue;
        if (!s.hasScores) {
            s.scoreMin = s.scoreMax = *c.score;
            s.hasScores = true;
        } else {
            s.scoreMin = std::min(s.scoreMin, *c.score);
            s.scoreMax = std::max(s.scoreMax, *c.score);
        }
    }
    s.fills.reserve(cells.size());
    s.fillRgb.reserve(cells.size());
    s.glyphs.reserve(cells.size());
    s.imagined.reserve(cells.size());
    for (qsizetype i = 0; i < cells.size(); ++i) {
        const Cell &c = cells.at(i);
        s.fills.append(c.score && std::isfinite(*c.score) ? s.colorFor(*c.score) : QColor());
        s.fillRgb.append(s.fills.constLast().rgba());
        s.glyphs.append(FailGlyphs::forClass(c.failClass));
        s.imagined.append(Imagination::isImagined(c));
        s.imaginedCount += s.imagined.constLast() ? 1 : 0;
        // An imported run's forks and orphans (payload forked_from, orphan).
        if (const QJsonValue from = c.payload.value(QLatin1String("forked_from")); from.isString()) {
            if (const int parent = tree.indexOfId(from.toString()); parent >= 0)
                s.forkLinks.append({int(i), parent});
        }
        if (c.payload.value(QLatin1String("orphan")).toBool())
            s.orphans.append(int(i));
    }
    return s;
}

} // namespace dreamrsi
