// Resume after crashes (docs/online.md#resume): a child runs a live round
// (round_helper: toy task, fake agent, 3 branches x 4 attempts, W 3) and is
// killed with SIGKILL at random moments, again and again; each time the
// round is resumed. After every kill the project holds every cell the child
// reported committed (same seq), at most one unfinished iteration and
// branches that are chains; each finished iteration has every id once,
// every branch with attempts 0..L-1, seqs 0..n-1 and complete cells, each
// named in its round's batch journal.
#include "model/attemptpayload.h"
#include "store/projectstore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;

class TestLoopResume : public QObject
{
    Q_OBJECT
private slots:
    void killAndResume();
};

namespace {

template<typename T>
StoreResult<T> wait(QFuture<StoreResult<T>> future)
{
    future.waitForFinished();
    return future.result();
}

QString helperPath()
{
    return QCoreApplication::applicationDirPath() + QStringLiteral("/round_helper");
}

/// Branch chains: attempts 0..L-1, ids and seqs unique. Empty when fine.
QString chainProblem(const QList<Cell> &cells)
{
    QSet<QString> ids;
    QSet<qint64> seqs;
    QHash<int, QSet<int>> attempts;
    for (const Cell &c : cells) {
        if (ids.contains(c.id))
            return QStringLiteral("id %1 twice").arg(c.id);
        if (seqs.contains(c.seq))
            return QStringLiteral("seq %1 twice").arg(c.seq);
        if (c.id != QStringLiteral("b%1a%2").arg(c.branch).arg(c.attempt))
            return QStringLiteral("id %1 does not name its place").arg(c.id);
        ids.insert(c.id);
        seqs.insert(c.seq);
        attempts[c.branch].insert(c.attempt);
    }
    for (auto it = attempts.constBegin(); it != attempts.constEnd(); ++it) {
        for (int a = 0; a < it.value().size(); ++a) {
            if (!it.value().contains(a))
                return QStringLiteral("branch %1 lacks attempt %2").arg(it.key()).arg(a);
        }
    }
    return {};
}

} // namespace

void TestLoopResume::killAndResume()
{
    const int target = qEnvironmentVariableIntValue("DREAMRSI_ROUND_KILLS") > 0
                           ? qEnvironmentVariableIntValue("DREAMRSI_ROUND_KILLS")
                           : 30;
    const quint32 seed = qEnvironmentVariableIsSet("DREAMRSI_ROUND_SEED")
                             ? quint32(qEnvironmentVariableIntValue("DREAMRSI_ROUND_SEED"))
                             : QRandomGenerator::global()->generate();
    qInfo("round kill test: %d kills, seed %u (set DREAMRSI_ROUND_SEED to repeat)", target, seed);
    QRandomGenerator rng(seed);
    QVERIFY(QFileInfo::exists(helperPath()));
    const QString task = QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/loop/toy_task");

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("rounds.dreamrsi"));
    {
        ProjectStore store;
        QVERIFY(wait(store.create(path, ProjectInfo())).ok());
        wait(store.close());
    }

    int kills = 0;
    int finishedIterations = 0;
    int killedWithCells = 0;
    IterationId current = 0;
    QHash<IterationId, QHash<QString, qint64>> reported;
    for (int run = 0; kills < target || current != 0; ++run) {
        QVERIFY2(run < target * 20, "the rounds do not make progress");
        QProcess child;
        child.start(helperPath(), {path, task, QString::number(current)});
        QVERIFY(child.waitForStarted());
        bool killed = false;
        bool ended = false;
        if (kills < target) {
            const int delay = int(rng.bounded(20, 1200));
            ended = child.waitForFinished(delay);
            if (!ended) {
                child.kill(); // SIGKILL
                child.waitForFinished(30000);
                killed = true;
                ++kills;
            }
        }
        if (!killed && !ended)
            QVERIFY(child.waitForFinished(120000));
        const QList<QByteArray> lines = child.readAllStandardOutput().split('\n');
        bool finishedLine = false;
        for (const QByteArray &line : lines) {
            const QList<QByteArray> f = line.split(' ');
            if (f.value(0) == "iteration")
                current = f.value(1).toLongLong();
            else if (f.value(0) == "published")
                // A reader that sees the iteration's row sees its live record too
                // (docs/online.md#is-it-alive): the round publishes it with the row.
                QCOMPARE(f.value(1).toLongLong(), current);
            else if (f.value(0) == "cell" && current != 0)
                reported[current].insert(QString::fromUtf8(f.value(1)), f.value(2).toLongLong());
            else if (f.value(0) == "finished")
                finishedLine = true;
        }
        if (!killed) {
            QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0,
                     child.readAllStandardError().constData());
            QVERIFY(finishedLine);
        }

        // What the project holds now (opening marks a dead round interrupted).
        // A killed writer's lock goes when the kernel has torn the process
        // down, which on a loaded machine can trail waitForFinished(): retry
        // while the project still reads as open elsewhere, then demand success.
        ProjectStore store;
        StoreResult<OpenReport> opened = wait(store.open(path));
        QTRY_VERIFY_WITH_TIMEOUT((!opened.ok() && opened.error.contains(QStringLiteral("already open for writing")))
                                     ? (opened = wait(store.open(path))).ok()
                                     : true,
                                 30000);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        const QList<IterationInfo> iterations = *wait(store.iterations()).value;
        QList<IterationId> open;
        for (const IterationInfo &it : iterations) {
            if (it.status != IterationStatus::Finished)
                open.append(it.id);
        }
        QVERIFY2(open.size() <= 1, "more than one unfinished round");
        if (killed && current == 0 && !open.isEmpty())
            current = open.first(); // killed after the row was committed, before it was reported
        for (const IterationInfo &it : iterations) {
            const StoreResult<IterationData> data = wait(store.iterationData(it.id));
            QVERIFY2(data.ok(), qPrintable(data.error));
            const QString problem = chainProblem(data.value->cells);
            QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("iteration %1: %2").arg(it.id).arg(problem)));
            QHash<QString, qint64> stored;
            for (const Cell &c : data.value->cells)
                stored.insert(c.id, c.seq);
            const QHash<QString, qint64> &said = reported.value(it.id);
            for (auto r = said.constBegin(); r != said.constEnd(); ++r) {
                QVERIFY2(stored.contains(r.key()), qPrintable(QStringLiteral("reported cell %1 lost").arg(r.key())));
                QCOMPARE(stored.value(r.key()), r.value());
            }
            if (killed && it.id == current && !data.value->cells.isEmpty())
                ++killedWithCells;
            if (it.status != IterationStatus::Finished)
                continue;
            // A finished iteration: the whole grid, seqs 0..n-1, complete cells.
            QCOMPARE(data.value->cells.size(), 12);
            // Its journal still names every cell in the batch of the cell's
            // round: a resume that ran the attempts in flight again did not
            // overwrite the round's record with only those.
            const StoreResult<ProjectInfo> info = wait(store.projectInfo());
            QVERIFY2(info.ok(), qPrintable(info.error));
            for (const Cell &c : data.value->cells) {
                const std::optional<int> round = AttemptPayload::roundOf(c);
                QVERIFY2(round.has_value(), qPrintable(c.id));
                QFile journal(info.value->artifactDir + QStringLiteral("/attempts/%1/rounds/%2.json").arg(it.id).arg(*round));
                QVERIFY2(journal.open(QIODevice::ReadOnly), qPrintable(journal.fileName()));
                const QJsonArray batch = QJsonDocument::fromJson(journal.readAll()).object().value(QStringLiteral("batch")).toArray();
                QVERIFY2(batch.contains(QJsonValue(c.id)),
                         qPrintable(QStringLiteral("%1 is missing from the journal of round %2").arg(c.id).arg(*round + 1)));
            }
            for (qsizetype i = 0; i < data.value->cells.size(); ++i) {
                const Cell &c = data.value->cells.at(i);
                QCOMPARE(c.seq, qint64(i));
                QCOMPARE(c.failClass, QStringLiteral("ok"));
                QVERIFY(c.score.has_value());
                QVERIFY(c.payload.value(QStringLiteral("agent")).isObject());
                QVERIFY(c.payload.value(QStringLiteral("timing")).isObject());
                QVERIFY(!c.program().isEmpty());
                QSet<QString> names;
                const StoreResult<QList<ArtifactRef>> artifacts = wait(store.cellArtifacts(it.id, c.id));
                QVERIFY2(artifacts.ok(), qPrintable(artifacts.error));
                for (const ArtifactRef &a : *artifacts.value)
                    names.insert(a.name);
                QVERIFY2(names.contains(QStringLiteral("score.json")) && names.contains(QStringLiteral("main.py"))
                             && names.contains(QStringLiteral("proposal.md")),
                         qPrintable(c.id));
            }
        }
        wait(store.close());
        // A round ends when its iteration is finished in the project, also
        // when the kill came after that commit and before the child exited.
        bool currentFinished = false;
        for (const IterationInfo &it : iterations)
            currentFinished = currentFinished || (it.id == current && it.status == IterationStatus::Finished);
        if (!killed)
            QVERIFY(current == 0 || currentFinished);
        if (currentFinished) {
            ++finishedIterations;
            current = 0;
        }
    }
    qInfo("%d kills (%d with cells already stored), %d iterations finished", kills, killedWithCells, finishedIterations);
    QVERIFY(kills >= target);
    QVERIFY(finishedIterations >= 1);
}

QTEST_GUILESS_MAIN(TestLoopResume)
#include "tst_loop_resume.moc"
