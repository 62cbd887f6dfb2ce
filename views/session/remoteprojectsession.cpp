#include "remoteprojectsession.h"

#include "jobtracker.h"
#include "projectsession.h"
#include "remoteconnection.h"
#include "remotefollower.h"

#include "models/workspace.h"
#include "model/treejson.h"
#include "project/projectworlds.h"
#include "remote/remoteapi.h"

#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtConcurrent/QtConcurrentRun>

namespace dreamrsi {

namespace {
const QString RemoteScope = QStringLiteral("remote");
const QString CopyScope = QStringLiteral("remote copy");
/// Every session alive, on the GUI thread (servingTree()).
QList<RemoteProjectSession *> &sessions()
{
    static QList<RemoteProjectSession *> list;
    return list;
}
}

RemoteProjectSession::RemoteProjectSession(Workspace *workspace, JobTracker *jobs, QObject *parent)
    : QObject(parent)
    , m_workspace(workspace)
    , m_jobs(jobs)
{
    sessions().append(this);
}

RemoteProjectSession::~RemoteProjectSession()
{
    sessions().removeAll(this);
    close();
}

IterationId RemoteProjectSession::iterationOf(const DiscoveryTree *tree) const
{
    if (!tree || !m_connection || !m_workspace)
        return 0;
    for (const WorldEntry &w : m_workspace->worlds()) {
        if (w.tree.get() == tree)
            return w.iteration;
    }
    return 0;
}

RemoteProjectSession *RemoteProjectSession::servingTree(const DiscoveryTree *tree)
{
    for (RemoteProjectSession *s : std::as_const(sessions())) {
        if (s->iterationOf(tree) != 0)
            return s;
    }
    return nullptr;
}

void RemoteProjectSession::cellArtifacts(IterationId iteration, const QString &cellId,
                                         std::function<void(Result<QList<ArtifactRef>>)> answer)
{
    using R = Result<QList<ArtifactRef>>;
    const QString key = QStringLiteral("%1:%2").arg(iteration).arg(cellId);
    if (const auto it = m_cellArtifacts.constFind(key); it != m_cellArtifacts.cend())
        return answer(R::success(*it));
    if (!m_connection || !RemoteApi::isCellId(cellId))
        return answer(R::failure(tr("'%1' is not a cell of the served project").arg(cellId.left(80))));
    auto &waits = m_cellArtifactWaits[key];
    waits.append(std::move(answer));
    if (waits.size() > 1)
        return; // asked already: this answer comes with the first
    m_connection->getJson(QStringLiteral("/api/v1/iterations/%1/cells/%2/artifacts").arg(iteration).arg(cellId),
                          [this, key](Result<QJsonObject> body) {
        R result = body ? R::success(RemoteJson::artifactsFrom(*body.value)) : body.failureAs<QList<ArtifactRef>>();
        if (result)
            m_cellArtifacts.insert(key, *result.value);
        for (const auto &wait : m_cellArtifactWaits.take(key))
            wait(result);
    });
}

QString RemoteProjectSession::url() const
{
    return m_connection ? m_connection->project().base.toString() + QLatin1Char('/') : QString();
}

QString RemoteProjectSession::host() const
{
    return m_connection ? m_connection->host() : QString();
}

bool RemoteProjectSession::canSteer() const
{
    return m_connection && m_connection->canSteer();
}

void RemoteProjectSession::open(const RemoteProject &project, const QByteArray &steeringToken)
{
    close();
    m_connection = new RemoteConnection(project, steeringToken, this);
    m_follower = new RemoteFollower(m_connection, this);
    load(true);
}

void RemoteProjectSession::close()
{
    if (m_jobs) {
        m_jobs->renew(RemoteScope);
        m_jobs->renew(CopyScope);
    }
    // The copies go with the connection (a copy being made holds the folder until it ends).
    m_copyDir.reset();
    m_copyPath.clear();
    m_copies = 0;
    m_copying = false;
    m_copyAgain = false;
    if (m_follower) {
        m_follower->stop();
        delete m_follower;
        m_follower = nullptr;
    }
    delete m_connection; // its requests end with it, unanswered
    m_connection = nullptr;
    m_summary = RemoteProjectSummary{};
    m_artifacts.clear();
    m_artifactWaits.clear();
    m_artifactFetches = 0;
    m_cellArtifacts.clear();
    m_cellArtifactWaits.clear();
    m_loading = false;
    m_reloadAgain = false;
}

void RemoteProjectSession::copyIterations()
{
    if (!m_connection || !m_jobs)
        return;
    if (m_copying) {
        m_copyAgain = true;
        return;
    }
    if (!m_copyDir) {
        m_copyDir = std::make_shared<QTemporaryDir>();
        if (!m_copyDir->isValid()) {
            const QString why = m_copyDir->errorString();
            m_copyDir.reset();
            emit copyFailed(tr("cannot make a temporary folder: %1").arg(why));
            return;
        }
    }
    // Each copy in a folder of its own: a page still reading the one before is not disturbed.
    const QString dir = m_copyDir->filePath(QString::number(++m_copies));
    m_copying = true;
    emit copyStarted();
    m_jobs->then(CopyScope,
                 QtConcurrent::run([folder = m_copyDir, project = m_connection->project(), dir]() -> Result<QString> {
                     if (!QDir().mkpath(dir))
                         return Result<QString>::failure(tr("cannot make the folder %1").arg(dir));
                     return RemoteClient::copyIterations(project, dir);
                 }),
                 this, [this](Result<QString> copy) {
                     m_copying = false;
                     if (copy) {
                         m_copyPath = *copy.value;
                         emit copyReady(m_copyPath);
                     } else {
                         emit copyFailed(copy.error);
                     }
                     if (m_copyAgain) {
                         m_copyAgain = false;
                         copyIterations();
                     }
                 });
}

void RemoteProjectSession::reload()
{
    if (!m_connection)
        return;
    if (m_loading) {
        m_reloadAgain = true; // once the load under way is in
        return;
    }
    load(false);
}

void RemoteProjectSession::load(bool first)
{
    m_loading = true;
    const quint64 generation = m_jobs->renew(RemoteScope);
    Q_UNUSED(generation);
    const QString host = m_connection->host();
    m_connection->getJson(QStringLiteral("/api/v1/project"), [this, first, host](Result<QJsonObject> body) {
        Result<RemoteProjectSummary> summary =
            body ? RemoteJson::projectFrom(*body.value) : body.failureAs<RemoteProjectSummary>();
        if (!summary) {
            m_loading = false;
            if (first)
                emit openFailed(host, summary.error);
            else
                emit stageFailed(summary.error);
            return;
        }
        m_summary = std::move(*summary.value);
        if (first) {
            // What the window showed before is another project's.
            m_workspace->clearWorlds();
            m_workspace->clearVersions();
            m_workspace->setOtherResults({});
            m_workspace->setStaleVersions({});
            m_workspace->setReplayConfig(std::nullopt);
            emit opened(host, m_summary.name);
        }
        loadWorlds(first, m_summary.iterations);
    });
}

void RemoteProjectSession::loadWorlds(bool first, const QList<IterationInfo> &iterations)
{
    Q_UNUSED(first);
    // The project layer's rule: finished iterations, one name each.
    const QList<IterationInfo> infos = ProjectWorlds::replayWorldsOf(iterations);
    const QStringList names = ProjectWorlds::namesOf(infos);
    // Worlds already shown with as many cells are not fetched again.
    QList<qsizetype> wanted;
    for (qsizetype i = 0; i < infos.size(); ++i) {
        bool have = false;
        for (const WorldEntry &w : m_workspace->worlds()) {
            if (w.iteration == infos.at(i).id && w.tree && w.tree->cellCount() == infos.at(i).cellCount)
                have = true;
        }
        if (!have)
            wanted.append(i);
    }
    auto finish = [this] {
        // Versions (the project's, in its order) and approvals, then the values.
        for (const PolicyVersion &v : std::as_const(m_summary.versions))
            m_workspace->addVersion(v);
        m_workspace->setApprovals(m_summary.approvals);
        loadResults();
    };
    if (wanted.isEmpty())
        return finish();
    auto remaining = std::make_shared<int>(int(wanted.size()));
    auto trees = std::make_shared<QHash<qsizetype, std::shared_ptr<const DiscoveryTree>>>();
    auto errors = std::make_shared<QStringList>();
    const QString host = m_connection->host();
    for (const qsizetype i : std::as_const(wanted)) {
        const IterationId id = infos.at(i).id;
        m_connection->get(QStringLiteral("/api/v1/iterations/%1/tree").arg(id),
                          [this, i, id, infos, names, remaining, trees, errors, finish, host](Result<QByteArray> bytes) {
            auto done = [this, infos, names, remaining, trees, errors, finish] {
                if (--*remaining > 0)
                    return;
                // Worlds arrive in any order; they are added in iteration order.
                for (qsizetype k = 0; k < infos.size(); ++k) {
                    if (const auto tree = trees->value(k))
                        m_workspace->addWorld({names.at(k), QString(), infos.at(k).id, tree});
                }
                if (!errors->isEmpty())
                    emit stageFailed(errors->join(QLatin1Char('\n')));
                finish();
            };
            if (!bytes) {
                errors->append(bytes.error);
                return done();
            }
            // Parsed off the GUI thread, as a project's trees are read.
            m_jobs->then(RemoteScope, QtConcurrent::run([data = *bytes.value] { return TreeJson::parse(data).toResult(); }), this,
                         [i, id, trees, errors, done, host](Result<DiscoveryTree> tree) {
                             if (tree)
                                 trees->insert(i, std::make_shared<const DiscoveryTree>(std::move(*tree.value)));
                             else
                                 errors->append(tr("%1: iteration %2: %3").arg(host).arg(id).arg(tree.error));
                             done();
                         });
        });
    }
}

void RemoteProjectSession::loadResults()
{
    m_connection->getJson(QStringLiteral("/api/v1/replay-results"), [this](Result<QJsonObject> body) {
        if (!body)
            emit stageFailed(body.error);
        const QList<ReplayResultRecord> records = body ? RemoteJson::resultsFrom(*body.value) : QList<ReplayResultRecord>();
        ProjectSession::applyResults(m_workspace, records, m_summary.replayConfig, true);
        m_loading = false;
        emit loaded(host());
        if (std::exchange(m_reloadAgain, false))
            load(false);
    });
}

void RemoteProjectSession::approve(const QString &name, const QString &who, const QString &note)
{
    if (!m_connection)
        return;
    QJsonObject body{{QStringLiteral("who"), who}};
    if (name.isEmpty())
        body.insert(QStringLiteral("decline"), true);
    else
        body.insert(QStringLiteral("version"), name);
    if (!note.isEmpty())
        body.insert(QStringLiteral("note"), note);
    m_connection->post(QStringLiteral("/api/v1/approve"), body, [this, name](Result<QJsonObject> answer) {
        if (!answer) {
            emit approvalFailed(answer.error);
            return;
        }
        emit approvalStored(name);
        reload(); // the approval is the project's now
    });
}

void RemoteProjectSession::artifact(const QString &hash, std::function<void(Result<QByteArray>)> answer)
{
    if (const auto it = m_artifacts.constFind(hash); it != m_artifacts.cend())
        return answer(Result<QByteArray>::success(*it));
    if (!m_connection || !RemoteApi::isArtifactHash(hash))
        return answer(Result<QByteArray>::failure(tr("'%1' is not an artifact of the served project").arg(hash.left(80))));
    auto &waits = m_artifactWaits[hash];
    waits.append(std::move(answer));
    if (waits.size() > 1)
        return; // fetched once, for everyone who asks meanwhile
    ++m_artifactFetches;
    m_connection->get(QStringLiteral("/api/v1/artifacts/%1").arg(hash), [this, hash](Result<QByteArray> bytes) {
        if (bytes)
            m_artifacts.insert(hash, *bytes.value);
        for (const auto &wait : m_artifactWaits.take(hash))
            wait(bytes);
    });
}

} // namespace dreamrsi
