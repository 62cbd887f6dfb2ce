#include "celltablemodel.h"

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

QVariant CellTableModel::data(const QModelIndex &index, int role) const
{
    if (!m_tree || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Cell &c = m_tree->cells().at(index.row());
    if (role == CellIndexRole)
        return index.row();
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
        case Branch: case Attempt: case Seq: case Score: case Tests:
            return int(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    }
    if (role == Qt::ForegroundRole && index.column() == FailClass && !c.isSuccess())
        return QBrush(QColor(0xc0, 0x39, 0x2b));
    if (role == Qt::ToolTipRole && index.column() == Error && c.error)
        return *c.error;
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
    case FailClass: return tr("Outcome");
    case Valid: return tr("Valid");
    case Tests: return tr("Tests");
    case Tags: return tr("Tags");
    case Error: return tr("Error");
    default: return {};
    }
}

} // namespace dreamrsi
