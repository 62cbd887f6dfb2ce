#include "projectsession.h"

#include "jobtracker.h"
#include "project/projectpolicies.h"
#include "project/projectscores.h"
#include "project/projectworlds.h"
#include "replayjobs.h"
#include "store/projectstore.h"
#include "models/workspace.h"

#include <QFileInfo>

namespace dreamrsi {

namespace {
const QString ProjectScope = QStringLiteral("project");
}

ProjectSession::ProjectSession(Workspace *workspace, JobTracker *jobs, QObject *parent)
    : QObject(parent)
    , m_workspace(workspace)
    , m_jobs(jobs)
    , m_store(new ProjectStore(this))
{
}

ProjectSession::~ProjectSession() = default;

void ProjectSession::open(const QString &path)
{
    openWith(QFileInfo(path).absoluteFilePath(), false);
}

void ProjectSession::create(const QString &path)
{
    openWith(QFileInfo(path).absoluteFilePath(), true);
}

void ProjectSession::openWith(const QString &absolute, bool create)
{
    m_jobs->renew(ProjectScope);
    m_path.clear();
    m_jobs->then(ProjectScope, m_store->close(), this, [this, absolute, create](StoreResult<Done>) {
        ProjectInfo info;
        info.name = QFileInfo(absolute).completeBaseName();
        auto future = create ? m_store->create(absolute, info) : m_store->open(absolute);
        m_jobs->then(ProjectScope, future, this, [this, absolute, create](StoreResult<OpenReport> r) {
            if (r.ok())
                return finishOpen(absolute, *r.value);
            if (create) {
                emit openFailed(absolute, r.error);
                return;
            }
            // Held for writing by another live process: open it to read and
            // follow. Anything else keeps the first error.
            const QString error = r.error;
            m_jobs->then(ProjectScope, m_store->openReadOnly(absolute), this, [this, absolute, error](StoreResult<OpenReport> ro) {
                if (ro.ok() && ro.value->writer)
                    return finishOpen(absolute, *ro.value);
                if (ro.ok())
                    m_store->close();
                emit openFailed(absolute, error);
            });
        });
    });
}

void ProjectSession::close()
{
    m_jobs->renew(ProjectScope); // answers for the project closed are dropped
    m_path.clear();
    m_readOnly = false;
    m_writer.reset();
    m_store->close();
}

void ProjectSession::finishOpen(const QString &absolute, const OpenReport &report)
{
    m_path = absolute;
    m_readOnly = report.readOnly;
    m_writer = report.writer;
    m_workspace->clearWorlds();
    m_workspace->clearVersions();
    m_workspace->setOtherResults({});
    m_workspace->setStaleVersions({});
    m_workspace->setReplayConfig(std::nullopt);
    emit opened(absolute, report);
    emit stageReached(Stage::Opened);
    seed();
}

QString ProjectSession::readOnlyMessage() const
{
    return tr("the project is open read-only while another process (pid %1) writes it").arg(m_writer ? m_writer->pid : 0);
}

void ProjectSession::seed()
{
    if (isReadOnly()) { // seeding is a write; the writer seeds its own project
        emit stageReached(Stage::Seeded);
        return loadWorlds();
    }
    // Seed the built-in policies into a project that has none, one write
    // after the other (writes run in call order), then read everything.
    m_jobs->then(ProjectScope, m_store->policyVersions(), this, [this](StoreResult<QList<PolicyVersion>> versions) {
        if (!versions.ok() || !versions.value->isEmpty()) {
            emit stageReached(Stage::Seeded);
            return loadWorlds();
        }
        const QList<PolicyVersion> builtins = ProjectPolicies::builtinVersions();
        for (qsizetype i = 0; i < builtins.size(); ++i) {
            PolicyVersion v = builtins.at(i);
            v.created = QDateTime::currentDateTimeUtc();
            const bool last = i + 1 == builtins.size();
            m_jobs->then(ProjectScope, m_store->addPolicyVersion(v), this, [this, last](StoreResult<PolicyVersionId>) {
                if (!last)
                    return;
                emit stageReached(Stage::Seeded);
                loadWorlds();
            });
        }
    });
}

void ProjectSession::loadWorlds()
{
    m_jobs->then(ProjectScope, m_store->iterations(), this, [this](StoreResult<QList<IterationInfo>> its) {
        if (!its.ok()) {
            emit stageFailed(Stage::Worlds, its.error);
            emit stageReached(Stage::Worlds);
            return loadVersions();
        }
        // The project layer's rule: finished iterations, one name each.
        const QList<IterationInfo> infos = ProjectWorlds::replayWorldsOf(*its.value);
        const QStringList names = ProjectWorlds::namesOf(infos);
        if (infos.isEmpty()) {
            emit stageReached(Stage::Worlds);
            return loadVersions();
        }
        auto remaining = std::make_shared<int>(int(infos.size()));
        auto trees = std::make_shared<QList<std::shared_ptr<const DiscoveryTree>>>(infos.size());
        auto errors = std::make_shared<QStringList>();
        for (qsizetype i = 0; i < infos.size(); ++i) {
            m_jobs->then(ProjectScope, m_store->loadIteration(infos.at(i).id), this,
                         [this, i, infos, names, remaining, trees, errors](StoreResult<DiscoveryTree> t) {
                             if (t.ok())
                                 (*trees)[i] = std::make_shared<const DiscoveryTree>(std::move(*t.value));
                             else
                                 errors->append(t.error);
                             if (--*remaining > 0)
                                 return;
                             // Worlds arrive in any order; they are added in iteration order.
                             for (qsizetype k = 0; k < infos.size(); ++k) {
                                 if (trees->at(k))
                                     m_workspace->addWorld({names.at(k), QString(), infos.at(k).id, trees->at(k)});
                             }
                             if (!errors->isEmpty())
                                 emit stageFailed(Stage::Worlds, errors->join(QLatin1Char('\n')));
                             emit stageReached(Stage::Worlds);
                             loadVersions();
                         });
        }
    });
}

void ProjectSession::loadVersions()
{
    m_jobs->then(ProjectScope, m_store->policyVersions(), this, [this](StoreResult<QList<PolicyVersion>> vs) {
        if (!vs.ok())
            emit stageFailed(Stage::Versions, vs.error);
        for (const PolicyVersion &v : vs.value.value_or(QList<PolicyVersion>()))
            m_workspace->addVersion(v);
        emit stageReached(Stage::Versions);
        loadResults();
    });
}

void ProjectSession::loadResults()
{
    reloadResults(true, [this] {
        emit stageReached(Stage::Results);
        loadApprovals();
    });
}

void ProjectSession::reloadResults(bool replaceResults, std::function<void()> then)
{
    // The project's replay configuration first: the values shown are those
    // under it; results under other configurations are listed apart.
    m_jobs->then(ProjectScope, m_store->replayConfig(), this, [this, then, replaceResults](StoreResult<StoredReplayConfig> config) {
        if (!config.ok())
            emit stageFailed(Stage::Results, config.error);
        const StoredReplayConfig stored = config.value.value_or(StoredReplayConfig());
        m_jobs->then(ProjectScope, m_store->replayResults(), this,
                     [this, then, stored, replaceResults](StoreResult<QList<ReplayResultRecord>> rs) {
            if (!rs.ok())
                emit stageFailed(Stage::Results, rs.error);
            applyResults(m_workspace, rs.value.value_or(QList<ReplayResultRecord>()), stored, replaceResults);
            then();
        });
    });
}

void ProjectSession::applyResults(Workspace *workspace, const QList<ReplayResultRecord> &records,
                                  const StoredReplayConfig &stored, bool replaceResults)
{
    const QList<ProjectWorld> worlds = ReplayJobs::projectWorldsOf(workspace->worlds());
    if (replaceResults) {
        // Results in memory were computed under the previous configuration.
        const auto results = ProjectScores::resultsFromRecords(records, worlds, stored.config);
        workspace->clearResults();
        for (const PolicyVersion &v : workspace->versions()) {
            if (const ReplayResultPtr r = results.value(v.id))
                workspace->setResult(v.name, r);
        }
    }
    // The other valuation's values, shown next to the project's.
    workspace->setOtherValuationResults(
        ReplayJobs::otherValuationResults(records, workspace->worlds(), workspace->versions(), stored.config));
    workspace->setReplayConfig(stored);
    workspace->setOtherResults(ProjectScores::otherResults(records, worlds, stored.config));
    workspace->setStaleVersions(ProjectScores::staleVersions(records, worlds, stored.config));
}

void ProjectSession::setReplayConfig(const ReplayConfig &config)
{
    if (!isOpen())
        return;
    if (isReadOnly()) {
        emit storeFailed(tr("the replay configuration"), readOnlyMessage());
        return;
    }
    m_jobs->then(ProjectScope, m_store->setReplayConfig(config), this, [this](StoreResult<Done> r) {
        if (!r.ok()) {
            emit storeFailed(tr("the replay configuration"), r.error);
            return;
        }
        reloadResults(true, [this] {
            QStringList stale;
            for (const PolicyVersionId id : m_workspace->staleVersions()) {
                for (const PolicyVersion &v : m_workspace->versions()) {
                    if (v.id == id)
                        stale.append(v.name);
                }
            }
            emit replayConfigStored(stale);
        });
    });
}

void ProjectSession::loadApprovals()
{
    m_jobs->then(ProjectScope, m_store->approvals(), this, [this](StoreResult<QList<Approval>> as) {
        if (as.ok())
            m_workspace->setApprovals(*as.value);
        else
            emit stageFailed(Stage::Approvals, as.error);
        emit stageReached(Stage::Approvals);
        emit loaded(m_path);
    });
}

void ProjectSession::importTree(std::shared_ptr<const DiscoveryTree> tree, const QString &sourcePath)
{
    if (!isOpen())
        return;
    if (isReadOnly()) {
        emit importFailed(sourcePath, readOnlyMessage());
        return;
    }
    m_jobs->then(ProjectScope, m_store->importTree(*tree, sourcePath), this, [this, tree, sourcePath](StoreResult<IterationId> id) {
        if (!id.ok()) {
            emit importFailed(sourcePath, id.error);
            return;
        }
        IterationInfo info;
        info.id = *id.value;
        info.source = sourcePath;
        const int row = m_workspace->addWorld({ProjectWorlds::baseNameOf(info), QString(), *id.value, tree});
        emit treeImported(sourcePath, row);
    });
}

void ProjectSession::storeVersion(const PolicyVersion &version)
{
    if (!isOpen())
        return;
    if (isReadOnly()) {
        emit storeFailed(tr("policy version %1").arg(version.name), readOnlyMessage());
        return;
    }
    PolicyVersion v = version;
    v.id = 0;
    if (Workspace::isLocalId(v.parent))
        v.parent = 0;
    m_jobs->then(ProjectScope, m_store->addPolicyVersion(v), this, [this, v](StoreResult<PolicyVersionId> id) {
        if (!id.ok()) {
            emit storeFailed(tr("policy version %1").arg(v.name), id.error);
            return;
        }
        PolicyVersion stored = v;
        stored.id = *id.value;
        m_workspace->addVersion(stored);
        emit versionStored(stored.name);
    });
}

void ProjectSession::storeResult(const QString &versionName, const ReplayResultPtr &result)
{
    const int row = m_workspace->indexOfVersion(versionName);
    if (!isOpen() || isReadOnly() || row < 0 || !result) // read-only: the results stay in the window
        return;
    const PolicyVersionId id = m_workspace->versions().at(row).id;
    if (Workspace::isLocalId(id))
        return;
    const QList<ReplayResultRecord> records = ReplayJobs::recordsFor(*result, id, m_workspace->worlds());
    if (records.isEmpty())
        return;
    m_jobs->then(ProjectScope, m_store->storeReplayResults(records), this, [this, versionName](StoreResult<Done> r) {
        if (!r.ok()) {
            emit storeFailed(tr("results of %1").arg(versionName), r.error);
            return;
        }
        emit resultsStored(versionName);
        reloadResults(false, [] {}); // the version may no longer be stale
    });
}

void ProjectSession::storeApproval(const Approval &approval)
{
    if (!isOpen())
        return;
    if (isReadOnly()) {
        emit storeFailed(tr("the approval"), readOnlyMessage());
        return;
    }
    QString name;
    for (const PolicyVersion &v : m_workspace->versions()) {
        if (v.id == approval.version)
            name = v.name;
    }
    m_jobs->then(ProjectScope, m_store->addApproval(approval), this, [this, approval, name](StoreResult<qint64> id) {
        if (!id.ok()) {
            emit storeFailed(tr("the approval of %1").arg(name), id.error);
            return;
        }
        Approval stored = approval;
        stored.id = *id.value;
        m_workspace->addApproval(stored);
        emit approvalStored(name);
    });
}

} // namespace dreamrsi
