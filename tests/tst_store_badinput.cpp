// Bad input: files that are not projects, projects from the future, places
// that cannot be written, a missing artifact folder, two writers. Each gives
// a clear error or a safe behaviour, never a crash or a silent loss. A
// project another process writes opens read-only, naming that process.
#include "store_testcells.h"

#include "store/projectlock.h"
#include "store/projectreader.h"
#include "store/projectstore.h"
#include "store/artifactstore.h"
#include "store/projectwriter.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>
#include <unistd.h>

using namespace dreamrsi;

namespace {

QString helperPath()
{
    return QCoreApplication::applicationDirPath() + QStringLiteral("/store_helper");
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

void sqlExec(const QString &path, const char *sql)
{
    sqlite3 *db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    char *msg = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &msg);
    QVERIFY2(rc == SQLITE_OK, msg);
    sqlite3_close(db);
}

/// Both ways of opening fail with a message containing `expected`, and the file is left as it was.
void expectRefused(const QString &path, const QString &expected)
{
    const QByteArray before = readAll(path);
    const StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path);
    QVERIFY(!w.ok());
    QVERIFY2(w.error.contains(expected) && w.error.contains(path), qPrintable(w.error));
    const StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(path);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(expected), qPrintable(r.error));
    QCOMPARE(readAll(path), before);
    QVERIFY(!QFileInfo::exists(path + QStringLiteral(".lock")));
}

/// Runs store_helper, as the unprivileged user `nobody` when the test runs as root
/// (root ignores file permissions, so a read-only place would not be read-only).
QString runHelper(const QStringList &args)
{
    QProcess p;
    if (::geteuid() == 0) {
        p.setChildProcessModifier([] {
            if (::setgid(65534) != 0 || ::setuid(65534) != 0)
                ::_exit(99);
        });
    }
    p.start(helperPath(), args);
    if (!p.waitForFinished(20000))
        return QStringLiteral("helper did not finish");
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() == 99)
        return QStringLiteral("helper crashed or could not drop privileges: ") + QString::fromUtf8(p.readAllStandardError());
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

} // namespace

class TestStoreBadInput : public QObject
{
    Q_OBJECT
private slots:
    void notSqlite();
    void emptyFile();
    void sqliteOfAnotherApplication();
    void damagedDatabase();
    void newerSchema();
    void pathProblems();
    void readOnlyLocation();
    void missingArtifactFolder();
    void twoWritersInOneProcess();
    void twoWritersInTwoProcesses();
    void halfWrittenLockOfADeadProcess();
    void readOnlyWhileAnotherProcessWrites();
};

void TestStoreBadInput::notSqlite()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("notes.dreamrsi"));
    writeAll(path, QByteArray("these are my notes, not a database\n").repeated(200));
    expectRefused(path, QStringLiteral("not an SQLite database"));
}

void TestStoreBadInput::emptyFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("empty.dreamrsi"));
    writeAll(path, QByteArray());
    expectRefused(path, QStringLiteral("not a Dream-RSI project"));
}

void TestStoreBadInput::sqliteOfAnotherApplication()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("other.db"));
    sqlExec(path, "CREATE TABLE contacts(name TEXT); INSERT INTO contacts VALUES ('Ada');");
    expectRefused(path, QStringLiteral("another application"));
    // And creating over it is refused too.
    const StoreResult<std::unique_ptr<ProjectWriter>> c = ProjectWriter::create(path, ProjectInfo());
    QVERIFY(!c.ok());
    QVERIFY2(c.error.contains(QStringLiteral("already exists")), qPrintable(c.error));
}

void TestStoreBadInput::damagedDatabase()
{
    // A project cut short and one with garbage after a valid header: errors, no crash.
    QTemporaryDir dir;
    const QString good = dir.filePath(QStringLiteral("good.dreamrsi"));
    {
        auto w = ProjectWriter::create(good, ProjectInfo());
        QVERIFY(w.ok());
        IterationInfo info;
        const IterationId id = *(*w.value)->beginIteration(info).value;
        for (int i = 0; i < 200; ++i) {
            Cell c;
            c.id = QStringLiteral("b%1a0").arg(i);
            c.branch = i;
            c.seq = i;
            c.failClass = QStringLiteral("ok");
            c.payload.insert(QStringLiteral("program"), QString(500, QLatin1Char('x')));
            QVERIFY((*w.value)->appendCell(id, c).ok());
        }
    }
    const QByteArray bytes = readAll(good);
    QVERIFY(bytes.size() > 16384);
    const QString truncated = dir.filePath(QStringLiteral("truncated.dreamrsi"));
    writeAll(truncated, bytes.left(bytes.size() / 3));
    QByteArray garbage = bytes.left(100);
    for (int i = 0; i < 40000; ++i)
        garbage.append(char((i * 7919) % 251));
    const QString scrambled = dir.filePath(QStringLiteral("scrambled.dreamrsi"));
    writeAll(scrambled, garbage);
    for (const QString &path : {truncated, scrambled}) {
        StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path);
        if (!w.ok()) {
            QVERIFY(!w.error.isEmpty());
            QVERIFY2(w.error.contains(path), qPrintable(w.error));
            continue;
        }
        // Opened (the damage is further in): every later operation reports it.
        const StoreResult<Done> check = (*w.value)->integrityCheck();
        QVERIFY(!check.ok());
        QVERIFY2(check.error.contains(QStringLiteral("integrity")), qPrintable(check.error));
        w.value->reset();
        StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(path);
        if (r.ok()) {
            const StoreResult<DiscoveryTree> t = (*r.value)->loadIteration(1);
            QVERIFY(!t.ok() || t.value->cellCount() <= 200);
        }
    }
}

void TestStoreBadInput::newerSchema()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("future.dreamrsi"));
    QVERIFY(ProjectWriter::create(path, ProjectInfo()).ok());
    sqlExec(path, "PRAGMA user_version = 99;");
    expectRefused(path, QStringLiteral("newer Dream-RSI"));
    sqlite3 *db = nullptr;
    sqlite3_open(path.toUtf8().constData(), &db);
    sqlite3_stmt *s = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, nullptr);
    QCOMPARE(sqlite3_step(s), SQLITE_ROW);
    QCOMPARE(sqlite3_column_int(s, 0), 99);
    sqlite3_finalize(s);
    sqlite3_close(db);
}

void TestStoreBadInput::pathProblems()
{
    QTemporaryDir dir;
    StoreResult<std::unique_ptr<ProjectWriter>> w =
        ProjectWriter::create(dir.filePath(QStringLiteral("no/such/folder/p.dreamrsi")), ProjectInfo());
    QVERIFY(!w.ok());
    QVERIFY2(w.error.contains(QStringLiteral("does not exist")), qPrintable(w.error));
    writeAll(dir.filePath(QStringLiteral("file")), "x");
    w = ProjectWriter::create(dir.filePath(QStringLiteral("file/p.dreamrsi")), ProjectInfo());
    QVERIFY(!w.ok());
    w = ProjectWriter::open(dir.filePath(QStringLiteral("missing.dreamrsi")));
    QVERIFY(!w.ok());
    QVERIFY2(w.error.contains(QStringLiteral("no such project")), qPrintable(w.error));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("missing.dreamrsi"))));
    w = ProjectWriter::open(dir.path());
    QVERIFY(!w.ok());
    QVERIFY2(w.error.contains(QStringLiteral("folder")), qPrintable(w.error));
    QVERIFY(!ProjectReader::open(dir.path()).ok());
    QVERIFY(!ProjectWriter::open(QString()).ok());
}

void TestStoreBadInput::readOnlyLocation()
{
    QTemporaryDir dir;
    QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther
                                          | QFile::ExeOther | QFile::ReadGroup | QFile::ExeGroup);
    const QString ro = dir.filePath(QStringLiteral("ro"));
    QVERIFY(QDir().mkpath(ro));
    const QString path = ro + QStringLiteral("/p.dreamrsi");
    {
        auto w = ProjectWriter::create(path, ProjectInfo());
        QVERIFY2(w.ok(), qPrintable(w.error));
        QVERIFY((*w.value)->beginIteration(IterationInfo()).ok());
    }
    const QByteArray before = readAll(path);
    QVERIFY(QFile::setPermissions(ro, QFile::ReadOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup
                                          | QFile::ReadOther | QFile::ExeOther));
    QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));

    const QString created = runHelper({QStringLiteral("probe-create"), ro + QStringLiteral("/new.dreamrsi")});
    QVERIFY2(created.startsWith(QStringLiteral("error: ")) && created.contains(QStringLiteral("read-only")),
             qPrintable(created));
    QVERIFY(!QFileInfo::exists(ro + QStringLiteral("/new.dreamrsi")));
    const QString written = runHelper({QStringLiteral("probe-write"), path});
    QVERIFY2(written.startsWith(QStringLiteral("error: ")) && written.contains(QStringLiteral("read-only")),
             qPrintable(written));
    // Reading still works where writing cannot.
    const QString read = runHelper({QStringLiteral("probe-read"), path});
    QCOMPARE(read, QStringLiteral("ok 1"));
    QCOMPARE(readAll(path), before);
    QFile::setPermissions(ro, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

void TestStoreBadInput::missingArtifactFolder()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    // Over the inline limit, so that it is a file of the folder; the small
    // one lives in the database and survives the folder's loss.
    const QByteArray text(ArtifactStore::InlineLimit + 1, 'p');
    QString hash, smallHash;
    {
        auto w = ProjectWriter::create(path, ProjectInfo());
        QVERIFY(w.ok());
        hash = (*w.value)->putArtifact(text, QStringLiteral("main.py")).value->hash;
        smallHash = (*w.value)->putArtifact(QByteArrayLiteral("proposal"), QStringLiteral("proposal.md")).value->hash;
        const IterationId id = *(*w.value)->beginIteration(IterationInfo()).value;
        Cell c;
        c.id = QStringLiteral("b0a0");
        c.failClass = QStringLiteral("ok");
        QVERIFY((*w.value)->appendCell(id, c, {ArtifactRef{hash, text.size(), QStringLiteral("main.py")}, ArtifactRef{smallHash, 8, QStringLiteral("proposal.md")}}).ok());
        QVERIFY((*w.value)->finishIteration(id, IterationStatus::Finished).ok());
    }
    QVERIFY(QDir(path + QStringLiteral("-artifacts")).removeRecursively());
    // Reading: the history is intact, the artifact is reported missing.
    {
        auto r = ProjectReader::open(path);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY((*r.value)->loadIteration(1).ok());
        const StoreResult<QByteArray> a = (*r.value)->readArtifact(hash);
        QVERIFY(!a.ok());
        QVERIFY2(a.error.contains(QStringLiteral("artifact folder")) && a.error.contains(hash), qPrintable(a.error));
        QCOMPARE(*(*r.value)->readArtifact(smallHash).value, QByteArrayLiteral("proposal"));
    }
    // Writing: the folder is re-made and the loss reported, not hidden.
    OpenReport report;
    auto w = ProjectWriter::open(path, &report);
    QVERIFY2(w.ok(), qPrintable(w.error));
    QVERIFY(report.artifactFolderRecreated);
    QCOMPARE(report.missingArtifacts, QStringList{hash});
    QVERIFY(QFileInfo(path + QStringLiteral("-artifacts")).isDir());
    // Putting the same content back heals it.
    QVERIFY((*w.value)->putArtifact(text, QStringLiteral("main.py")).ok());
    auto r = ProjectReader::open(path);
    QCOMPARE(*(*r.value)->readArtifact(hash).value, text);
}

void TestStoreBadInput::twoWritersInOneProcess()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    auto first = ProjectWriter::create(path, ProjectInfo());
    QVERIFY(first.ok());
    auto second = ProjectWriter::open(path);
    QVERIFY(!second.ok());
    QVERIFY2(second.error.contains(QStringLiteral("already open for writing")), qPrintable(second.error));
    // The first writer is unaffected; readers are welcome.
    QVERIFY((*first.value)->beginIteration(IterationInfo()).ok());
    QVERIFY(ProjectReader::open(path).ok());
    first.value->reset();
    QVERIFY(ProjectWriter::open(path).ok());
}

void TestStoreBadInput::twoWritersInTwoProcesses()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    QVERIFY(ProjectWriter::create(path, ProjectInfo()).ok());
    QProcess holder;
    holder.start(helperPath(), {QStringLiteral("hold"), path});
    QVERIFY(holder.waitForStarted(5000));
    QTRY_VERIFY_WITH_TIMEOUT((holder.waitForReadyRead(100), holder.canReadLine()), 10000);
    QCOMPARE(holder.readLine().trimmed(), QByteArrayLiteral("ready"));

    const StoreResult<std::unique_ptr<ProjectWriter>> refused = ProjectWriter::open(path);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error.contains(QStringLiteral("already open for writing"))
                 && refused.error.contains(QString::number(holder.processId())),
             qPrintable(refused.error));
    QVERIFY(ProjectReader::open(path).ok());

    // The holder dies without cleaning up: its lock is stale and taken over.
    holder.kill();
    QVERIFY(holder.waitForFinished(5000));
    QVERIFY(QFileInfo::exists(path + QStringLiteral(".lock")));
    const StoreResult<std::unique_ptr<ProjectWriter>> after = ProjectWriter::open(path);
    QVERIFY2(after.ok(), qPrintable(after.error));
}

// A writer killed while it was writing its lock file leaves a file whose
// owner cannot be read. Nobody holds it, so it is taken over; a lock that a
// live writer holds is still refused, however its file reads.
void TestStoreBadInput::halfWrittenLockOfADeadProcess()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    QVERIFY(ProjectWriter::create(path, ProjectInfo()).ok());
    for (const QByteArray &leftOver : {QByteArray(), QByteArrayLiteral("4242"), QByteArrayLiteral("garbage\n")}) {
        writeAll(path + QStringLiteral(".lock"), leftOver);
        StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path);
        QVERIFY2(w.ok(), qPrintable(w.error));
        // While it is held, a damaged-looking lock file does not let a second writer in.
        writeAll(path + QStringLiteral(".lock"), leftOver);
        const StoreResult<std::unique_ptr<ProjectWriter>> second = ProjectWriter::open(path);
        QVERIFY(!second.ok());
        QVERIFY2(second.error.contains(QStringLiteral("already open for writing")), qPrintable(second.error));
        w.value->reset();
    }
}

// While another process holds the project, the lock names it as a live
// writer and the store opens the project for reading only: reads work (the
// cells after a seq, for a follower), writes are refused, nothing is marked
// interrupted. Once the writer is gone (even killed), nobody is named.
void TestStoreBadInput::readOnlyWhileAnotherProcessWrites()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    IterationId running = 0;
    {
        StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::create(path, ProjectInfo());
        QVERIFY(w.ok());
        IterationInfo info;
        info.status = IterationStatus::Running;
        info.started = QDateTime::currentDateTimeUtc();
        running = *(*w.value)->beginIteration(info).value;
        for (qint64 seq = 0; seq < 5; ++seq)
            QVERIFY((*w.value)->appendCell(running, storetest::streamedCell(1, seq)).ok());
    }
    QVERIFY(!ProjectLock::liveWriter(path)); // closed: nobody holds it
    writeAll(path + QStringLiteral(".lock"), QByteArrayLiteral("4242\nsomeone\nhost\n"));
    QVERIFY(!ProjectLock::liveWriter(path)); // a left-over file nobody holds names nobody
    QVERIFY(QFile::remove(path + QStringLiteral(".lock")));

    QProcess holder;
    holder.start(helperPath(), {QStringLiteral("hold"), path});
    QVERIFY(holder.waitForStarted(5000));
    QTRY_VERIFY_WITH_TIMEOUT((holder.waitForReadyRead(100), holder.canReadLine()), 10000);
    QCOMPARE(holder.readLine().trimmed(), QByteArrayLiteral("ready"));
    const std::optional<WriterInfo> writer = ProjectLock::liveWriter(path);
    QVERIFY(writer);
    QCOMPARE(writer->pid, holder.processId());

    ProjectStore store;
    QFuture<StoreResult<OpenReport>> refused = store.open(path);
    refused.waitForFinished();
    QVERIFY(!refused.result().ok());
    QFuture<StoreResult<OpenReport>> opened = store.openReadOnly(path);
    opened.waitForFinished();
    QVERIFY2(opened.result().ok(), qPrintable(opened.result().error));
    const OpenReport report = *opened.result().value;
    QVERIFY(report.readOnly);
    QVERIFY(report.writer);
    QCOMPARE(report.writer->pid, holder.processId());
    QVERIFY(report.interrupted.isEmpty());
    QVERIFY(store.isReadOnly());
    QCOMPARE(store.path(), QFileInfo(path).absoluteFilePath());

    QFuture<StoreResult<IterationData>> after = store.iterationDataAfter(running, 2);
    after.waitForFinished();
    QVERIFY2(after.result().ok(), qPrintable(after.result().error));
    const IterationData data = *after.result().value;
    // The holder's own open marked the round left running as interrupted;
    // the read-only open reads that, it decides nothing.
    QCOMPARE(data.info.status, IterationStatus::Interrupted);
    QCOMPARE(data.info.cellCount, 5);
    QCOMPARE(data.cells.size(), 2);
    QCOMPARE(data.cells.at(0), storetest::streamedCell(1, 3));
    QCOMPARE(data.cells.at(1), storetest::streamedCell(1, 4));

    QFuture<StoreResult<Done>> write = store.updateProject(ProjectInfo());
    write.waitForFinished();
    QVERIFY(!write.result().ok());
    QVERIFY2(write.result().error.contains(QStringLiteral("no project is open for writing")), qPrintable(write.result().error));

    holder.kill();
    QVERIFY(holder.waitForFinished(5000));
    QVERIFY(!ProjectLock::liveWriter(path));
    QFuture<StoreResult<Done>> closed = store.close();
    closed.waitForFinished();
    QVERIFY(!store.isReadOnly());
}

QTEST_GUILESS_MAIN(TestStoreBadInput)
#include "tst_store_badinput.moc"
