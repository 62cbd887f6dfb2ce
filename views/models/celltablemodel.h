#pragma once

#include "model/discoverytree.h"
#include "project/reevaluationstats.h"

#include <QAbstractTableModel>
#include <QHash>

#include <memory>

namespace dreamrsi {

/// The cells of one discovery tree as a flat table (one row a cell, sorted by seq).
/// Sorting and filtering are left to a QSortFilterProxyModel: `SortRole` gives
/// numbers for numeric columns so that 10 sorts after 9.
class CellTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Id, Branch, Attempt, Seq, Score, Reevaluated, FailClass, Valid, Tests, Tags, Error, ColumnCount };
    enum Role { SortRole = Qt::UserRole, CellIndexRole };

    explicit CellTableModel(QObject *parent = nullptr);

    void setTree(std::shared_ptr<const DiscoveryTree> tree);
    /// The same tree grown by cells appended at the end (a live round):
    /// inserts the new rows instead of resetting the table.
    void growTo(std::shared_ptr<const DiscoveryTree> tree);
    std::shared_ptr<const DiscoveryTree> tree() const { return m_tree; }
    /// The statistics of the tree's re-evaluated cells (docs/online.md#re-evaluating-the-best),
    /// shown as "mean ± half-width" with lucky cells marked; empty for none.
    void setReevaluations(const QList<ReevaluationStats> &stats);
    /// A cell's statistics, or null when it was never re-evaluated.
    const ReevaluationStats *reevaluation(const QString &cellId) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const DiscoveryTree> m_tree;
    QHash<QString, ReevaluationStats> m_reevaluations;
};

} // namespace dreamrsi
