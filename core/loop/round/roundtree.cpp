#include "roundtree.h"

#include "policy/episoderules.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

RoundTree::RoundTree(GridPlan plan, std::optional<double> baselineScore)
    : m_plan(std::move(plan))
    , m_baselineScore(baselineScore)
{
}

QString RoundTree::idOf(int branch, int attempt)
{
    return QStringLiteral("b%1a%2").arg(branch).arg(attempt);
}

bool RoundTree::parseId(const QString &id, int *branch, int *attempt)
{
    static const QRegularExpression form(QStringLiteral("^b(\\d{1,9})a(\\d{1,9})$"));
    const QRegularExpressionMatch m = form.match(id);
    if (!m.hasMatch())
        return false;
    *branch = m.captured(1).toInt();
    *attempt = m.captured(2).toInt();
    return true;
}

bool RoundTree::add(const Cell &cell)
{
    if (m_index.contains(cell.id))
        return false;
    const auto top = m_top.constFind(cell.branch);
    const int expected = top == m_top.constEnd() ? 0 : *top + 1;
    if (cell.attempt != expected)
        return false;
    m_index.insert(cell.id, int(m_cells.size()));
    m_cells.append(cell);
    m_top.insert(cell.branch, cell.attempt);
    m_nextSeq = std::max(m_nextSeq, cell.seq + 1);
    if (cell.score && std::isfinite(*cell.score) && (!m_best || *cell.score > *m_best))
        m_best = cell.score;
    return true;
}

const Cell *RoundTree::cell(const QString &id) const
{
    const auto it = m_index.constFind(id);
    return it == m_index.constEnd() ? nullptr : &m_cells.at(*it);
}

const Cell *RoundTree::parent(int branch, int attempt) const
{
    return attempt == 0 ? nullptr : cell(idOf(branch, attempt - 1));
}

QList<int> RoundTree::openedBranches() const
{
    QList<int> b = m_top.keys();
    std::sort(b.begin(), b.end());
    return b;
}

int RoundTree::depth() const
{
    int d = 0;
    for (auto it = m_top.constBegin(); it != m_top.constEnd(); ++it)
        d = std::max(d, it.value() + 1);
    return d;
}

QStringList RoundTree::legalTags(int branch) const
{
    if (m_directions.isEmpty() || branch < 0)
        return {};
    return {QStringLiteral("direction:") + m_directions.at(branch % m_directions.size())};
}

QList<CellMeta> RoundTree::legal() const
{
    QList<CellMeta> legal;
    for (int b = 0; b < m_plan.branches; ++b) {
        const auto top = m_top.constFind(b);
        const int next = top == m_top.constEnd() ? 0 : *top + 1;
        if (next > m_plan.refinements)
            continue;
        legal.append(CellMeta{idOf(b, next), b, next, next == 0 ? QString() : idOf(b, next - 1), -1, legalTags(b)});
    }
    // Branches opened outside the plan (a resumed round whose plan shrank
    // cannot happen: the plan is stored) are never legal.
    return legal;
}

Observation RoundTree::observationOf(const Cell &c) const
{
    CellMeta meta{c.id, c.branch, c.attempt, c.attempt == 0 ? QString() : idOf(c.branch, c.attempt - 1), c.seq, c.tags};
    return EpisodeRules::observe(c, std::move(meta), m_baselineScore, parent(c.branch, c.attempt));
}

void RoundTree::fillState(PolicyState &state, double beta, int workers, int round) const
{
    state.reset(beta, workers, m_baselineScore);
    for (const Cell &c : m_cells)
        state.appendObservation(observationOf(c));
    state.setRound(round);
    state.setLegal(legal());
}

QString RoundTree::checkBatch(const QStringList &batch, int workers) const
{
    return checkBatchAgainst(batch, legal(), workers);
}

QString RoundTree::checkBatchAgainst(const QStringList &batch, const QList<CellMeta> &legal, int workers)
{
    QHash<QString, qsizetype> places;
    for (qsizetype j = 0; j < legal.size(); ++j)
        places.insert(legal.at(j).id, j);
    EpisodeRules::Places unused;
    return EpisodeRules::checkBatch(
        batch, legal.size(), workers, [&](const QString &id) { return places.value(id, -1); },
        [](const QString &id) -> const QString & { return id; }, &unused);
}

} // namespace dreamrsi
