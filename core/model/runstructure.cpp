#include "runstructure.h"

#include <QJsonValue>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

/// A JSON value that is a whole number (islands and generations are
/// stored as integers; anything else is "not kept").
std::optional<int> wholeNumber(const QJsonValue &v)
{
    if (!v.isDouble())
        return std::nullopt;
    const double d = v.toDouble();
    if (!std::isfinite(d) || d != std::floor(d) || std::abs(d) > 1e9)
        return std::nullopt;
    return int(d);
}

std::optional<double> okScore(const Cell &c)
{
    if (c.isSuccess() && c.score && std::isfinite(*c.score))
        return c.score;
    return std::nullopt;
}

} // namespace

RunStructure RunStructure::of(const DiscoveryTree &tree)
{
    RunStructure s;
    const int n = tree.cellCount();
    const QList<Cell> &cells = tree.cells();
    const QJsonObject &top = tree.meta().payload;
    s.m_imported = top.contains(QLatin1String("imported_from"));
    const QJsonObject initial = top.value(QLatin1String("initial_origin")).toObject();
    s.m_rootDepth = std::max(0, wholeNumber(initial.value(QLatin1String("generation"))).value_or(0));
    s.m_rootIsland = wholeNumber(initial.value(QLatin1String("island"))).value_or(NoIsland);
    s.m_rootScore = tree.meta().baselineScore;

    // Parents, islands and the generations as stored.
    s.m_parent.resize(n);
    s.m_island.resize(n);
    s.m_depth.fill(-1, n);
    s.m_children.resize(n);
    QList<std::optional<int>> generation(n);
    for (int i = 0; i < n; ++i) {
        const Cell &c = cells.at(i);
        int parent = Root;
        if (c.attempt > 0) {
            parent = tree.parentIndex(i);
        } else if (const QJsonValue from = c.payload.value(QLatin1String("forked_from")); from.isString()) {
            const int at = tree.indexOfId(from.toString());
            parent = at >= 0 && at != i ? at : NoParent;
        } else if (c.payload.value(QLatin1String("orphan")).toBool()) {
            parent = NoParent;
        }
        s.m_parent[i] = parent;
        const QJsonObject origin = c.payload.value(QLatin1String("origin")).toObject();
        s.m_island[i] = wholeNumber(origin.value(QLatin1String("island"))).value_or(NoIsland);
        generation[i] = wholeNumber(origin.value(QLatin1String("generation")));
        if (parent >= 0)
            s.m_children[parent].append(i);
        else if (parent == Root)
            s.m_rootChildren.append(i);
        else
            s.m_orphans.append(i);
    }

    // Depths, parents first (a forked_from may name a later cell in a
    // hand-edited file: walk up, with a guard against a cycle of forks).
    QList<int> stack;
    for (int i = 0; i < n; ++i) {
        int at = i;
        stack.clear();
        while (at >= 0 && s.m_depth.at(at) < 0) {
            if (stack.size() > n) { // a cycle: cut it here
                s.m_parent[at] = NoParent;
                break;
            }
            stack.append(at);
            at = s.m_parent.at(at);
        }
        while (!stack.isEmpty()) {
            const int c = stack.takeLast();
            const int p = s.m_parent.at(c);
            const int parentDepth = p >= 0 ? s.m_depth.at(p) : p == Root ? s.m_rootDepth : 0;
            const std::optional<int> g = generation.at(c);
            int depth = p == NoParent && g ? std::max(*g, 1) : parentDepth + 1;
            if (g && *g > parentDepth)
                depth = *g;
            s.m_depth[c] = depth;
            s.m_maxDepth = std::max(s.m_maxDepth, depth);
        }
    }

    // Islands: ascending id, cells without one last.
    QList<int> ids;
    for (int i = 0; i < n; ++i)
        ids.append(s.m_island.at(i));
    if (s.m_rootIsland != NoIsland)
        ids.append(s.m_rootIsland);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    if (!ids.isEmpty() && ids.first() == NoIsland)
        ids.append(ids.takeFirst());
    for (const int id : std::as_const(ids)) {
        Island island;
        island.id = id;
        s.m_islands.append(island);
    }
    if (s.m_rootIsland != NoIsland) {
        Island &home = s.m_islands[s.islandIndex(s.m_rootIsland)];
        home.hasInitial = true;
        home.count = 1;
        if (s.m_rootScore) {
            home.best = Root;
            home.bestScore = s.m_rootScore;
        }
    }
    for (int i = 0; i < n; ++i) {
        Island &island = s.m_islands[s.islandIndex(s.m_island.at(i))];
        island.cells.append(i);
        ++island.count;
        if (const std::optional<double> score = okScore(cells.at(i)); score && (!island.bestScore || *score > *island.bestScore)) {
            island.best = i;
            island.bestScore = score;
        }
        const int p = s.m_parent.at(i);
        const int from = p >= 0 ? s.m_island.at(p) : p == Root ? s.m_rootIsland : NoIsland;
        const int to = s.m_island.at(i);
        if (from != NoIsland && to != NoIsland && from != to) {
            s.m_migrations.append(Migration{i, p, from, to});
            ++island.migrantsIn;
            ++s.m_islands[s.islandIndex(from)].migrantsOut;
        }
    }
    return s;
}

const QList<int> &RunStructure::childrenOf(int parent) const
{
    if (parent == Root)
        return m_rootChildren;
    if (parent == NoParent)
        return m_orphans;
    return m_children.at(parent);
}

int RunStructure::islandIndex(int id) const
{
    // Few islands: a scan is as fast as a hash and needs no upkeep.
    for (int i = 0; i < int(m_islands.size()); ++i) {
        if (m_islands.at(i).id == id)
            return i;
    }
    return -1;
}

int RunStructure::migrationCount(int from, int to) const
{
    return int(std::count_if(m_migrations.cbegin(), m_migrations.cend(),
                             [from, to](const Migration &m) { return m.from == from && m.to == to; }));
}

} // namespace dreamrsi
