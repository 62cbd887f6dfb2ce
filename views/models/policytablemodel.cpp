#include "policytablemodel.h"

#include "workspace.h"

#include <QColor>
#include <QFont>
#include <QLocale>

#include <cmath>

namespace dreamrsi {

namespace {

/// A world's value, hypervolume and penalty in a version's result, and its
/// first error; nothing when the result lacks the world. Under the imagined
/// valuation the world was replayed in its C completions ("<world> ·
/// imagined k"), so its numbers are their means over the completions that
/// have one, as the approval's world-by-world comparison gives them
/// (core/project/approvalcomparison.cpp).
struct WorldNumbers
{
    std::optional<double> value, hypervolume, penalty;
    QString error;
};

std::optional<WorldNumbers> worldNumbers(const ReplayResult &r, const QString &world)
{
    if (r.completions <= 0) {
        const SweepResult *s = r.sweepOf(world);
        if (!s)
            return std::nullopt;
        return WorldNumbers{s->value, s->hypervolume, s->penalty, s->ok() ? QString() : s->error};
    }
    double sums[3]{};
    int counts[3]{};
    WorldNumbers n;
    for (int k = 0; k < r.completions; ++k) {
        const SweepResult *s = r.sweepOf(ProjectScores::completionName(world, k));
        if (!s)
            return std::nullopt;
        if (!s->ok() && n.error.isEmpty())
            n.error = s->error;
        const std::optional<double> parts[3]{s->value, s->hypervolume, s->penalty};
        for (int i = 0; i < 3; ++i) {
            if (parts[i]) {
                sums[i] += *parts[i];
                ++counts[i];
            }
        }
    }
    auto mean = [&](int i) { return counts[i] > 0 ? std::optional<double>(sums[i] / counts[i]) : std::nullopt; };
    n.value = mean(0);
    n.hypervolume = mean(1);
    n.penalty = mean(2);
    return n;
}

} // namespace

PolicyTableModel::PolicyTableModel(Workspace *workspace, QObject *parent)
    : QAbstractTableModel(parent)
    , m_workspace(workspace)
{
    // Row-level: a version is a row, a world a group of columns.
    connect(workspace, &Workspace::versionAdded, this, [this](int row) {
        beginInsertRows({}, row, row);
        ++m_rows;
        endInsertRows();
    });
    connect(workspace, &Workspace::versionChanged, this, [this](int row) {
        if (row < m_rows && columnCount() > 0)
            emit dataChanged(index(row, 0), index(row, columnCount() - 1));
    });
    connect(workspace, &Workspace::worldAdded, this, [this](int row) {
        const int first = FixedColumns + PerWorld * row;
        beginInsertColumns({}, first, first + PerWorld - 1);
        m_worlds.insert(row, m_workspace->worlds().at(row).name);
        endInsertColumns();
    });
    connect(workspace, &Workspace::worldRemoved, this, [this](int row) {
        const int first = FixedColumns + PerWorld * row;
        beginRemoveColumns({}, first, first + PerWorld - 1);
        m_worlds.removeAt(row);
        endRemoveColumns();
    });
    connect(workspace, &Workspace::worldChanged, this, [this](int row) {
        if (m_rows > 0)
            emit dataChanged(index(0, FixedColumns + PerWorld * row), index(m_rows - 1, FixedColumns + PerWorld * row + PerWorld - 1));
    });
    connect(workspace, &Workspace::worldsCleared, this, &PolicyTableModel::reset);
    connect(workspace, &Workspace::versionsCleared, this, &PolicyTableModel::reset);
    connect(workspace, &Workspace::approvalsChanged, this, [this] {
        if (m_rows > 0)
            emit dataChanged(index(0, Approved), index(m_rows - 1, Approved));
    });
    connect(workspace, &Workspace::resultsChanged, this, [this](const QString &name) {
        const int row = m_workspace->indexOfVersion(name);
        if (row >= 0 && row < m_rows && columnCount() > 0)
            emit dataChanged(index(row, 0), index(row, columnCount() - 1));
    });
    reset();
}

void PolicyTableModel::reset()
{
    beginResetModel();
    m_worlds.clear();
    for (const WorldEntry &w : m_workspace->worlds())
        m_worlds.append(w.name);
    m_rows = int(m_workspace->versions().size());
    endResetModel();
}

int PolicyTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int PolicyTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : FixedColumns + PerWorld * int(m_worlds.size());
}

QVariant PolicyTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (index.row() >= m_workspace->versions().size())
        return {};
    const PolicyVersion &v = m_workspace->versions().at(index.row());
    if (role == VersionNameRole)
        return v.name;
    const ReplayResultPtr r = m_workspace->result(v.name);
    const int col = index.column();
    if (role == Qt::TextAlignmentRole)
        return col >= MeanValue ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    auto number = [role](const std::optional<double> &x) -> QVariant {
        if (role == SortRole)
            return x ? *x : -std::numeric_limits<double>::infinity();
        if (role == Qt::DisplayRole)
            return x ? QString::number(*x, 'f', 4) : QStringLiteral("—");
        return {};
    };
    if (col == Name) {
        if (role == Qt::DisplayRole || role == SortRole)
            return v.name;
        return {};
    }
    if (col == Origin) {
        if (role != Qt::DisplayRole && role != SortRole)
            return {};
        switch (v.origin) {
        case PolicyOrigin::Builtin: return tr("built-in");
        case PolicyOrigin::Human: return tr("edited");
        case PolicyOrigin::Agent: return tr("agent");
        }
        return {};
    }
    if (col == Parent) {
        if (role != Qt::DisplayRole && role != SortRole)
            return {};
        for (const PolicyVersion &p : m_workspace->versions()) {
            if (v.parent != 0 && p.id == v.parent)
                return p.name;
        }
        return QString();
    }
    if (col == Approved) {
        const std::optional<Approval> a = m_workspace->latestApprovalOf(v.id);
        if (!a)
            return role == SortRole ? QVariant(QString()) : QVariant();
        const bool deployed = m_workspace->deployedVersion() == v.id;
        const QString when = QLocale().toString(a->when.toLocalTime(), QLocale::ShortFormat);
        switch (role) {
        case Qt::DisplayRole:
            return deployed ? tr("deployed (%1)").arg(when) : tr("approved %1").arg(when);
        case SortRole:
            return a->when.toString(Qt::ISODateWithMs);
        case Qt::ToolTipRole:
            return tr("Approved by %1 on %2%3").arg(a->who.isEmpty() ? tr("(unnamed)") : a->who, when,
                                                     a->note.isEmpty() ? QString() : QStringLiteral(": ") + a->note);
        case Qt::FontRole: {
            QFont f;
            f.setBold(deployed);
            return f;
        }
        case Qt::ForegroundRole:
            return deployed ? QVariant(QColor(0x2c, 0xa0, 0x2c)) : QVariant();
        default:
            return {};
        }
    }
    if (col == MeanValue) {
        if (role == Qt::ToolTipRole && r && !r->ok())
            return r->firstError();
        // A mean over some of the worlds would not compare with the others'
        // (ProjectScores leaves it out): say how far the replays reach.
        if (r && r->ok() && !r->value && role != SortRole) {
            const qsizetype covered = m_workspace->worldsReplayed(*r);
            if (covered < m_worlds.size()) {
                switch (role) {
                case Qt::DisplayRole: return tr("%1 of %2 worlds").arg(covered).arg(m_worlds.size());
                case Qt::ToolTipRole:
                    return tr("Replayed on %1 of the %2 worlds, so there is no mean value yet: versions are compared "
                              "over every world. Replay this version to fill in the rest.")
                        .arg(covered)
                        .arg(m_worlds.size());
                case Qt::ForegroundRole: return QColor(0x7f, 0x7f, 0x7f);
                case Qt::FontRole: return QFont();
                default: return {};
                }
            }
        }
        if (role == Qt::FontRole) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return number(r ? r->value : std::nullopt);
    }
    const int w = (col - FixedColumns) / PerWorld;
    const int kind = (col - FixedColumns) % PerWorld;
    const std::optional<WorldNumbers> world = r ? worldNumbers(*r, m_worlds.value(w)) : std::nullopt;
    if (role == Qt::ToolTipRole && world && !world->error.isEmpty())
        return world->error;
    if (role == Qt::ToolTipRole && world && r->completions > 0)
        return tr("Mean over this world's C = %1 imagined completions").arg(r->completions);
    if (role == Qt::ForegroundRole && world && !world->error.isEmpty())
        return QColor(0xd6, 0x27, 0x28);
    if (!world)
        return number(std::nullopt);
    switch (kind) {
    case WorldValue: return number(world->value);
    case WorldHypervolume: return number(world->hypervolume);
    default: return number(world->penalty);
    }
}

QVariant PolicyTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name: return tr("Version");
    case Origin: return tr("Origin");
    case Parent: return tr("Parent");
    case Approved:
        return role == Qt::ToolTipRole ? tr("Approvals for redeployment; the newest one is deployed in the next round")
                                       : tr("Approval");
    case MeanValue: return role == Qt::ToolTipRole ? tr("Mean value over the scorable worlds") : tr("Value");
    default: break;
    }
    const int w = (section - FixedColumns) / PerWorld;
    if (w < 0 || w >= m_worlds.size())
        return {};
    const QString world = m_worlds.at(w);
    switch ((section - FixedColumns) % PerWorld) {
    case WorldValue: return tr("%1: value").arg(world);
    case WorldHypervolume: return tr("%1: HV").arg(world);
    default: return tr("%1: penalty").arg(world);
    }
}

} // namespace dreamrsi
