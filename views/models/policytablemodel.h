#pragma once

#include <QAbstractTableModel>

namespace dreamrsi {

class Workspace;

/// Policy versions with their scores: one row a version; columns name,
/// origin, parent, approval (the deployed version is marked), mean value, then value, hypervolume and penalty for each
/// open world.
class PolicyTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum FixedColumn { Name, Origin, Parent, Approved, MeanValue, FixedColumns };
    enum WorldColumn { WorldValue, WorldHypervolume, WorldPenalty, PerWorld };
    enum Role { SortRole = Qt::UserRole, VersionNameRole };

    explicit PolicyTableModel(Workspace *workspace, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void reset();

    Workspace *m_workspace;
    QStringList m_worlds; ///< world names, frozen between resets
    int m_rows = 0;
};

} // namespace dreamrsi
