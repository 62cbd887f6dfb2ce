#include "projectstore.h"

#include "projectlock.h"
#include "projectreader.h"
#include "projectwriter.h"

#include <QHash>
#include <QMutex>
#include <QMutexLocker>
#include <QPromise>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

namespace dreamrsi {

struct ProjectStore::Private
{
    QThread writerThread;
    QObject *writerContext = nullptr; ///< lives on writerThread; queued calls run there
    std::unique_ptr<ProjectWriter> writer; ///< touched on writerThread only
    QThreadPool readPool;

    mutable QMutex mutex; ///< guards path, generation and readers
    QString path;
    bool readOnly = false;
    quint64 generation = 0; ///< bumped on every open/close so stale readers are dropped
    struct ThreadReader
    {
        quint64 generation = 0;
        std::shared_ptr<ProjectReader> reader;
    };
    QHash<QThread *, ThreadReader> readers;

    /// The calling pool thread's reader of the open project, opened on first use.
    StoreResult<std::shared_ptr<ProjectReader>> threadReader()
    {
        using R = StoreResult<std::shared_ptr<ProjectReader>>;
        QString p;
        quint64 gen = 0;
        {
            QMutexLocker lock(&mutex);
            p = path;
            gen = generation;
            const auto it = readers.constFind(QThread::currentThread());
            // An in-memory upgraded copy of an older file is read anew once the file changed.
            if (it != readers.constEnd() && it->generation == gen && it->reader && !it->reader->outdatedCopy())
                return R::success(it->reader);
        }
        if (p.isEmpty())
            return R::failure(QStringLiteral("no project is open"));
        StoreResult<std::unique_ptr<ProjectReader>> opened = ProjectReader::open(p);
        if (!opened.ok())
            return R::failure(opened.error);
        std::shared_ptr<ProjectReader> reader(std::move(*opened.value));
        QMutexLocker lock(&mutex);
        if (gen == generation)
            readers.insert(QThread::currentThread(), ThreadReader{gen, reader});
        return R::success(reader);
    }

    void dropReaders()
    {
        QMutexLocker lock(&mutex);
        ++generation;
        readers.clear();
    }

    /// Lets go of the open file (writer thread): no writer, no readers, no path.
    void release()
    {
        {
            QMutexLocker lock(&mutex);
            path.clear();
            readOnly = false;
        }
        dropReaders(); // after the path: no reader can open the file again
        writer.reset();
    }

    /// Takes a writer that create() or open() made (writer thread).
    StoreResult<OpenReport> adopt(StoreResult<std::unique_ptr<ProjectWriter>> made, const OpenReport &report)
    {
        if (!made.ok())
            return StoreResult<OpenReport>::failure(made.error);
        writer = std::move(*made.value);
        QMutexLocker lock(&mutex);
        path = writer->path();
        readOnly = false;
        ++generation;
        return StoreResult<OpenReport>::success(report);
    }
};

ProjectStore::ProjectStore(QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->readPool.setMaxThreadCount(2);
    d->readPool.setExpiryTimeout(-1); // keep pool threads, and with them their connections
    d->writerThread.setObjectName(QStringLiteral("dreamrsi-store-writer"));
    d->writerContext = new QObject;
    d->writerContext->moveToThread(&d->writerThread);
    connect(&d->writerThread, &QThread::finished, d->writerContext, &QObject::deleteLater);
    d->writerThread.start();
}

ProjectStore::~ProjectStore()
{
    // Runs after every write queued before it, then stops the thread.
    Private *p = d.get();
    QMetaObject::invokeMethod(
        d->writerContext,
        [p] {
            p->writer.reset();
            QThread::currentThread()->quit();
        },
        Qt::QueuedConnection);
    d->writerThread.wait();
    d->readPool.waitForDone();
    d->dropReaders();
}

namespace {

template<typename T, typename F>
QFuture<T> runQueued(QObject *context, F &&work)
{
    auto promise = std::make_shared<QPromise<T>>();
    QFuture<T> future = promise->future();
    promise->start();
    QMetaObject::invokeMethod(
        context,
        [promise, work = std::forward<F>(work)]() mutable {
            promise->addResult(work());
            promise->finish();
        },
        Qt::QueuedConnection);
    return future;
}

} // namespace

QFuture<StoreResult<OpenReport>> ProjectStore::create(const QString &path, const ProjectInfo &info)
{
    Private *p = d.get();
    return runQueued<StoreResult<OpenReport>>(d->writerContext, [p, path, info] {
        p->release();
        OpenReport report;
        StoreResult<std::unique_ptr<ProjectWriter>> made = ProjectWriter::create(path, info, &report);
        return p->adopt(std::move(made), report);
    });
}

QFuture<StoreResult<OpenReport>> ProjectStore::open(const QString &path)
{
    Private *p = d.get();
    return runQueued<StoreResult<OpenReport>>(d->writerContext, [p, path] {
        p->release();
        OpenReport report;
        StoreResult<std::unique_ptr<ProjectWriter>> made = ProjectWriter::open(path, &report);
        return p->adopt(std::move(made), report);
    });
}

QFuture<StoreResult<OpenReport>> ProjectStore::openReadOnly(const QString &path)
{
    Private *p = d.get();
    return runQueued<StoreResult<OpenReport>>(d->writerContext, [p, path] {
        p->release();
        // One reader here checks the file (format, schema) and reads the
        // project row; the pool threads open their own.
        StoreResult<std::unique_ptr<ProjectReader>> reader = ProjectReader::open(path);
        if (!reader.ok())
            return StoreResult<OpenReport>::failure(reader.error);
        StoreResult<ProjectInfo> info = (*reader.value)->projectInfo();
        if (!info.ok())
            return StoreResult<OpenReport>::failure(info.error);
        OpenReport report;
        report.project = *info.value;
        report.readOnly = true;
        report.writer = ProjectLock::liveWriter(path);
        {
            QMutexLocker lock(&p->mutex);
            p->path = (*reader.value)->path();
            p->readOnly = true;
            ++p->generation;
        }
        return StoreResult<OpenReport>::success(report);
    });
}

QFuture<StoreResult<Done>> ProjectStore::close()
{
    Private *p = d.get();
    return runQueued<StoreResult<Done>>(d->writerContext, [p] {
        p->release();
        return StoreResult<Done>::success({});
    });
}

QString ProjectStore::path() const
{
    QMutexLocker lock(&d->mutex);
    return d->path;
}

bool ProjectStore::isReadOnly() const
{
    QMutexLocker lock(&d->mutex);
    return d->readOnly;
}

// ---- reads ----

namespace {

template<typename T, typename P, typename F>
QFuture<StoreResult<T>> runRead(QThreadPool *pool, P *p, F &&read)
{
    return QtConcurrent::run(pool, [p, read = std::forward<F>(read)]() -> StoreResult<T> {
        StoreResult<std::shared_ptr<ProjectReader>> r = p->threadReader();
        if (!r.ok())
            return StoreResult<T>::failure(r.error);
        return read(**r.value);
    });
}

} // namespace

QFuture<StoreResult<ProjectInfo>> ProjectStore::projectInfo()
{
    return runRead<ProjectInfo>(&d->readPool, d.get(), [](ProjectReader &r) { return r.projectInfo(); });
}

QFuture<StoreResult<QList<IterationInfo>>> ProjectStore::iterations()
{
    return runRead<QList<IterationInfo>>(&d->readPool, d.get(), [](ProjectReader &r) { return r.iterations(); });
}

QFuture<StoreResult<IterationData>> ProjectStore::iterationData(IterationId id)
{
    return runRead<IterationData>(&d->readPool, d.get(), [id](ProjectReader &r) { return r.iterationData(id); });
}

QFuture<StoreResult<IterationData>> ProjectStore::iterationDataAfter(IterationId id, qint64 afterSeq)
{
    return runRead<IterationData>(&d->readPool, d.get(),
                                  [id, afterSeq](ProjectReader &r) { return r.iterationDataAfter(id, afterSeq); });
}

QFuture<StoreResult<DiscoveryTree>> ProjectStore::loadIteration(IterationId id)
{
    return runRead<DiscoveryTree>(&d->readPool, d.get(), [id](ProjectReader &r) { return r.loadIteration(id); });
}

QFuture<StoreResult<QList<PolicyVersion>>> ProjectStore::policyVersions()
{
    return runRead<QList<PolicyVersion>>(&d->readPool, d.get(), [](ProjectReader &r) { return r.policyVersions(); });
}

QFuture<StoreResult<QList<ReplayResultRecord>>> ProjectStore::replayResults(PolicyVersionId version)
{
    return runRead<QList<ReplayResultRecord>>(&d->readPool, d.get(),
                                              [version](ProjectReader &r) { return r.replayResults(version); });
}

QFuture<StoreResult<QList<Approval>>> ProjectStore::approvals()
{
    return runRead<QList<Approval>>(&d->readPool, d.get(), [](ProjectReader &r) { return r.approvals(); });
}

QFuture<StoreResult<StoredReplayConfig>> ProjectStore::replayConfig()
{
    return runRead<StoredReplayConfig>(&d->readPool, d.get(), [](ProjectReader &r) { return r.replayConfig(); });
}

QFuture<StoreResult<QList<SteeringEvent>>> ProjectStore::steeringEvents(IterationId iteration)
{
    return runRead<QList<SteeringEvent>>(&d->readPool, d.get(),
                                         [iteration](ProjectReader &r) { return r.steeringEvents(iteration); });
}

QFuture<StoreResult<QList<ReevaluationRecord>>> ProjectStore::reevaluations(IterationId iteration)
{
    return runRead<QList<ReevaluationRecord>>(&d->readPool, d.get(),
                                              [iteration](ProjectReader &r) { return r.reevaluations(iteration); });
}

QFuture<StoreResult<QList<ArtifactRef>>> ProjectStore::cellArtifacts(IterationId iteration, const QString &cellId)
{
    return runRead<QList<ArtifactRef>>(&d->readPool, d.get(), [iteration, cellId](ProjectReader &r) {
        return r.cellArtifacts(iteration, cellId);
    });
}

QFuture<StoreResult<QByteArray>> ProjectStore::readArtifact(const QString &hash)
{
    return runRead<QByteArray>(&d->readPool, d.get(), [hash](ProjectReader &r) { return r.readArtifact(hash); });
}

// ---- writes ----

namespace {

template<typename T>
StoreResult<T> notOpen()
{
    return StoreResult<T>::failure(QStringLiteral("no project is open for writing"));
}

} // namespace

#define DREAMRSI_WRITE(T, body)                                                                                        \
    runQueued<StoreResult<T>>(d->writerContext, [=, this, p = d.get()]() -> StoreResult<T> {                          \
        if (!p->writer)                                                                                                \
            return notOpen<T>();                                                                                       \
        body                                                                                                           \
    })

QFuture<StoreResult<Done>> ProjectStore::updateProject(const ProjectInfo &info)
{
    return DREAMRSI_WRITE(Done, { return p->writer->updateProject(info); });
}

QFuture<StoreResult<IterationId>> ProjectStore::beginIteration(const IterationInfo &info)
{
    return DREAMRSI_WRITE(IterationId, {
        StoreResult<IterationId> r = p->writer->beginIteration(info);
        if (r.ok()) {
            emit iterationChanged(*r.value);
            if (info.maxParallelism) // the first round may have set W
                emit replayConfigChanged();
        }
        return r;
    });
}

QFuture<StoreResult<Done>> ProjectStore::appendCell(IterationId iteration, const Cell &cell,
                                                    const QList<ArtifactRef> &artifacts)
{
    return DREAMRSI_WRITE(Done, {
        StoreResult<Done> r = p->writer->appendCell(iteration, cell, artifacts);
        if (r.ok())
            emit cellAppended(iteration, cell.id);
        return r;
    });
}

QFuture<StoreResult<Done>> ProjectStore::finishIteration(IterationId iteration, IterationStatus status)
{
    return DREAMRSI_WRITE(Done, {
        StoreResult<Done> r = p->writer->finishIteration(iteration, status);
        if (r.ok())
            emit iterationChanged(iteration);
        return r;
    });
}

QFuture<StoreResult<QList<Cell>>> ProjectStore::resumeIteration(IterationId iteration,
                                                                const std::optional<IterationLimits> &limits)
{
    return DREAMRSI_WRITE(QList<Cell>, {
        StoreResult<QList<Cell>> r = p->writer->resumeIteration(iteration, limits);
        if (r.ok())
            emit iterationChanged(iteration);
        return r;
    });
}

QFuture<StoreResult<IterationId>> ProjectStore::importTree(const DiscoveryTree &tree, const QString &source)
{
    return DREAMRSI_WRITE(IterationId, {
        StoreResult<IterationId> r = p->writer->importTree(tree, source);
        if (r.ok())
            emit iterationChanged(*r.value);
        return r;
    });
}

QFuture<StoreResult<ArtifactRef>> ProjectStore::putArtifact(const QByteArray &content, const QString &name)
{
    return DREAMRSI_WRITE(ArtifactRef, { return p->writer->putArtifact(content, name); });
}

QFuture<StoreResult<PolicyVersionId>> ProjectStore::addPolicyVersion(const PolicyVersion &version)
{
    return DREAMRSI_WRITE(PolicyVersionId, {
        StoreResult<PolicyVersionId> r = p->writer->addPolicyVersion(version);
        if (r.ok())
            emit policyVersionsChanged();
        return r;
    });
}

QFuture<StoreResult<Done>> ProjectStore::storeReplayResults(const QList<ReplayResultRecord> &results)
{
    return DREAMRSI_WRITE(Done, {
        StoreResult<Done> r = p->writer->storeReplayResults(results);
        if (r.ok()) {
            QList<PolicyVersionId> versions;
            for (const ReplayResultRecord &rec : results) {
                if (!versions.contains(rec.key.version))
                    versions.append(rec.key.version);
            }
            for (PolicyVersionId v : versions)
                emit replayResultsChanged(v);
        }
        return r;
    });
}

QFuture<StoreResult<qint64>> ProjectStore::addApproval(const Approval &approval)
{
    return DREAMRSI_WRITE(qint64, {
        StoreResult<qint64> r = p->writer->addApproval(approval);
        if (r.ok())
            emit approvalsChanged();
        return r;
    });
}

QFuture<StoreResult<Done>> ProjectStore::setReplayConfig(const ReplayConfig &config)
{
    return DREAMRSI_WRITE(Done, {
        StoreResult<Done> r = p->writer->setReplayConfig(config);
        if (r.ok())
            emit replayConfigChanged();
        return r;
    });
}

QFuture<StoreResult<qint64>> ProjectStore::addSteeringEvent(const SteeringEvent &event)
{
    return DREAMRSI_WRITE(qint64, {
        StoreResult<qint64> r = p->writer->addSteeringEvent(event);
        if (r.ok())
            emit steeringChanged(event.iteration);
        return r;
    });
}

QFuture<StoreResult<qint64>> ProjectStore::addReevaluation(const ReevaluationRecord &record)
{
    return DREAMRSI_WRITE(qint64, {
        StoreResult<qint64> r = p->writer->addReevaluation(record);
        if (r.ok())
            emit reevaluationsChanged(record.iteration);
        return r;
    });
}

#undef DREAMRSI_WRITE

} // namespace dreamrsi
