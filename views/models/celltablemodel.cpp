#include "celltablemodel.h"

#include "reevaluationsummary.h"

#include <QBrush>
#include <QColor>

namespace dreamrsi {

CellTableModel::CellTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void CellTableModel::setTree(std::shared_ptr<const DiscoveryTree> tree)
{
    beginResetModel();
    m_tree = std::move(tree);
    m_reevaluations.clear(); // another tree's; the owner sets this one's
    endResetModel();
}

void CellTableModel::growTo(std::shared_ptr<const DiscoveryTree> tree)
{
    const int before = m_tree ? m_tree->cellCount() : 0;
    const int after = tree ? tree->cellCount() : 0;
    if (after <= before) {
        setTree(std::move(tree));
        return;
    }
    beginInsertRows({}, before, after - 1);
    m_tree = std::move(tree);
    endInsertRows();
    if (before > 0) // rows already shown keep their places; their cells may have new values
        emit dataChanged(index(0, 0), index(before - 1, ColumnCount - 1));
}

int CellTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_tree ? 0 : m_tree->cellCount();
}

int CellTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void CellTableModel::setReevaluations(const QList<ReevaluationStats> &stats)
{
    m_reevaluations.clear();
    for (const ReevaluationStats &s : stats)
        m_reevaluations.insert(s.cellId, s);
    if (rowCount() > 0)
        emit dataChanged(index(0, Score), index(rowCount() - 1, Reevaluated));
}

const ReevaluationStats *CellTableModel::reevaluation(const QString &cellId) const
{
    const auto it = m_reevaluations.constFind(cellId);
    return it == m_reevaluations.constEnd() ? nullptr : &*it;
}

QVariant CellTableModel::data(const QModelIndex &index, int role) const
{
    if (!m_tree || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Cell &c = m_tree->cells().at(index.row());
    if (role == CellIndexRole)
        return index.row();
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
        case Branch: case Attempt: case Seq: case Score: case Reevaluated: case Tests:
            return int(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    }
    if (role == Qt::ForegroundRole && index.column() == FailClass && !c.isSuccess())
        return QBrush(QColor(0xc0, 0x39, 0x2b));
    if (role == Qt::ToolTipRole && index.column() == Error && c.error)
        return *c.error;
    const ReevaluationStats *re = reevaluation(c.id);
    // A lucky cell: its recorded score lies above the interval of its re-evaluations.
    if (re && re->lucky && role == Qt::BackgroundRole && (index.column() == Score || index.column() == Reevaluated))
        return QBrush(QColor(0xf3, 0x9c, 0x12, 0x60));
    if (re && role == Qt::ToolTipRole && (index.column() == Score || index.column() == Reevaluated)) {
        QString tip = tr("%n re-evaluation(s), %1 failed", nullptr, int(re->repeats.size())).arg(re->failed);
        if (re->mean)
            tip += QLatin1Char('\n') + tr("mean %1, sd %2").arg(QString::number(*re->mean, 'g', 6),
                                                              re->sd ? QString::number(*re->sd, 'g', 3) : tr("—"));
        if (re->ci95)
            tip += QLatin1Char('\n') + tr("95 % interval [%1, %2]").arg(QString::number(re->ci95->first, 'g', 6),
                                                                      QString::number(re->ci95->second, 'g', 6));
        if (re->lucky)
            tip += QLatin1Char('\n') + tr("Lucky: the recorded score lies above the interval");
        return tip;
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool sort = role == SortRole;
    switch (index.column()) {
    case Id: return c.id;
    case Branch: return c.branch;
    case Attempt: return c.attempt;
    case Seq: return c.seq;
    case Score:
        if (sort)
            return c.score ? *c.score : -std::numeric_limits<double>::infinity();
        return c.score ? QString::number(*c.score, 'g', 10) : tr("—");
    case Reevaluated:
        if (!re || !re->mean)
            return sort ? QVariant(-std::numeric_limits<double>::infinity())
                        : QVariant(re ? tr("failed ×%1").arg(re->failed) : QString());
        if (sort)
            return *re->mean;
        return QString((re->halfWidth() ? tr("%1 ± %2").arg(QString::number(*re->mean, 'g', 6),
                                                            ReevaluationSummary::spreadText(*re->mean, *re->halfWidth(), 3))
                                        : QString::number(*re->mean, 'g', 6))
                       + (re->lucky ? QStringLiteral(" ⚠") : QString()));
    case FailClass: return c.failClass;
    case Valid:
        if (!c.valid)
            return sort ? QVariant(-1) : QVariant(tr("—"));
        return sort ? QVariant(int(*c.valid)) : QVariant(*c.valid ? tr("yes") : tr("no"));
    case Tests:
        if (sort)
            return c.nValid ? double(*c.nValid) : -1.0;
        if (!c.nValid && !c.nTotal)
            return tr("—");
        return QStringLiteral("%1/%2")
            .arg(c.nValid ? QString::number(*c.nValid) : QStringLiteral("?"),
                 c.nTotal ? QString::number(*c.nTotal) : QStringLiteral("?"));
    case Tags: return c.tags.join(QStringLiteral(", "));
    case Error: return c.error ? c.error->section(QLatin1Char('\n'), 0, 0) : QString();
    default: return {};
    }
}

QVariant CellTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Id: return tr("Id");
    case Branch: return tr("Branch");
    case Attempt: return tr("Attempt");
    case Seq: return tr("Seq");
    case Score: return tr("Score");
    case Reevaluated: return tr("Mean ± 95 %");
    case FailClass: return tr("Outcome");
    case Valid: return tr("Valid");
    case Tests: return tr("Tests");
    case Tags: return tr("Tags");
    case Error: return tr("Error");
    default: return {};
    }
}

} // namespace dreamrsi
