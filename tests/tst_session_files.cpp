// The file work of views/session/ that the window's File menu asks for, on
// its own: no widget library is linked (tests/session.cmake links
// dreamrsi::session). File ▸ Reset Demo's copy (DemoProject,
// replaceDemoCopy): the bundled demo's private copy made again from a
// source folder, with the copy open in a ProjectSession, discards the
// user's changes to the project and to its artifacts, and is left as it is
// while another writer holds it. Tree files and runs read as worlds off the
// GUI thread (WorldReader): the world a tree file and an OpenEvolve run
// folder give, the metric question of a run without combined_score, the
// message naming the file for a malformed one, and an import's reading
// dropped once the project has moved on.

#include "session/demoproject.h"
#include "session/jobtracker.h"
#include "session/projectsession.h"
#include "session/worldreader.h"

#include "models/workspace.h"

#include "model/treejson.h"
#include "store/projectlock.h"
#include "store/projectreader.h"
#include "store/projectwriter.h"

#include "demotrees.h"
#include "runfixtures.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QMap>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

using namespace dreamrsi;
using namespace dreamrsi::test;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

/// Every file below `dir` by its path relative to it, with its bytes.
QMap<QString, QByteArray> filesUnder(const QString &dir)
{
    QMap<QString, QByteArray> files;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        files.insert(QDir(dir).relativeFilePath(f.fileName()), f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(unreadable)"));
    }
    return files;
}

QByteArray bytesOf(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// The names of the project's policy versions.
QStringList versionNames(const QString &project)
{
    const auto reader = ProjectReader::open(project);
    if (!reader.ok())
        return {reader.error};
    QStringList names;
    for (const PolicyVersion &v : (*reader.value)->policyVersions().valueOr({}))
        names.append(v.name);
    return names;
}

/// A project opened in a session the way the window holds one.
struct OpenedProject
{
    Workspace workspace;
    JobTracker jobs;
    ProjectSession session{&workspace, &jobs};

    /// Opens `path`: true once it is loaded (30 s).
    bool open(const QString &path)
    {
        QSignalSpy loaded(&session, &ProjectSession::loaded);
        session.open(path);
        return QTest::qWaitFor([&loaded] { return !loaded.isEmpty(); }, 30000);
    }
};

} // namespace

class TestSessionFiles : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void demoCopyIsMadeFromTheSourceFolder();
    void replaceDemoCopyDiscardsTheUsersChanges();
    void replaceDemoCopyLeavesACopyAnotherWriterHolds();
    void treeFileReadsAsAWorld();
    void malformedTreeFileIsNamed();
    void runFolderReadsAsAWorld();
    void runWithoutCombinedScoreAsksForAMetric();
    void malformedRunIsNamed();
    void importReadingFollowsTheProject();

private:
    /// The bundled demo of the source tree, as the tests of the window name it.
    static DemoProject sourceDemo();
    /// The demo copy open in `session`, with a version "mine" stored and an artifact changed and added.
    void openAndChangeTheCopy(OpenedProject &opened, const QString &copy);

    QTemporaryDir m_dir;
    JobTracker m_jobs;
    WorldReader m_reader{&m_jobs};
};

void TestSessionFiles::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // The demo's private copy goes to the data folder of this run, never the person's own.
    QCoreApplication::setOrganizationName(s("DreamRSI-test-session-files"));
    QCoreApplication::setApplicationName(s("tst_session_files"));
    qputenv("XDG_DATA_HOME", QFile::encodeName(m_dir.filePath(s("data"))));
    QVERIFY(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation).startsWith(m_dir.path()));
}

DemoProject TestSessionFiles::sourceDemo()
{
    DemoProject demo;
    demo.file = s(DREAMRSI_SOURCE_DIR "/resources/demo/demo.dreamrsi");
    demo.artifacts = s(DREAMRSI_SOURCE_DIR "/resources/demo/demo.dreamrsi-artifacts");
    return demo;
}

void TestSessionFiles::demoCopyIsMadeFromTheSourceFolder()
{
    const DemoProject demo = sourceDemo();
    const QString copy = demo.copyPath();
    QVERIFY(!copy.isEmpty());
    QVERIFY(DemoProject::isDemoCopy(copy));
    QVERIFY(!QFileInfo::exists(copy));
    const Result<QString> made = demo.install(DemoProject::Mode::KeepExisting);
    QVERIFY2(made, qPrintable(made.error));
    QCOMPARE(*made.value, copy);
    // The project file byte for byte, and every artifact.
    QCOMPARE(bytesOf(copy), bytesOf(demo.file));
    const QMap<QString, QByteArray> artifacts = filesUnder(demo.artifacts);
    QVERIFY(!artifacts.isEmpty());
    QCOMPARE(filesUnder(copy + s("-artifacts")), artifacts);

    // A bundled demo that cannot be read is named.
    DemoProject missing = demo;
    missing.file = m_dir.filePath(s("nowhere/demo.dreamrsi"));
    QVERIFY(missing.copyPath().isEmpty());
    const Result<QString> refused = missing.install(DemoProject::Mode::Replace);
    QVERIFY(!refused);
    QVERIFY2(refused.error.contains(missing.file), qPrintable(refused.error));
}

void TestSessionFiles::openAndChangeTheCopy(OpenedProject &opened, const QString &copy)
{
    QVERIFY(opened.open(copy));
    ProjectSession &session = opened.session;
    const Workspace &workspace = opened.workspace;
    QVERIFY(!session.isReadOnly());
    QVERIFY(!workspace.versions().isEmpty());
    PolicyVersion mine = workspace.versions().first();
    mine.id = 0;
    mine.name = s("mine");
    mine.origin = PolicyOrigin::Human;
    mine.parent = workspace.versions().first().id;
    QSignalSpy stored(&session, &ProjectSession::versionStored);
    session.storeVersion(mine);
    QTRY_COMPARE_WITH_TIMEOUT(stored.count(), 1, 10000);
    const QString artifacts = copy + s("-artifacts");
    const QString changed = filesUnder(artifacts).firstKey();
    QFile edit(QDir(artifacts).filePath(changed));
    QVERIFY(edit.open(QIODevice::WriteOnly | QIODevice::Append));
    QVERIFY(edit.write("# the user's edit\n") > 0);
    edit.close();
    QVERIFY(writeFile(QDir(artifacts).filePath(s("mine.txt")), "the user's own file\n"));
}

void TestSessionFiles::replaceDemoCopyDiscardsTheUsersChanges()
{
    const DemoProject demo = sourceDemo();
    const Result<QString> made = demo.install(DemoProject::Mode::Replace);
    QVERIFY2(made, qPrintable(made.error));
    const QString copy = *made.value;

    OpenedProject opened;
    openAndChangeTheCopy(opened, copy);
    ProjectSession &session = opened.session;
    JobTracker &jobs = opened.jobs;
    if (QTest::currentTestFailed())
        return;
    QVERIFY(versionNames(copy).contains(s("mine")));
    QVERIFY(filesUnder(copy + s("-artifacts")) != filesUnder(demo.artifacts));
    // --demo keeps a copy that is there, with the user's changes.
    QCOMPARE(*demo.install(DemoProject::Mode::KeepExisting).value, copy);
    QVERIFY(QFileInfo::exists(copy + s("-artifacts/mine.txt")));

    // Made again while the session has it open: the store lets go first.
    QObject context;
    std::optional<DemoReplacement> replaced;
    const quint64 projectEpoch = jobs.epoch(s("project"));
    replaceDemoCopy(demo, &session, &jobs, &context, [&](DemoReplacement r) { replaced = std::move(r); });
    QVERIFY(jobs.epoch(s("project")) != projectEpoch); // answers for the old copy are dropped
    QTRY_VERIFY_WITH_TIMEOUT(replaced.has_value(), 30000);
    QCOMPARE(replaced->copy, copy);
    QVERIFY(!replaced->writer);
    QVERIFY2(replaced->made, qPrintable(replaced->made.error));
    QCOMPARE(*replaced->made.value, copy);
    // The bundled demo again: the file byte for byte (no WAL left beside it), every artifact, nothing of the user's.
    QCOMPARE(bytesOf(copy), bytesOf(demo.file));
    QVERIFY(!QFileInfo::exists(copy + s("-wal")));
    QCOMPARE(filesUnder(copy + s("-artifacts")), filesUnder(demo.artifacts));
    QVERIFY(!versionNames(copy).contains(s("mine")));
    QVERIFY(!ProjectLock::liveWriter(copy));
}

void TestSessionFiles::replaceDemoCopyLeavesACopyAnotherWriterHolds()
{
    const DemoProject demo = sourceDemo();
    const Result<QString> made = demo.install(DemoProject::Mode::Replace);
    QVERIFY2(made, qPrintable(made.error));
    const QString copy = *made.value;
    QVERIFY(writeFile(copy + s("-artifacts/mine.txt"), "the user's own file\n"));

    // A writer that is not the session's holds the copy (a round, a second
    // window): the session has it open to read and follow.
    auto writer = ProjectWriter::open(copy);
    QVERIFY2(writer.ok(), qPrintable(writer.error));
    OpenedProject opened;
    QVERIFY(opened.open(copy));
    ProjectSession &session = opened.session;
    JobTracker &jobs = opened.jobs;
    QVERIFY(session.isReadOnly());
    QObject context;
    std::optional<DemoReplacement> replaced;
    replaceDemoCopy(demo, &session, &jobs, &context, [&](DemoReplacement r) { replaced = std::move(r); });
    QTRY_VERIFY_WITH_TIMEOUT(replaced.has_value(), 30000);
    QCOMPARE(replaced->copy, copy);
    QVERIFY(replaced->writer);
    QCOMPARE(replaced->writer->pid, QCoreApplication::applicationPid());
    QVERIFY(!replaced->made.ok());
    QVERIFY(QFileInfo::exists(copy + s("-artifacts/mine.txt"))); // left as it is
}

void TestSessionFiles::treeFileReadsAsAWorld()
{
    const QString path = s(DREAMRSI_SOURCE_DIR "/tests/data/demo/c3-iter1.json");
    const auto expected = demoTree("c3-iter1.json");
    std::optional<Result<WorldEntry>> read;
    m_reader.readTree(path, [&](Result<WorldEntry> world) { read = std::move(world); });
    QVERIFY(!read); // off the GUI thread, answered later
    QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), 30000);
    QVERIFY2(read->ok(), qPrintable(read->error));
    const WorldEntry &world = *read->value;
    QCOMPARE(world.name, s("c3-iter1.json"));
    QCOMPARE(world.path, path);
    QCOMPARE(world.iteration, IterationId(0)); // a loose file, not a project iteration
    QVERIFY(world.tree);
    QCOMPARE(world.tree->cellCount(), expected->cellCount());
    QCOMPARE(TreeJson::serialize(*world.tree), TreeJson::serialize(*expected));
}

void TestSessionFiles::malformedTreeFileIsNamed()
{
    const QString broken = m_dir.filePath(s("broken.json"));
    QVERIFY(writeFile(broken, "{\"cells\": [{\"id\": "));
    const QString missing = m_dir.filePath(s("missing.json"));
    for (const QString &path : {broken, missing}) {
        std::optional<Result<WorldEntry>> read;
        m_reader.readTree(path, [&](Result<WorldEntry> world) { read = std::move(world); });
        QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), 30000);
        QVERIFY(!read->ok());
        QVERIFY2(read->error.contains(path), qPrintable(read->error));
        // The message is the reader's own (TreeJson::readFile), unchanged.
        QCOMPARE(read->error, TreeJson::readFile(path).error.message);
    }
}

void TestSessionFiles::runFolderReadsAsAWorld()
{
    const QString db = m_dir.filePath(s("oe_output/db"));
    QVERIFY(writeOeFolder(db, {oeProgram(s("p0"), {}, 1, score(1)), oeProgram(s("p1"), s("p0"), 2, score(2)),
                               oeProgram(s("p2"), s("p1"), 3, score(3))}));
    std::optional<WorldReader::RunRead> read;
    m_reader.readRun(db, std::nullopt, [&](WorldReader::RunRead run) { read = std::move(run); });
    QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), 30000);
    QVERIFY2(read->world.ok(), qPrintable(read->world.error));
    QVERIFY(!read->asksForMetric()); // scored by combined_score
    const WorldEntry &world = *read->world.value;
    QCOMPARE(world.name, s("oe_output-db")); // a db folder goes with its parent's name
    QCOMPARE(world.name, RunImport::worldName(db));
    QCOMPARE(world.path, db);
    QCOMPARE(world.iteration, IterationId(0));
    const Result<RunImport::Imported> direct = RunImport::read(db);
    QVERIFY(direct.ok());
    QCOMPARE(world.tree->cellCount(), direct.value->tree.cellCount());
    QCOMPARE(TreeJson::serialize(*world.tree), TreeJson::serialize(direct.value->tree));
    QCOMPARE(read->notes, direct.value->notes);
}

void TestSessionFiles::runWithoutCombinedScoreAsksForAMetric()
{
    const QString db = m_dir.filePath(s("accuracy/db"));
    QVERIFY(writeOeFolder(db, {oeProgram(s("p0"), {}, 1, {{s("accuracy"), 0.5}, {s("speed"), 3.0}}),
                               oeProgram(s("p1"), s("p0"), 2, {{s("accuracy"), 0.75}, {s("speed"), 2.0}})}));
    std::optional<WorldReader::RunRead> read;
    m_reader.readRun(db, std::nullopt, [&](WorldReader::RunRead run) { read = std::move(run); });
    QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), 30000);
    QVERIFY2(read->world.ok(), qPrintable(read->world.error));
    QVERIFY(read->asksForMetric());
    QCOMPARE(read->survey.numericMetrics, (QStringList{s("accuracy"), s("speed")}));

    // Read again by the metric chosen: no question, scored by it.
    read.reset();
    m_reader.readRun(db, s("accuracy"), [&](WorldReader::RunRead run) { read = std::move(run); });
    QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), 30000);
    QVERIFY2(read->world.ok(), qPrintable(read->world.error));
    QVERIFY(!read->asksForMetric());
    QCOMPARE(read->world.value->tree->meta().baselineScore, std::optional<double>(0.5));
}

void TestSessionFiles::malformedRunIsNamed()
{
    const QString db = m_dir.filePath(s("broken_run/db"));
    QVERIFY(writeOeFolder(db, {oeProgram(s("p0"), {}, 1, score(1))}));
    const QString bad = db + s("/programs/p1.json");
    QVERIFY(writeFile(bad, "{\"id\": \"p1\", "));
    std::optional<WorldReader::RunRead> read;
    m_reader.readRun(db, std::nullopt, [&](WorldReader::RunRead run) { read = std::move(run); });
    QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), 30000);
    QVERIFY(!read->world.ok());
    QVERIFY(!read->asksForMetric());
    QVERIFY2(read->world.error.contains(s("p1.json")), qPrintable(read->world.error));
    QCOMPARE(read->world.error, RunImport::read(db).error);

    // Imported into a project, the same verdict.
    std::optional<Result<WorldReader::ImportRead>> imported;
    m_reader.readForImport(db, [&](Result<WorldReader::ImportRead> r) { imported = std::move(r); });
    QTRY_VERIFY_WITH_TIMEOUT(imported.has_value(), 30000);
    QVERIFY(!imported->ok());
    QVERIFY2(imported->error.contains(s("p1.json")), qPrintable(imported->error));
}

void TestSessionFiles::importReadingFollowsTheProject()
{
    // A tree file is stored under its path, a run under its world name.
    const QString tree = s(DREAMRSI_SOURCE_DIR "/tests/data/demo/c3-iter1.json");
    const QString db = m_dir.filePath(s("import_output/db"));
    QVERIFY(writeOeFolder(db, {oeProgram(s("p0"), {}, 1, score(1)), oeProgram(s("p1"), s("p0"), 2, score(2))}));
    QMap<QString, QString> sources;
    QMap<QString, int> cells;
    for (const QString &path : {tree, db})
        m_reader.readForImport(path, [&, path](Result<WorldReader::ImportRead> r) {
            QVERIFY2(r.ok(), qPrintable(r.error));
            sources.insert(path, r.value->source);
            cells.insert(path, r.value->tree->cellCount());
        });
    QTRY_COMPARE_WITH_TIMEOUT(sources.size(), 2, 30000);
    QCOMPARE(sources.value(tree), tree);
    QCOMPARE(sources.value(db), s("import_output-db"));
    QCOMPARE(cells.value(tree), demoTree("c3-iter1.json")->cellCount());
    QCOMPARE(cells.value(db), RunImport::readTreeOrRun(db).value->tree.cellCount());

    // Another project opened meanwhile: the import's answer is dropped, an
    // opened file's is not. The pool's threads are held until the scope is
    // renewed, so that neither read can finish before it (a read that has
    // finished when its answer is asked for may answer at once).
    QThreadPool *pool = QThreadPool::globalInstance();
    QSemaphore hold;
    const int threads = pool->maxThreadCount();
    for (int i = 0; i < threads; ++i)
        pool->start([&hold] { hold.acquire(); });
    bool importAnswered = false;
    bool treeAnswered = false;
    m_reader.readForImport(tree, [&](Result<WorldReader::ImportRead>) { importAnswered = true; });
    m_reader.readTree(tree, [&](Result<WorldEntry>) { treeAnswered = true; });
    QVERIFY(!importAnswered && !treeAnswered);
    m_jobs.renew(s("project"));
    hold.release(threads);
    QTRY_VERIFY_WITH_TIMEOUT(treeAnswered, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(m_jobs.pending(), 0, 30000);
    QVERIFY(!importAnswered);
}

QTEST_GUILESS_MAIN(TestSessionFiles)
#include "tst_session_files.moc"
