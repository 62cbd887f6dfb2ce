#pragma once

#include <QAbstractItemModel>

namespace dreamrsi {

class Workspace;

/// The project dock's tree: two groups, "Worlds" (iterations and tree files)
/// and "Policy versions", each listing the workspace's entries.
class ProjectTreeModel final : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Group { WorldsGroup, VersionsGroup, GroupCount };
    enum Role { KindRole = Qt::UserRole, RowRole };
    enum Kind { GroupItem, WorldItem, VersionItem };

    explicit ProjectTreeModel(Workspace *workspace, QObject *parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    QModelIndex groupIndex(Group group) const { return index(group, 0); }

private:
    void insertWorldOrVersion(Group group, int row);
    void removeWorldOrVersion(Group group, int row);
    void changeWorldOrVersion(Group group, int row);
    void resetGroup(Group group);

    Workspace *m_workspace;
    int m_rows[GroupCount] = {0, 0};
};

} // namespace dreamrsi
