// Concurrency: while the writer thread streams cells into a running round,
// readers on other threads (their own connections, and the store's pool)
// always see a consistent snapshot: the iteration's count and best score
// agree with its cells, the cells are a prefix of what is being written,
// and what a reader has seen never goes back.
#include "store_testcells.h"

#include "store/projectreader.h"
#include "store/projectstore.h"

#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <thread>
#include <vector>

using namespace dreamrsi;

class TestStoreConcurrency : public QObject
{
    Q_OBJECT
private slots:
    void readersSeeSnapshotsWhileWriterStreams();
};

namespace {

/// Empty when the snapshot is consistent, else what is wrong.
QString checkSnapshot(const IterationData &d, qint64 *seen)
{
    const QList<Cell> &cells = d.cells;
    if (d.info.cellCount != cells.size())
        return QStringLiteral("cell_count %1 but %2 cells").arg(d.info.cellCount).arg(cells.size());
    if (cells.size() < *seen)
        return QStringLiteral("went back from %1 to %2 cells").arg(*seen).arg(cells.size());
    *seen = cells.size();
    std::optional<double> best;
    for (qsizetype i = 0; i < cells.size(); ++i) {
        const Cell expected = storetest::streamedCell(7, i);
        if (!(cells.at(i) == expected))
            return QStringLiteral("cell %1 differs from what was written").arg(i);
        if (expected.score && (!best || *expected.score > *best))
            best = expected.score;
    }
    if (d.info.bestScore != best)
        return QStringLiteral("best score does not match the cells");
    return {};
}

} // namespace

void TestStoreConcurrency::readersSeeSnapshotsWhileWriterStreams()
{
    constexpr int total = 1500;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("c.dreamrsi"));
    ProjectStore store;
    auto created = store.create(path, ProjectInfo());
    created.waitForFinished();
    QVERIFY2(created.result().ok(), qPrintable(created.result().error));
    auto begun = store.beginIteration(IterationInfo());
    begun.waitForFinished();
    const IterationId id = *begun.result().value;

    std::atomic<bool> done{false};
    std::atomic<int> snapshots{0};
    std::vector<QString> failures(3);
    std::vector<std::thread> readers;
    for (int t = 0; t < 3; ++t) {
        readers.emplace_back([&, t] {
            StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(path);
            if (!r.ok()) {
                failures[t] = r.error;
                return;
            }
            qint64 seen = 0;
            while (true) {
                const bool last = done.load(); // one more read after the writer finished
                const StoreResult<IterationData> d = (*r.value)->iterationData(id);
                if (!d.ok()) {
                    failures[t] = d.error;
                    return;
                }
                if (const QString bad = checkSnapshot(*d.value, &seen); !bad.isEmpty()) {
                    failures[t] = QStringLiteral("reader %1: %2").arg(t).arg(bad);
                    return;
                }
                if (t == 0 && !(*r.value)->loadIteration(id).ok()) {
                    failures[t] = QStringLiteral("reader 0: a snapshot is not a valid tree");
                    return;
                }
                ++snapshots;
                if (last) {
                    if (seen != total)
                        failures[t] = QStringLiteral("reader %1: final snapshot has %2 cells").arg(t).arg(seen);
                    return;
                }
            }
        });
    }

    // Stream from the GUI thread's point of view: queued writes, futures, and
    // the store's own pool reading in between.
    QList<QFuture<StoreResult<Done>>> writes;
    qint64 poolSeen = 0;
    int poolSnapshots = 0;
    for (int i = 0; i < total; ++i) {
        writes.append(store.appendCell(id, storetest::streamedCell(7, i)));
        if (i % 100 == 99) {
            auto snap = store.iterationData(id);
            snap.waitForFinished();
            QVERIFY2(snap.result().ok(), qPrintable(snap.result().error));
            const QString bad = checkSnapshot(*snap.result().value, &poolSeen);
            QVERIFY2(bad.isEmpty(), qPrintable(bad));
            ++poolSnapshots;
        }
    }
    for (QFuture<StoreResult<Done>> &w : writes) {
        w.waitForFinished();
        QVERIFY2(w.result().ok(), qPrintable(w.result().error));
    }
    done = true;
    for (std::thread &t : readers)
        t.join();
    for (const QString &f : failures)
        QVERIFY2(f.isEmpty(), qPrintable(f));
    QVERIFY(poolSnapshots > 0);
    qInfo("%d consistent snapshots read on 3 threads while %d cells were written", snapshots.load(), total);
    auto tree = store.loadIteration(id);
    tree.waitForFinished();
    QCOMPARE(tree.result().value->cellCount(), total);
}

QTEST_GUILESS_MAIN(TestStoreConcurrency)
#include "tst_store_concurrency.moc"
