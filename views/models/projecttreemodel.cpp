#include "projecttreemodel.h"

#include "treesummarytext.h"
#include "workspace.h"

#include <QIcon>

namespace dreamrsi {

// Group items carry internal id 0; child items carry their group + 1.
ProjectTreeModel::ProjectTreeModel(Workspace *workspace, QObject *parent)
    : QAbstractItemModel(parent)
    , m_workspace(workspace)
{
    m_rows[WorldsGroup] = int(workspace->worlds().size());
    m_rows[VersionsGroup] = int(workspace->versions().size());
    // Row-level: a world or version added, changed or removed touches its row only.
    connect(workspace, &Workspace::worldAdded, this, [this](int row) { insertWorldOrVersion(WorldsGroup, row); });
    connect(workspace, &Workspace::worldRemoved, this, [this](int row) { removeWorldOrVersion(WorldsGroup, row); });
    connect(workspace, &Workspace::worldChanged, this, [this](int row) { changeWorldOrVersion(WorldsGroup, row); });
    connect(workspace, &Workspace::cellAppended, this, [this](int row) { changeWorldOrVersion(WorldsGroup, row); });
    connect(workspace, &Workspace::worldsCleared, this, [this] { resetGroup(WorldsGroup); });
    connect(workspace, &Workspace::versionAdded, this, [this](int row) { insertWorldOrVersion(VersionsGroup, row); });
    connect(workspace, &Workspace::versionChanged, this, [this](int row) { changeWorldOrVersion(VersionsGroup, row); });
    connect(workspace, &Workspace::versionsCleared, this, [this] { resetGroup(VersionsGroup); });
    connect(workspace, &Workspace::resultsChanged, this, [this] {
        if (m_rows[VersionsGroup] > 0)
            emit dataChanged(index(0, 0, groupIndex(VersionsGroup)), index(m_rows[VersionsGroup] - 1, 0, groupIndex(VersionsGroup)));
    });
}

void ProjectTreeModel::insertWorldOrVersion(Group group, int row)
{
    const QModelIndex parent = groupIndex(group);
    beginInsertRows(parent, row, row);
    ++m_rows[group];
    endInsertRows();
    emit dataChanged(parent, parent);
}

void ProjectTreeModel::removeWorldOrVersion(Group group, int row)
{
    const QModelIndex parent = groupIndex(group);
    beginRemoveRows(parent, row, row);
    --m_rows[group];
    endRemoveRows();
    emit dataChanged(parent, parent);
}

void ProjectTreeModel::changeWorldOrVersion(Group group, int row)
{
    const QModelIndex i = index(row, 0, groupIndex(group));
    emit dataChanged(i, i);
}

void ProjectTreeModel::resetGroup(Group group)
{
    const QModelIndex parent = groupIndex(group);
    const int newRows = int(group == WorldsGroup ? m_workspace->worlds().size() : m_workspace->versions().size());
    if (m_rows[group] > 0) {
        beginRemoveRows(parent, 0, m_rows[group] - 1);
        m_rows[group] = 0;
        endRemoveRows();
    }
    if (newRows > 0) {
        beginInsertRows(parent, 0, newRows - 1);
        m_rows[group] = newRows;
        endInsertRows();
    }
    emit dataChanged(parent, parent);
}

QModelIndex ProjectTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex ProjectTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId()) - 1, 0, quintptr(0));
}

int ProjectTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return GroupCount;
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    return m_rows[parent.row()];
}

int ProjectTreeModel::columnCount(const QModelIndex &) const
{
    return 1;
}

QVariant ProjectTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == 0) {
        switch (role) {
        case Qt::DisplayRole:
            return index.row() == WorldsGroup ? tr("Worlds (%1)").arg(m_rows[WorldsGroup])
                                              : tr("Policy versions (%1)").arg(m_rows[VersionsGroup]);
        case Qt::ToolTipRole:
            return data(index, Qt::DisplayRole);
        case Qt::DecorationRole:
            return QIcon::fromTheme(index.row() == WorldsGroup ? QStringLiteral("folder") : QStringLiteral("text-x-script"));
        case KindRole:
            return int(GroupItem);
        case RowRole:
            return index.row();
        default:
            return {};
        }
    }
    const int group = int(index.internalId()) - 1;
    if (role == KindRole)
        return int(group == WorldsGroup ? WorldItem : VersionItem);
    if (role == RowRole)
        return index.row();
    if (group == WorldsGroup) {
        if (index.row() >= m_workspace->worlds().size())
            return {};
        const WorldEntry &w = m_workspace->worlds().at(index.row());
        switch (role) {
        case Qt::DisplayRole:
        {
            // The name already says which iteration it is ("iteration 3",
            // or the imported file's name); the task it ran follows it.
            const QString task = w.tree ? w.tree->meta().task.value_or(QString()) : QString();
            const QString name = task.isEmpty() || w.name.contains(task) ? w.name : tr("%1 — %2").arg(w.name, task);
            // An approximate world (an imported run with forks or orphans) says so.
            return w.tree && w.tree->meta().approximate ? tr("%1 (approximate)").arg(name) : name;
        }
        case Qt::ToolTipRole:
            // The whole name first: the dock is narrow and cuts long ones.
            return QString(data(index, Qt::DisplayRole).toString() + QLatin1Char('\n')
                           + (w.path.isEmpty() ? QString() : w.path + QLatin1Char('\n'))
                           + (w.tree ? TreeSummaryText::of(*w.tree) : QString()))
                .trimmed();
        default:
            return {};
        }
    }
    if (index.row() >= m_workspace->versions().size())
        return {};
    const PolicyVersion &v = m_workspace->versions().at(index.row());
    const ReplayResultPtr r = m_workspace->result(v.name);
    switch (role) {
    case Qt::DisplayRole:
        if (r && r->value)
            return tr("%1 — value %2").arg(v.name).arg(*r->value, 0, 'f', 4);
        if (r && r->ok() && m_workspace->worldsReplayed(*r) < m_workspace->worlds().size())
            return tr("%1 — %2 of %3 worlds").arg(v.name).arg(m_workspace->worldsReplayed(*r)).arg(m_workspace->worlds().size());
        return v.name;
    case Qt::ToolTipRole: {
        const QString shown = data(index, Qt::DisplayRole).toString(); // whole, however narrow the dock
        return v.prompt.isEmpty() ? shown : QString(shown + QLatin1Char('\n') + v.prompt.left(300));
    }
    default:
        return {};
    }
}

QVariant ProjectTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (section == 0 && orientation == Qt::Horizontal && role == Qt::DisplayRole)
        return tr("Project");
    return {};
}

} // namespace dreamrsi
