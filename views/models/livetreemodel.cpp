#include "livetreemodel.h"

#include "loop/round/roundtree.h"
#include "model/attemptpayload.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QJsonObject>

#include <algorithm>

namespace dreamrsi {

namespace {

// Internal ids: 0 = a branch row; b + 1 = an attempt row of branch row b.
constexpr quintptr BranchNode = 0;

} // namespace

LiveTreeModel::LiveTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

void LiveTreeModel::reset(const QList<Cell> &cells)
{
    beginResetModel();
    m_branches.clear();
    m_steered.clear();
    m_finished = 0;
    m_attempts = 0;
    for (const Cell &c : cells) {
        auto it = std::lower_bound(m_branches.begin(), m_branches.end(), c.branch,
                                   [](const Branch &b, int branch) { return b.branch < branch; });
        if (it == m_branches.end() || it->branch != c.branch)
            it = m_branches.insert(it, Branch{c.branch, {}});
        Attempt a;
        a.id = c.id;
        a.attempt = c.attempt;
        a.running = false;
        a.cell = c;
        auto at = std::lower_bound(it->attempts.begin(), it->attempts.end(), c.attempt,
                                   [](const Attempt &x, int attempt) { return x.attempt < attempt; });
        it->attempts.insert(at, a);
        ++m_finished;
        ++m_attempts;
    }
    endResetModel();
}

void LiveTreeModel::markSteered(int branch, const QString &kind)
{
    QStringList &kinds = m_steered[branch];
    if (kinds.contains(kind))
        return;
    kinds.append(kind);
    const int row = branchRow(branch, false);
    if (row >= 0)
        emit dataChanged(index(row, IdColumn), index(row, IdColumn), {Qt::DisplayRole, Qt::ToolTipRole});
}

std::optional<int> LiveTreeModel::branchOf(const QModelIndex &index) const
{
    if (!index.isValid())
        return std::nullopt;
    const qsizetype row = index.internalId() == BranchNode ? index.row() : qsizetype(index.internalId() - 1);
    if (row < 0 || row >= m_branches.size())
        return std::nullopt;
    return m_branches.at(row).branch;
}

int LiveTreeModel::branchRow(int branch, bool insert)
{
    const auto it = std::lower_bound(m_branches.begin(), m_branches.end(), branch,
                                     [](const Branch &b, int value) { return b.branch < value; });
    const int row = int(it - m_branches.begin());
    if (it != m_branches.end() && it->branch == branch)
        return row;
    if (!insert)
        return -1;
    beginInsertRows({}, row, row);
    m_branches.insert(row, Branch{branch, {}});
    endInsertRows();
    return row;
}

std::pair<int, int> LiveTreeModel::find(int branch, int attempt) const
{
    const auto it = std::lower_bound(m_branches.begin(), m_branches.end(), branch,
                                     [](const Branch &b, int value) { return b.branch < value; });
    if (it == m_branches.end() || it->branch != branch)
        return {-1, -1};
    for (qsizetype i = 0; i < it->attempts.size(); ++i) {
        if (it->attempts.at(i).attempt == attempt)
            return {int(it - m_branches.begin()), int(i)};
    }
    return {int(it - m_branches.begin()), -1};
}

std::pair<int, int> LiveTreeModel::ensureAttempt(int branch, int attempt, const QString &id)
{
    const int b = branchRow(branch, true);
    auto [row, a] = find(branch, attempt);
    if (a >= 0)
        return {b, a};
    QList<Attempt> &list = m_branches[b].attempts;
    const auto at = std::lower_bound(list.begin(), list.end(), attempt,
                                     [](const Attempt &x, int value) { return x.attempt < value; });
    const int pos = int(at - list.begin());
    beginInsertRows(index(b, 0), pos, pos);
    Attempt fresh;
    fresh.id = id;
    fresh.attempt = attempt;
    fresh.started.start();
    list.insert(pos, fresh);
    ++m_attempts;
    endInsertRows();
    return {b, pos};
}

void LiveTreeModel::markRunning(const QString &cellId)
{
    int branch = 0;
    int attempt = 0;
    if (!RoundTree::parseId(cellId, &branch, &attempt))
        return;
    const auto [b, a] = ensureAttempt(branch, attempt, cellId);
    Attempt &x = m_branches[b].attempts[a];
    if (!x.running) {
        x.running = true;
        --m_finished;
    }
    x.started.start();
    x.startedBeforeMs = 0;
    x.progress.reset();
    changed(index(b, 0), a, 0, ColumnCount - 1);
}

void LiveTreeModel::setRunning(const QList<AttemptLiveness> &attempts)
{
    QSet<QString> named;
    QSet<QString> stalled;
    for (const AttemptLiveness &l : attempts) {
        int branch = 0;
        int attempt = 0;
        if (!RoundTree::parseId(l.id, &branch, &attempt))
            continue;
        named.insert(l.id);
        if (l.stalled)
            stalled.insert(l.id);
        const std::pair<int, int> seen = find(branch, attempt);
        if (seen.first >= 0 && seen.second >= 0 && !m_branches.at(seen.first).attempts.at(seen.second).running)
            continue; // its cell is stored (the list of attempts was read before the cells)
        const auto [b, a] = ensureAttempt(branch, attempt, l.id);
        Attempt &x = m_branches[b].attempts[a];
        x.started.start();
        x.startedBeforeMs = qint64(l.ageS * 1000.0);
        changed(index(b, 0), a, StatusColumn, TimeColumn);
    }
    QStringList gone;
    for (const Branch &b : std::as_const(m_branches)) {
        for (const Attempt &a : b.attempts) {
            if (a.running && !named.contains(a.id))
                gone.append(a.id);
        }
    }
    for (const QString &id : std::as_const(gone))
        removeRunning(id);
    m_stalled = stalled; // the running rows repaint at the next tick()
}

void LiveTreeModel::setKillOffered(bool offered)
{
    m_killOffered = offered;
}

double LiveTreeModel::elapsedS(const Attempt &a)
{
    return double(a.started.elapsed() + a.startedBeforeMs) / 1000.0;
}

void LiveTreeModel::setProgress(const QString &cellId, const EvaluationProgress &progress)
{
    int branch = 0;
    int attempt = 0;
    if (!RoundTree::parseId(cellId, &branch, &attempt))
        return;
    const auto [b, a] = find(branch, attempt);
    if (b < 0 || a < 0 || !m_branches.at(b).attempts.at(a).running)
        return; // a late report of an attempt already stored or removed
    m_branches[b].attempts[a].progress = progress;
    changed(index(b, 0), a, StatusColumn, TimeColumn);
}

void LiveTreeModel::setStalled(const QSet<QString> &cellIds)
{
    m_stalled = cellIds; // the running rows repaint at the next tick()
}

QString LiveTreeModel::runningStatus(const Attempt &a) const
{
    if (m_stalled.contains(a.id))
        return m_killOffered ? tr("⚠ stalled: right-click to kill") : tr("⚠ stalled");
    static const char *const spinner[] = {"◐", "◓", "◑", "◒"};
    const QString frame = QString::fromUtf8(spinner[int((a.started.elapsed() / 250) % 4)]);
    if (!a.progress)
        return tr("%1 running").arg(frame);
    const EvaluationProgress &p = *a.progress;
    const bool reason = !p.reason.isEmpty() && p.reason != QLatin1String("None");
    if (p.isQueued()) {
        return reason ? tr("%1 pending (%2 job %3, %4)").arg(frame, p.backend, p.jobId, p.reason)
                      : tr("%1 pending (%2 job %3)").arg(frame, p.backend, p.jobId);
    }
    if (p.state == QLatin1String("RUNNING"))
        return tr("%1 running on %2 job %3").arg(frame, p.backend, p.jobId);
    // Completing, ended (being stored), or a state Slurm rarely shows.
    return reason ? tr("%1 %2 (%3 job %4, %5)").arg(frame, p.state.toLower(), p.backend, p.jobId, p.reason)
                  : tr("%1 %2 (%3 job %4)").arg(frame, p.state.toLower(), p.backend, p.jobId);
}

QString LiveTreeModel::runningTime(const Attempt &a) const
{
    const double total = elapsedS(a);
    if (!a.progress || a.progress->submittedMs <= 0)
        return tr("%1 s").arg(total, 0, 'f', 1);
    const EvaluationProgress &p = *a.progress;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (p.startedMs <= 0 && !p.queueWaitS)
        return tr("%1 s · queued %2 s").arg(total, 0, 'f', 1).arg(double(std::max<qint64>(0, now - p.submittedMs)) / 1000.0, 0, 'f', 1);
    const double queued = p.queueWaitS ? *p.queueWaitS : double(std::max<qint64>(0, p.startedMs - p.submittedMs)) / 1000.0;
    const double ran = p.runS ? *p.runS : double(std::max<qint64>(0, now - p.startedMs)) / 1000.0;
    return tr("%1 s · queued %2 s · ran %3 s").arg(total, 0, 'f', 1).arg(queued, 0, 'f', 1).arg(ran, 0, 'f', 1);
}

void LiveTreeModel::addCell(const Cell &cell)
{
    const auto [b, a] = ensureAttempt(cell.branch, cell.attempt, cell.id);
    Attempt &x = m_branches[b].attempts[a];
    if (x.running)
        ++m_finished;
    x.running = false;
    x.cell = cell;
    changed(index(b, 0), a, 0, ColumnCount - 1);
    changed({}, b, 0, ColumnCount - 1);
}

void LiveTreeModel::changed(const QModelIndex &parent, int row, int firstColumn, int lastColumn)
{
    // One signal per item: an item view repaints an item it shows, and
    // nothing for one it does not (an attempt of a collapsed branch), but it
    // repaints its whole viewport for a range of items, wherever they are.
    // Rows change with every cell of a round: the whole list was painted
    // again at every frame of a round.
    for (int column = firstColumn; column <= lastColumn; ++column) {
        const QModelIndex item = index(row, column, parent);
        emit dataChanged(item, item);
    }
}

void LiveTreeModel::removeRunning(const QString &cellId)
{
    int branch = 0;
    int attempt = 0;
    if (!RoundTree::parseId(cellId, &branch, &attempt))
        return;
    const auto [b, a] = find(branch, attempt);
    if (b < 0 || a < 0 || !m_branches.at(b).attempts.at(a).running)
        return;
    beginRemoveRows(index(b, 0), a, a);
    m_branches[b].attempts.removeAt(a);
    --m_attempts;
    endRemoveRows();
    if (m_branches.at(b).attempts.isEmpty()) {
        beginRemoveRows({}, b, b);
        m_branches.removeAt(b);
        endRemoveRows();
    }
}

void LiveTreeModel::tick()
{
    for (int b = 0; b < m_branches.size(); ++b) {
        const QList<Attempt> &list = m_branches.at(b).attempts;
        for (int a = 0; a < list.size(); ++a) {
            if (list.at(a).running)
                changed(index(b, 0), a, StatusColumn, TimeColumn);
        }
    }
}

int LiveTreeModel::runningCount() const
{
    int n = 0;
    for (const Branch &b : m_branches)
        n += int(std::count_if(b.attempts.begin(), b.attempts.end(), [](const Attempt &a) { return a.running; }));
    return n;
}

QList<RunningAttempt> LiveTreeModel::runningAttempts(std::optional<double> limitS) const
{
    QList<RunningAttempt> out;
    for (const Branch &b : m_branches) {
        for (const Attempt &a : b.attempts) {
            if (a.running)
                out.append(RunningAttempt{b.branch, a.attempt, elapsedS(a), limitS,
                                          m_stalled.contains(a.id)});
        }
    }
    return out;
}

QModelIndex LiveTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0)
        return {};
    if (!parent.isValid())
        return row < m_branches.size() ? createIndex(row, column, BranchNode) : QModelIndex();
    if (parent.internalId() != BranchNode || parent.row() >= m_branches.size())
        return {};
    if (row >= m_branches.at(parent.row()).attempts.size())
        return {};
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex LiveTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == BranchNode)
        return {};
    return createIndex(int(child.internalId() - 1), 0, BranchNode);
}

int LiveTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_branches.size());
    if (parent.column() != 0 || parent.internalId() != BranchNode || parent.row() >= m_branches.size())
        return 0;
    return int(m_branches.at(parent.row()).attempts.size());
}

int LiveTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant LiveTreeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    if (index.internalId() == BranchNode) {
        const Branch &b = m_branches.at(index.row());
        const QStringList steered = m_steered.value(b.branch);
        if (role == Qt::DisplayRole && index.column() == IdColumn) {
            QString glyphs;
            for (const QString &kind : steered)
                glyphs += kind == QLatin1String("close") ? QStringLiteral(" \u2715") // ✕
                          : kind == QLatin1String("refine") ? QStringLiteral(" \u21E7") // ⇧
                          : kind == QLatin1String("kill")   ? QStringLiteral(" \u2298") // ⊘ (TreeRenderer::steeringGlyphs)
                                                             : QStringLiteral(" \u270E"); // ✎
            return QString(tr("Branch %1").arg(b.branch) + glyphs);
        }
        if (role == Qt::ToolTipRole && index.column() == IdColumn && !steered.isEmpty()) {
            QStringList lines;
            for (const QString &kind : steered)
                lines.append(kind == QLatin1String("close")    ? tr("\u2715 closed by hand: never refined again")
                             : kind == QLatin1String("refine") ? tr("\u21E7 pinned by hand first in a batch")
                             : kind == QLatin1String("kill")   ? tr("\u2298 an attempt killed by hand")
                                                               : tr("\u270E given a hint for its next attempt"));
            return lines.join(QLatin1Char('\n'));
        }
        if (role == Qt::DisplayRole && index.column() == ScoreColumn) {
            std::optional<double> best;
            for (const Attempt &a : b.attempts) {
                if (!a.running && a.cell.score && (!best || *a.cell.score > *best))
                    best = a.cell.score;
            }
            return best ? QVariant(QString::number(*best, 'g', 6)) : QVariant();
        }
        if (role == Qt::DisplayRole && index.column() == StatusColumn)
            return tr("%n attempt(s)", nullptr, int(b.attempts.size()));
        return {};
    }
    const Attempt &a = m_branches.at(int(index.internalId() - 1)).attempts.at(index.row());
    if (role == RunningRole)
        return a.running;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case IdColumn: return a.id;
        case StatusColumn:
            return a.running ? runningStatus(a) : a.cell.failClass;
        case ScoreColumn:
            return !a.running && a.cell.score ? QVariant(QString::number(*a.cell.score, 'g', 6)) : QVariant();
        case TimeColumn: {
            if (a.running)
                return runningTime(a);
            const AttemptPayload::Timing timing = AttemptPayload::timingOf(a.cell);
            if (timing.queueWaitS)
                return tr("%1 s · queued %2 s · ran %3 s")
                    .arg(timing.wallS, 0, 'f', 1)
                    .arg(*timing.queueWaitS, 0, 'f', 1)
                    .arg(timing.runS.value_or(0.0), 0, 'f', 1);
            return tr("%1 s").arg(timing.wallS, 0, 'f', 1);
        }
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && a.running && a.progress) {
        const EvaluationProgress &p = *a.progress;
        const bool reason = !p.reason.isEmpty() && p.reason != QLatin1String("None");
        return reason ? tr("%1 job %2: %3 (reason: %4)").arg(p.backend, p.jobId, p.state, p.reason)
                      : tr("%1 job %2: %3").arg(p.backend, p.jobId, p.state);
    }
    if (role == Qt::ToolTipRole && !a.running) {
        const std::optional<AttemptPayload::Scheduler> scheduler = AttemptPayload::schedulerOf(a.cell);
        const QString job = scheduler ? tr("%1 job %2: %3").arg(scheduler->backend, scheduler->jobId, scheduler->state) : QString();
        if (a.cell.error)
            return job.isEmpty() ? *a.cell.error : *a.cell.error + QLatin1Char('\n') + job;
        if (!job.isEmpty())
            return job;
    }
    if (role == Qt::ForegroundRole && index.column() == StatusColumn) {
        if (a.running)
            return QBrush(QColor(0x1f, 0x77, 0xb4));
        if (!a.cell.isSuccess())
            return QBrush(QColor(0xd6, 0x27, 0x28));
    }
    return {};
}

QVariant LiveTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IdColumn: return tr("Cell");
    case StatusColumn: return tr("Status");
    case ScoreColumn: return tr("Score");
    case TimeColumn: return tr("Time");
    default: return {};
    }
}

} // namespace dreamrsi
