#include "treecellstyles.h"

#include "replay/probes.h"

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

int TreeCellStyles::bestRevealedCell(const DiscoveryTree &tree)
{
    // DiscoveryTree's rule (the first highest effective score, above 0) over revealed cells.
    int best = -1;
    double bestEffective = 0.0;
    const auto &cells = tree.cells();
    for (qsizetype i = 0; i < cells.size(); ++i) {
        const Cell &c = cells.at(i);
        if (Imagination::isImagined(c))
            continue;
        if (const double e = c.effectiveScore(); e > bestEffective) {
            bestEffective = e;
            best = int(i);
        }
    }
    return best;
}

TreeCellStyles TreeCellStyles::of(const DiscoveryTree &tree)
{
    TreeCellStyles s;
    const auto &cells = tree.cells();
    s.imagined.reserve(cells.size());
    s.probe.reserve(cells.size());
    for (const Cell &c : cells) {
        s.imagined.append(Imagination::isImagined(c));
        s.imaginedCount += s.imagined.constLast() ? 1 : 0;
        s.probe.append(Probes::isProbe(c));
        s.probeCount += s.probe.constLast() ? 1 : 0;
    }
    // The scale spans the revealed cells' scores: an imagined completion
    // drawn around them (docs/online.md, "Valuation") must not stretch it over its
    // draws. Only a tree without revealed scores takes the imagined ones.
    for (const bool revealedOnly : {true, false}) {
        for (qsizetype i = 0; i < cells.size(); ++i) {
            const Cell &c = cells.at(i);
            if ((revealedOnly && s.imagined.at(i)) || !c.score || !std::isfinite(*c.score))
                continue;
            if (!s.hasScores) {
                s.scoreMin = s.scoreMax = *c.score;
                s.hasScores = true;
            } else {
                s.scoreMin = std::min(s.scoreMin, *c.score);
                s.scoreMax = std::max(s.scoreMax, *c.score);
            }
        }
        if (s.hasScores)
            break;
    }
    s.best = s.imaginedCount > 0 ? bestRevealedCell(tree) : tree.bestCellIndex();
    s.fills.reserve(cells.size());
    s.fillRgb.reserve(cells.size());
    s.glyphs.reserve(cells.size());
    for (qsizetype i = 0; i < cells.size(); ++i) {
        const Cell &c = cells.at(i);
        const bool imagined = s.imagined.at(i);
        s.fills.append(c.score && std::isfinite(*c.score) ? s.colorFor(*c.score) : QColor());
        s.fillRgb.append(s.fills.constLast().rgba());
        // The world model draws whether an attempt fails, not how (every
        // drawn failure reads `runtime`, docs/online.md "Valuation"): an
        // imagined failure is marked and counted apart from the revealed classes.
        const bool failed = c.failClass != QLatin1String(FailClass::Ok);
        if (imagined && failed) {
            s.glyphs.append(FailGlyph::Dot);
            ++s.imaginedFailures;
        } else {
            s.glyphs.append(FailGlyphs::forClass(c.failClass));
        }
        if (!imagined)
            ++s.failCounts[c.failClass];
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
