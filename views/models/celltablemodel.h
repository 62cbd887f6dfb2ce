#pragma once

#include "model/discoverytree.h"

#include <QAbstractTableModel>

#include <memory>

namespace dreamrsi {

/// The cells of one discovery tree as a flat table (one row a cell, sorted by seq).
/// Sorting and filtering are left to a QSortFilterProxyModel: `SortRole` gives
/// numbers for numeric columns so that 10 sorts after 9.
class CellTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Id, Branch, Attempt, Seq, Score, FailClass, Valid, Tests, Tags, Error, ColumnCount };
    enum Role { SortRole = Qt::UserRole, CellIndexRole };

    explicit CellTableModel(QObject *parent = nullptr);

    void setTree(std::shared_ptr<const DiscoveryTree> tree);
    /// The same tree grown by cells appended at the end (a live round):
    /// inserts the new rows instead of resetting the table.
    void growTo(std::shared_ptr<const DiscoveryTree> tree);
    std::shared_ptr<const DiscoveryTree> tree() const { return m_tree; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const DiscoveryTree> m_tree;
};

} // namespace dreamrsi
