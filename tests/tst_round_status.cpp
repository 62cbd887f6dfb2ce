// Is a round alive (docs/online.md#is-it-alive): a round whose command agent
// hangs is named stalled by `dreamrsi status` from another process, the
// stalled attempt is killed with `dreamrsi steer … kill` and stored as an
// `env` failure, and the round goes on and finishes; the agent's wall-clock
// limit kills a hanging agent as an `agent` failure.
#include "clirunsupport.h"

#include "loop/round/roundliveness.h"
#include "store/projectstore.h"
#include "store/storeawait.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace dreamrsi;
using namespace dreamrsi::test;

namespace {

QString toyTask()
{
    return QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/loop/toy_task");
}

/// A command agent whose first call (the one that makes `hang` first)
/// hangs; every other call writes a program at once.
QString hangingAgent(const QString &hang)
{
    return QStringLiteral("cat > /dev/null; if mkdir '%1' 2>/dev/null; then sleep 600; fi; "
                          "printf 'VALUE = 2\\n' > \"$DREAMRSI_PROGRAM_FILE\"; printf '# Idea\\nTwo.\\n' > proposal.md")
        .arg(hang);
}

/// The stored cells of the project's only iteration.
QList<Cell> cellsOf(const QString &project)
{
    ProjectStore store;
    if (!await(store.openReadOnly(project)).ok())
        return {};
    QList<Cell> cells;
    const StoreResult<QList<IterationInfo>> list = await(store.iterations());
    if (list.ok() && !list.value->isEmpty()) {
        if (const StoreResult<IterationData> data = await(store.iterationData(list.value->first().id)); data.ok())
            cells = data.value->cells;
    }
    await(store.close());
    return cells;
}

} // namespace

class TestRoundStatus : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    /// Starts `dreamrsi round` on the toy task with a hanging command agent.
    void startRound(QProcess &round, const QString &project, const QStringList &extra)
    {
        round.setProgram(dreamrsiProgram());
        round.setArguments(QStringList{QStringLiteral("round"), QStringLiteral("--project"), project, QStringLiteral("--task"),
                                       toyTask(), QStringLiteral("--agent"), QStringLiteral("command"),
                                       QStringLiteral("--command"), hangingAgent(project + QStringLiteral(".hang")),
                                       QStringLiteral("--workers"), QStringLiteral("2"), QStringLiteral("--rounds"),
                                       QStringLiteral("2"), QStringLiteral("--max-calls"), QStringLiteral("3")}
                           + extra);
        round.setProcessChannelMode(QProcess::SeparateChannels);
        round.start();
        QVERIFY(round.waitForStarted());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QFile::setPermissions(m_dir.path(), QFile::permissions(m_dir.path()) | QFileDevice::ExeGroup | QFileDevice::ExeOther);
    }

    /// One reader rule (RoundLiveness::observe): a running iteration whose
    /// writer holds the project reads live even before its live record names
    /// it; without a writer it reads interrupted; a record another process
    /// left behind is not the writer's.
    void readersTakeAJustBegunRoundForLive()
    {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        IterationInfo info;
        info.id = 7;
        info.status = IterationStatus::Running;
        info.started = now;
        const auto stateOf = [&](const RoundLiveness::Observed &o) {
            return RoundLiveness::assess(info, StoredTimes{}, o.recordOf(info), o.writerAlive, now).state;
        };
        QCOMPARE(stateOf({true, std::nullopt}), QStringLiteral("live"));
        LiveRound previous;
        previous.iteration = 6;
        QCOMPARE(stateOf({true, previous}), QStringLiteral("live"));
        QCOMPARE(RoundLiveness::Observed({true, previous}).recordOf(info)->iteration, IterationId(7));
        QCOMPARE(stateOf({false, std::nullopt}), QStringLiteral("interrupted"));
        QCOMPARE(stateOf({false, previous}), QStringLiteral("interrupted"));
        IterationInfo finished = info;
        finished.status = IterationStatus::Finished;
        QVERIFY(!RoundLiveness::Observed({true, std::nullopt}).recordOf(finished));

        // The lock's holder is this process; a record of another pid is a leftover.
        const QString project = m_dir.filePath(QStringLiteral("observed.dreamrsi"));
        ProjectStore store;
        QVERIFY(await(store.create(project, ProjectInfo())).ok());
        LiveRound leftover;
        leftover.pid = QCoreApplication::applicationPid() + 1;
        leftover.iteration = 3;
        QVERIFY(RoundLiveness::publish(project, leftover).ok());
        RoundLiveness::Observed seen = RoundLiveness::observe(project);
        QVERIFY(seen.writerAlive);
        QVERIFY(!seen.live);
        LiveRound own;
        own.iteration = 3;
        QVERIFY(RoundLiveness::publish(project, own).ok()); // pid 0: this process's
        seen = RoundLiveness::observe(project);
        QVERIFY(seen.live);
        QCOMPARE(seen.live->iteration, IterationId(3));
        await(store.close());
        seen = RoundLiveness::observe(project);
        QVERIFY(!seen.writerAlive);
        RoundLiveness::unpublish(project);
    }

    void stalledAttemptIsNamedAndKilledFromAnotherProcess()
    {
        const QString project = m_dir.filePath(QStringLiteral("stall.dreamrsi"));
        QProcess round;
        startRound(round, project, {QStringLiteral("--accept-steering")});
        // The 60 s floor of the no-cell rule, shortened for this reader only.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DREAMRSI_STALL_FLOOR_S"), QStringLiteral("2"));

        // Polled until the status names an attempt stalled (the other one of
        // the batch is stored at once; the hanging one is not).
        QString stalledId;
        QJsonObject seen;
        QDeadlineTimer deadline(180000);
        while (stalledId.isEmpty() && !deadline.hasExpired() && round.state() == QProcess::Running) {
            const CliRun status = runDreamrsi({QStringLiteral("status"), project, QStringLiteral("--json")}, env, 60000);
            QVERIFY2(status.finished, status.err.constData());
            if (status.exitCode == 0) {
                seen = QJsonDocument::fromJson(status.out).object();
                for (const QJsonValue &it : seen.value(QStringLiteral("iterations")).toArray()) {
                    if (it.toObject().value(QStringLiteral("state")).toString() != QLatin1String("stalled"))
                        continue;
                    for (const QJsonValue &a : it.toObject().value(QStringLiteral("attempts")).toArray()) {
                        if (a.toObject().value(QStringLiteral("stalled")).toBool()) {
                            stalledId = a.toObject().value(QStringLiteral("id")).toString();
                            QCOMPARE(a.toObject().value(QStringLiteral("phase")).toString(), QStringLiteral("agent"));
                        }
                    }
                }
            }
            if (stalledId.isEmpty())
                QThread::msleep(300);
        }
        QVERIFY2(!stalledId.isEmpty(), QJsonDocument(seen).toJson().constData());
        // The hanging attempt is the one named: the other is stored already.
        const QList<Cell> before = cellsOf(project);
        for (const Cell &c : before)
            QVERIFY(c.id != stalledId);

        const CliRun kill = runDreamrsi({QStringLiteral("steer"), QStringLiteral("--project"), project, QStringLiteral("--why"),
                                         QStringLiteral("hangs"), QStringLiteral("kill"), stalledId},
                                        QProcessEnvironment::systemEnvironment(), 120000);
        QVERIFY2(kill.finished && kill.exitCode == 0, kill.err.constData());
        QVERIFY2(QString::fromUtf8(kill.out).contains(QStringLiteral("killed ") + stalledId), kill.out.constData());

        // The round goes on and finishes.
        QVERIFY(waitForExit(round, 300000));
        QVERIFY2(round.exitCode() == 0, round.readAllStandardError().constData());
        const QList<Cell> cells = cellsOf(project);
        QCOMPARE(cells.size(), 3); // the killed one, its batch mate, and round 2's
        const auto killed = std::find_if(cells.cbegin(), cells.cend(), [&](const Cell &c) { return c.id == stalledId; });
        QVERIFY(killed != cells.cend());
        QCOMPARE(killed->failClass, QStringLiteral("env"));
        QVERIFY2(killed->error && killed->error->contains(QStringLiteral("killed by")) && killed->error->contains(QStringLiteral("hangs")),
                 qPrintable(killed->error.value_or(QString())));

        const CliRun after = runDreamrsi({QStringLiteral("status"), project, QStringLiteral("--json")}, env, 60000);
        QVERIFY2(after.finished && after.exitCode == 0, after.err.constData());
        const QJsonArray iterations = QJsonDocument::fromJson(after.out).object().value(QStringLiteral("iterations")).toArray();
        QCOMPARE(iterations.size(), 1);
        QCOMPARE(iterations.first().toObject().value(QStringLiteral("state")).toString(), QStringLiteral("finished"));
        QVERIFY(!iterations.first().toObject().value(QStringLiteral("last_cell_at")).toString().isEmpty());
    }

    void agentTimeLimitKillsAHangingAgent()
    {
        const QString project = m_dir.filePath(QStringLiteral("limit.dreamrsi"));
        QProcess round;
        startRound(round, project, {QStringLiteral("--agent-time-limit"), QStringLiteral("2")});
        QVERIFY(round.waitForFinished(300000));
        const QByteArray err = round.readAllStandardError();
        QVERIFY2(round.exitCode() == 0, err.constData());
        const QList<Cell> cells = cellsOf(project);
        QCOMPARE(cells.size(), 3);
        const auto limited = std::find_if(cells.cbegin(), cells.cend(), [](const Cell &c) { return c.failClass == QLatin1String("agent"); });
        QVERIFY2(limited != cells.cend(), err.constData());
        QVERIFY2(limited->error && limited->error->contains(QStringLiteral("wall-clock limit of 2 s")),
                 qPrintable(limited->error.value_or(QString())));
        QVERIFY(err.contains("wall-clock limit"));
    }
};

QTEST_GUILESS_MAIN(TestRoundStatus)
#include "tst_round_status.moc"
