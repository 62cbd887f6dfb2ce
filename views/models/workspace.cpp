#include "workspace.h"

#include <algorithm>

#include <QFileInfo>

namespace dreamrsi {

Workspace::Workspace(QObject *parent)
    : QObject(parent)
{
}

int Workspace::addWorld(WorldEntry world)
{
    for (int i = 0; i < m_worlds.size(); ++i) {
        WorldEntry &w = m_worlds[i];
        const bool same = world.iteration != 0 ? w.iteration == world.iteration : (!world.path.isEmpty() && w.path == world.path);
        if (same) {
            world.name = w.name;
            w = std::move(world);
            emit worldChanged(i);
            emit worldsChanged();
            return i;
        }
    }
    // Keep names unique: results are keyed by them.
    const QString base = world.name.isEmpty() ? QFileInfo(world.path).fileName() : world.name;
    QString name = base;
    for (int n = 2; indexOfWorld(name) >= 0; ++n)
        name = QStringLiteral("%1 (%2)").arg(base).arg(n);
    world.name = name;
    m_worlds.append(std::move(world));
    const int row = int(m_worlds.size()) - 1;
    emit worldAdded(row);
    emit worldsChanged();
    return row;
}

void Workspace::removeWorld(int row)
{
    if (row < 0 || row >= m_worlds.size())
        return;
    m_reevaluations.remove(m_worlds.at(row).iteration);
    m_worlds.removeAt(row);
    emit worldRemoved(row);
    emit worldsChanged();
}

int Workspace::indexOfWorld(const QString &name) const
{
    for (int i = 0; i < m_worlds.size(); ++i) {
        if (m_worlds.at(i).name == name)
            return i;
    }
    return -1;
}

Result<Done> Workspace::appendCell(int row, const Cell &cell)
{
    if (row < 0 || row >= m_worlds.size())
        return Result<Done>::failure(QStringLiteral("no world at row %1").arg(row));
    WorldEntry &w = m_worlds[row];
    QList<Cell> cells = w.tree ? w.tree->cells() : QList<Cell>();
    const TreeMeta meta = w.tree ? w.tree->meta() : TreeMeta();
    cells.append(cell);
    TreeError error;
    std::optional<DiscoveryTree> grown = DiscoveryTree::build(meta, std::move(cells), &error);
    if (!grown)
        return Result<Done>::failure(QStringLiteral("cell %1 does not fit world %2: %3").arg(cell.id, w.name, error.message));
    const int index = grown->cellCount() - 1;
    if (grown->cells().at(index).id != cell.id)
        return Result<Done>::failure(QStringLiteral("cell %1 does not come last in world %2").arg(cell.id, w.name));
    w.tree = std::make_shared<const DiscoveryTree>(std::move(*grown));
    emit cellAppended(row, index);
    emit worldsChanged();
    return Result<Done>::success({});
}

void Workspace::clearWorlds()
{
    m_worlds.clear();
    m_reevaluations.clear(); // of the project those worlds were of
    emit worldsCleared();
    emit worldsChanged();
}

void Workspace::setReevaluations(IterationId iteration, QList<ReevaluationStats> stats)
{
    if (stats.isEmpty())
        m_reevaluations.remove(iteration);
    else
        m_reevaluations.insert(iteration, std::move(stats));
    emit reevaluationsChanged(iteration);
}

int Workspace::addVersion(const PolicyVersion &version)
{
    PolicyVersion v = version;
    if (v.id == 0)
        v.id = m_nextLocalId++;
    const int existing = indexOfVersion(v.name);
    if (existing >= 0) {
        m_versions[existing] = v;
        emit versionChanged(existing);
        emit versionsChanged();
        return existing;
    }
    m_versions.append(v);
    const int row = int(m_versions.size()) - 1;
    emit versionAdded(row);
    emit versionsChanged();
    return row;
}

int Workspace::indexOfVersion(const QString &name) const
{
    for (int i = 0; i < m_versions.size(); ++i) {
        if (m_versions.at(i).name == name)
            return i;
    }
    return -1;
}

void Workspace::clearVersions()
{
    m_versions.clear();
    m_results.clear();
    m_otherValuation.clear();
    m_approvals.clear();
    emit versionsCleared();
    emit versionsChanged();
    emit approvalsChanged();
}

QString Workspace::freshVersionName(const QString &base) const
{
    QString stem = base;
    const qsizetype colon = stem.indexOf(QLatin1Char(':'));
    if (colon >= 0)
        stem = stem.mid(colon + 1);
    // "name.3" → "name"
    const qsizetype dot = stem.lastIndexOf(QLatin1Char('.'));
    bool numeric = false;
    if (dot > 0)
        stem.mid(dot + 1).toInt(&numeric);
    if (numeric)
        stem = stem.left(dot);
    for (int n = 2;; ++n) {
        const QString name = QStringLiteral("%1.%2").arg(stem).arg(n);
        if (indexOfVersion(name) < 0)
            return name;
    }
}

qsizetype Workspace::worldsReplayed(const ReplayResult &result) const
{
    // Under the imagined valuation a world is replayed when each of its C
    // completions is (their sweeps carry the completions' names).
    return std::count_if(m_worlds.cbegin(), m_worlds.cend(), [&result](const WorldEntry &w) {
        if (result.completions <= 0)
            return result.sweepOf(w.name) != nullptr;
        for (int k = 0; k < result.completions; ++k) {
            if (!result.sweepOf(ProjectScores::completionName(w.name, k)))
                return false;
        }
        return true;
    });
}

void Workspace::setResult(const QString &versionName, ReplayResultPtr result)
{
    m_results.insert(versionName, std::move(result));
    emit resultsChanged(versionName);
}

void Workspace::clearResults()
{
    const QStringList names = m_results.keys();
    m_results.clear();
    for (const QString &n : names)
        emit resultsChanged(n);
}

void Workspace::setOtherValuationResults(QHash<QString, ReplayResultPtr> results)
{
    m_otherValuation = std::move(results);
}

void Workspace::setReplayConfig(std::optional<StoredReplayConfig> config)
{
    m_replayConfig = std::move(config);
    emit replayConfigChanged();
}

void Workspace::setOtherResults(QList<ConfiguredResult> results)
{
    m_otherResults = std::move(results);
    emit replayConfigChanged();
}

void Workspace::setStaleVersions(QList<PolicyVersionId> versions)
{
    m_stale = std::move(versions);
    emit replayConfigChanged();
}

void Workspace::setApprovals(QList<Approval> approvals)
{
    m_approvals = std::move(approvals);
    emit approvalsChanged();
}

void Workspace::addApproval(const Approval &approval)
{
    m_approvals.append(approval);
    emit approvalsChanged();
}

std::optional<Approval> Workspace::latestApprovalOf(PolicyVersionId version) const
{
    for (auto it = m_approvals.crbegin(); it != m_approvals.crend(); ++it) {
        if (it->version == version)
            return *it;
    }
    return std::nullopt;
}

} // namespace dreamrsi
