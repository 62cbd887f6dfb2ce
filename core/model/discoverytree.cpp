#include "discoverytree.h"

#include <QMap>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {
TreeError cellError(int index, const Cell &cell, const QString &field, const QString &what)
{
    TreeError e;
    e.cellIndex = index;
    e.cellId = cell.id;
    e.field = field;
    e.message = QStringLiteral("cell %1 (id \"%2\"): %3: %4").arg(index).arg(cell.id, field, what);
    return e;
}
} // namespace

std::optional<DiscoveryTree> DiscoveryTree::build(TreeMeta meta, QList<Cell> cells, TreeError *error)
{
    auto fail = [error](TreeError e) -> std::optional<DiscoveryTree> {
        if (error)
            *error = std::move(e);
        return std::nullopt;
    };

    QHash<QString, int> ids;
    QHash<qint64, int> seqs;
    QMap<int, QMap<int, int>> byBranch; // branch -> attempt -> file index
    ids.reserve(cells.size());
    seqs.reserve(cells.size());
    for (int i = 0; i < cells.size(); ++i) {
        const Cell &c = cells.at(i);
        if (c.id.isEmpty())
            return fail(cellError(i, c, QStringLiteral("id"), QStringLiteral("must be a non-empty string")));
        if (c.branch < 0)
            return fail(cellError(i, c, QStringLiteral("branch"), QStringLiteral("must be an integer >= 0")));
        if (c.attempt < 0)
            return fail(cellError(i, c, QStringLiteral("attempt"), QStringLiteral("must be an integer >= 0")));
        if (c.score && !std::isfinite(*c.score))
            return fail(cellError(i, c, QStringLiteral("score"), QStringLiteral("must be finite")));
        if (auto it = ids.constFind(c.id); it != ids.constEnd())
            return fail(cellError(i, c, QStringLiteral("id"),
                                  QStringLiteral("repeats the id of cell %1").arg(it.value())));
        ids.insert(c.id, i);
        if (auto it = seqs.constFind(c.seq); it != seqs.constEnd())
            return fail(cellError(i, c, QStringLiteral("seq"),
                                  QStringLiteral("%1 repeats the seq of cell %2").arg(c.seq).arg(it.value())));
        seqs.insert(c.seq, i);
        auto &attempts = byBranch[c.branch];
        if (auto it = attempts.constFind(c.attempt); it != attempts.constEnd())
            return fail(cellError(i, c, QStringLiteral("attempt"),
                                  QStringLiteral("(branch %1, attempt %2) repeats cell %3")
                                      .arg(c.branch)
                                      .arg(c.attempt)
                                      .arg(it.value())));
        attempts.insert(c.attempt, i);
    }
    for (auto b = byBranch.cbegin(); b != byBranch.cend(); ++b) {
        int expected = 0;
        for (auto a = b.value().cbegin(); a != b.value().cend(); ++a, ++expected) {
            if (a.key() != expected) {
                const int idx = a.value();
                return fail(cellError(idx, cells.at(idx), QStringLiteral("attempt"),
                                      QStringLiteral("branch %1 has attempt %2 but no attempt %3 "
                                                     "(attempts must be exactly 0..L-1)")
                                          .arg(b.key())
                                          .arg(a.key())
                                          .arg(expected)));
            }
        }
    }

    DiscoveryTree tree;
    tree.m_meta = std::move(meta);
    std::stable_sort(cells.begin(), cells.end(), [](const Cell &a, const Cell &b) { return a.seq < b.seq; });
    tree.m_cells = std::move(cells);
    tree.m_byId.reserve(tree.m_cells.size());
    for (int i = 0; i < tree.m_cells.size(); ++i) {
        const Cell &c = tree.m_cells.at(i);
        tree.m_byId.insert(c.id, i);
        const double e = c.effectiveScore();
        if (e > tree.m_bestEffective) {
            tree.m_bestEffective = e;
            tree.m_bestIndex = i;
        }
    }
    for (auto b = byBranch.cbegin(); b != byBranch.cend(); ++b) {
        Branch branch;
        branch.id = b.key();
        branch.cells.resize(b.value().size());
        tree.m_branchIndex.insert(branch.id, int(tree.m_branches.size()));
        tree.m_branches.append(std::move(branch));
    }
    for (int i = 0; i < tree.m_cells.size(); ++i) {
        const Cell &c = tree.m_cells.at(i);
        tree.m_branches[tree.m_branchIndex.value(c.branch)].cells[c.attempt] = i;
    }
    return tree;
}

std::optional<double> DiscoveryTree::bestScore() const
{
    std::optional<double> best;
    for (const Cell &c : m_cells) {
        if (c.score && (!best || *c.score > *best))
            best = c.score;
    }
    return best;
}

int DiscoveryTree::maxDepth() const
{
    int depth = 0;
    for (const Branch &b : m_branches)
        depth = std::max(depth, int(b.cells.size()));
    return depth;
}

int DiscoveryTree::indexOf(int branchId, int attempt) const
{
    const int bi = branchIndex(branchId);
    if (bi < 0 || attempt < 0 || attempt >= m_branches.at(bi).cells.size())
        return -1;
    return m_branches.at(bi).cells.at(attempt);
}

int DiscoveryTree::parentIndex(int cellIndex) const
{
    const Cell &c = m_cells.at(cellIndex);
    return c.attempt == 0 ? -1 : indexOf(c.branch, c.attempt - 1);
}

QMap<QString, int> DiscoveryTree::failClassCounts() const
{
    QMap<QString, int> counts;
    for (const Cell &c : m_cells)
        ++counts[c.failClass];
    return counts;
}

} // namespace dreamrsi
