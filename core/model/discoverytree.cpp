#include "discoverytree.h"

#include <QMap>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <vector>

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

namespace {

/// The common case of build(), checked in one pass with no per-check hash:
/// when every cell is well formed, the permutation that orders the cells by
/// seq (stable) and each cell's id index after it; nothing when any rule is
/// broken, and build() then finds and names the first problem in file order.
struct FastOrder
{
    std::vector<int> bySeq;       ///< file index of the i-th cell in seq order
    QHash<QString, int> idIndex;  ///< id -> index in seq order
    std::vector<std::pair<int, int>> branchSizes; ///< (branch id, attempts), ascending
};

std::optional<FastOrder> fastOrder(const QList<Cell> &cells)
{
    const qsizetype n = cells.size();
    FastOrder o;
    o.bySeq.resize(size_t(n));
    bool sorted = true;
    for (qsizetype i = 0; i < n; ++i) {
        const Cell &c = cells.at(i);
        if (c.id.isEmpty() || c.branch < 0 || c.attempt < 0 || (c.score && !std::isfinite(*c.score)))
            return std::nullopt;
        o.bySeq[size_t(i)] = int(i);
        sorted = sorted && (i == 0 || cells.at(i - 1).seq < c.seq);
    }
    if (!sorted) {
        std::stable_sort(o.bySeq.begin(), o.bySeq.end(),
                         [&cells](int a, int b) { return cells.at(a).seq < cells.at(b).seq; });
        for (qsizetype i = 1; i < n; ++i) {
            if (cells.at(o.bySeq[size_t(i) - 1]).seq == cells.at(o.bySeq[size_t(i)]).seq)
                return std::nullopt; // a repeated seq
        }
    }
    o.idIndex.reserve(n);
    for (qsizetype i = 0; i < n; ++i) {
        const qsizetype before = o.idIndex.size();
        o.idIndex.insert(cells.at(o.bySeq[size_t(i)]).id, int(i));
        if (o.idIndex.size() == before)
            return std::nullopt; // a repeated id
    }
    // (branch, attempt) pairs: sorted, they must read b:0..L-1 for every branch.
    std::vector<std::pair<int, int>> pairs;
    pairs.reserve(size_t(n));
    for (const Cell &c : cells)
        pairs.emplace_back(c.branch, c.attempt);
    std::sort(pairs.begin(), pairs.end());
    for (size_t i = 0; i < pairs.size(); ++i) {
        const bool first = i == 0 || pairs[i - 1].first != pairs[i].first;
        if (pairs[i].second != (first ? 0 : pairs[i - 1].second + 1))
            return std::nullopt; // a repeated or missing attempt
        if (first)
            o.branchSizes.emplace_back(pairs[i].first, 0);
        o.branchSizes.back().second += 1;
    }
    return o;
}

} // namespace

std::optional<DiscoveryTree> DiscoveryTree::build(TreeMeta meta, QList<Cell> cells, TreeError *error)
{
    if (std::optional<FastOrder> order = fastOrder(cells)) {
        DiscoveryTree tree;
        tree.m_meta = std::move(meta);
        tree.m_cells.reserve(cells.size());
        for (const int i : order->bySeq)
            tree.m_cells.append(std::move(cells[i]));
        tree.m_byId = std::move(order->idIndex);
        tree.m_branches.reserve(qsizetype(order->branchSizes.size()));
        for (const auto &[id, attempts] : order->branchSizes) {
            tree.m_branchIndex.insert(id, int(tree.m_branches.size()));
            Branch branch;
            branch.id = id;
            branch.cells.resize(attempts);
            tree.m_branches.append(std::move(branch));
        }
        tree.index();
        return tree;
    }
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
    for (int i = 0; i < tree.m_cells.size(); ++i)
        tree.m_byId.insert(tree.m_cells.at(i).id, i);
    for (auto b = byBranch.cbegin(); b != byBranch.cend(); ++b) {
        Branch branch;
        branch.id = b.key();
        branch.cells.resize(b.value().size());
        tree.m_branchIndex.insert(branch.id, int(tree.m_branches.size()));
        tree.m_branches.append(std::move(branch));
    }
    tree.index();
    return tree;
}

void DiscoveryTree::index()
{
    m_branchOf.resize(m_cells.size());
    m_parentOf.resize(m_cells.size());
    for (int i = 0; i < m_cells.size(); ++i) {
        const Cell &c = m_cells.at(i);
        const double e = c.effectiveScore();
        if (e > m_bestEffective) {
            m_bestEffective = e;
            m_bestIndex = i;
        }
        const int bi = m_branchIndex.value(c.branch);
        m_branchOf[i] = bi;
        m_branches[bi].cells[c.attempt] = i;
    }
    // Cells are sorted by seq, not by attempt: parents once every slot is filled.
    for (int i = 0; i < m_cells.size(); ++i) {
        const int attempt = m_cells.at(i).attempt;
        m_parentOf[i] = attempt == 0 ? -1 : m_branches.at(m_branchOf.at(i)).cells.at(attempt - 1);
    }
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

QMap<QString, int> DiscoveryTree::failClassCounts() const
{
    QMap<QString, int> counts;
    for (const Cell &c : m_cells)
        ++counts[c.failClass];
    return counts;
}

} // namespace dreamrsi
