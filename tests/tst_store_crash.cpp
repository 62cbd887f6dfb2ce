// Crash safety: a child process streams cells into a project and is killed
// with SIGKILL at a random point, again and again. After every kill the
// project must pass integrity_check, hold every cell the child reported
// committed, hold no partial cell, and open again (stale lock taken over,
// the dead round marked interrupted).
#include "store_testcells.h"

#include "store/projectreader.h"
#include "store/projectwriter.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace dreamrsi;

class TestStoreCrash : public QObject
{
    Q_OBJECT
private slots:
    void killAtRandomPoints();
};

namespace {

QString helperPath()
{
    return QCoreApplication::applicationDirPath() + QStringLiteral("/store_helper");
}

QStringList integrityCheck(const QString &path)
{
    sqlite3 *db = nullptr;
    QStringList lines;
    if (sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        lines.append(QStringLiteral("cannot open"));
    } else {
        sqlite3_stmt *s = nullptr;
        sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, nullptr);
        while (sqlite3_step(s) == SQLITE_ROW)
            lines.append(QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(s, 0))));
        sqlite3_finalize(s);
    }
    sqlite3_close(db);
    return lines;
}

} // namespace

void TestStoreCrash::killAtRandomPoints()
{
    const int runs = qEnvironmentVariableIntValue("DREAMRSI_CRASH_RUNS") > 0
                         ? qEnvironmentVariableIntValue("DREAMRSI_CRASH_RUNS")
                         : 60;
    const quint32 seed = qEnvironmentVariableIsSet("DREAMRSI_CRASH_SEED")
                             ? quint32(qEnvironmentVariableIntValue("DREAMRSI_CRASH_SEED"))
                             : QRandomGenerator::global()->generate();
    qInfo("crash test: %d runs, seed %u (set DREAMRSI_CRASH_SEED to repeat)", runs, seed);
    QRandomGenerator rng(seed);
    QVERIFY(QFileInfo::exists(helperPath()));

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("crash.dreamrsi"));
    {
        StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::create(path, ProjectInfo());
        QVERIFY2(w.ok(), qPrintable(w.error));
    }

    qint64 totalCommitted = 0;
    int killedMidStream = 0;
    QHash<IterationId, int> runOf;
    QHash<IterationId, QSet<qint64>> committed;
    for (int run = 0; run < runs; ++run) {
        QProcess child;
        child.setProcessChannelMode(QProcess::SeparateChannels);
        child.start(helperPath(), {QStringLiteral("stream"), path, QString::number(run)});
        QVERIFY2(child.waitForStarted(5000), qPrintable(child.errorString()));
        // Mostly mid-stream (a random time after the round began, whatever
        // the start-up cost of this build), sometimes while still opening
        // (recovery, lock takeover).
        QByteArray output;
        if (rng.bounded(8) == 0) {
            QTest::qWait(int(rng.bounded(15)));
        } else {
            QElapsedTimer waited;
            waited.start();
            while (!output.contains("begin ") && waited.elapsed() < 20000 && child.state() == QProcess::Running) {
                child.waitForReadyRead(50);
                output += child.readAllStandardOutput();
            }
            QVERIFY2(output.contains("begin "), qPrintable(QStringLiteral("run %1: the child never began a round: %2")
                                                               .arg(run)
                                                               .arg(QString::fromUtf8(output + child.readAllStandardError()))));
            QTest::qWait(int(rng.bounded(1, 200)));
        }
        child.kill(); // SIGKILL
        QVERIFY(child.waitForFinished(10000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        output += child.readAllStandardOutput();
        const QList<QByteArray> lines = output.split('\n');
        const QByteArray errors = child.readAllStandardError();
        IterationId id = 0;
        int count = 0;
        for (const QByteArray &line : lines) {
            const QList<QByteArray> f = line.split(' ');
            if (f.value(0) == "begin") {
                id = f.value(1).toLongLong();
                runOf.insert(id, run);
            } else if (f.value(0) == "committed" && f.size() == 3) {
                QCOMPARE(f.at(1).toLongLong(), id);
                committed[id].insert(f.at(2).toLongLong());
                ++count;
            } else if (f.value(0) == "error:") {
                QFAIL(qPrintable(QStringLiteral("run %1: the child failed: %2").arg(run).arg(QString::fromUtf8(line))));
            }
        }
        QVERIFY2(errors.isEmpty() || !errors.contains("error"), errors.constData());
        totalCommitted += count;
        killedMidStream += count > 0;

        // 1. The file is sound.
        QCOMPARE(integrityCheck(path), QStringList{QStringLiteral("ok")});

        // 2. It opens again: the stale lock is taken over, the round is interrupted.
        OpenReport report;
        StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path, &report);
        QVERIFY2(w.ok(), qPrintable(QStringLiteral("run %1: %2").arg(run).arg(w.error)));
        if (id > 0) {
            QCOMPARE(report.interrupted.size(), 1);
            QCOMPARE(report.interrupted.first().id, id);
        } else {
            QVERIFY(report.interrupted.isEmpty());
        }
        QVERIFY((*w.value)->integrityCheck().ok());
        w.value->reset();

        // 3. Every committed cell is there, complete; nothing half-written.
        if (id == 0)
            continue;
        StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(path);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const StoreResult<IterationData> data = (*r.value)->iterationData(id);
        QVERIFY2(data.ok(), qPrintable(data.error));
        QCOMPARE(data.value->info.status, IterationStatus::Interrupted);
        const QList<Cell> &cells = data.value->cells;
        QCOMPARE(data.value->info.cellCount, qint64(cells.size()));
        // At most the one cell in flight may be stored without having been reported.
        QVERIFY2(cells.size() == count || cells.size() == count + 1,
                 qPrintable(QStringLiteral("run %1: %2 cells stored, %3 reported").arg(run).arg(cells.size()).arg(count)));
        std::optional<double> best;
        for (qsizetype i = 0; i < cells.size(); ++i) {
            const Cell expected = storetest::streamedCell(run, i);
            QCOMPARE(cells.at(i), expected);
            if (expected.score && (!best || *expected.score > *best))
                best = expected.score;
            const StoreResult<QList<ArtifactRef>> refs = (*r.value)->cellArtifacts(id, expected.id);
            QVERIFY2(refs.ok(), qPrintable(refs.error));
            QCOMPARE(refs.value->size(), 1);
            const StoreResult<QByteArray> bytes = (*r.value)->readArtifact(refs.value->first().hash);
            QVERIFY2(bytes.ok(), qPrintable(bytes.error));
            QCOMPARE(*bytes.value, storetest::streamedArtifact(run, i));
        }
        QCOMPARE(data.value->info.bestScore, best);
        for (qint64 seq : committed.value(id))
            QVERIFY2(seq < cells.size(), qPrintable(QStringLiteral("run %1: committed cell %2 is missing").arg(run).arg(seq)));
        QVERIFY((*r.value)->loadIteration(id).ok());
    }

    // Earlier runs' cells are still all there at the end.
    StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(path);
    QVERIFY(r.ok());
    for (auto it = committed.constBegin(); it != committed.constEnd(); ++it) {
        const StoreResult<IterationInfo> info = (*r.value)->iteration(it.key());
        QVERIFY(info.ok());
        QVERIFY(info.value->cellCount >= it.value().size());
    }
    qInfo("crash test: %d kills, %d mid-stream, %lld cells reported committed, all present",
          runs, killedMidStream, totalCommitted);
    QVERIFY2(killedMidStream >= runs / 2, "too few kills landed mid-stream to mean anything");
}

QTEST_GUILESS_MAIN(TestStoreCrash)
#include "tst_store_crash.moc"
