// Projects made by an older build keep working (docs/project-file.md#projects-of-older-builds):
// read-only commands read an older schema through an in-memory upgrade and
// leave the file exactly as it was; `dreamrsi project upgrade P` upgrades the
// file; and `--policy builtin:NAME` in a project whose stored built-in holds
// an older build's code means today's built-in, stored beside the old
// version (builtin:NAME@<hash>), whose results stay.
#include "clirunsupport.h"
#include "commands.h"
#include "projectreplaycommand.h"

#include "policy/builtinpolicies.h"
#include "project/projectpolicies.h"
#include "store/projectreader.h"
#include "store/schema.h"
#include "store/sqliteconnection.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace dreamrsi;
using dreamrsi::test::runCommand;

namespace {

/// A project written by an early build (schema 2, its built-ins' code of then):
/// tests/data/demo/demo.dreamrsi, frozen.
QString copyOfOldProject(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("old.dreamrsi"));
    if (!QFile::copy(QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/demo/demo.dreamrsi"), path))
        return {};
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    return path;
}

QByteArray digest(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

qint64 fileSchema(const QString &path)
{
    auto db = SqliteConnection::open(path, SqliteConnection::Mode::ReadOnly);
    return db ? (*db.value)->queryInt("PRAGMA user_version;").valueOr(-1) : -1;
}

QList<PolicyVersion> versionsOf(const QString &path)
{
    auto r = ProjectReader::open(path);
    return r.ok() ? (*r.value)->policyVersions().valueOr({}) : QList<PolicyVersion>();
}

} // namespace

class TestOldProjects : public QObject
{
    Q_OBJECT
private slots:
    void readOnlyCommandsLeaveTheFileAlone();
    void upgradeCommand();
    void changedBuiltinIsStoredBeside();
};

void TestOldProjects::readOnlyCommandsLeaveTheFileAlone()
{
    QTemporaryDir dir;
    const QString p = copyOfOldProject(dir);
    QVERIFY(!p.isEmpty());
    QCOMPARE(fileSchema(p), qint64(2));
    QVERIFY(2 < Schema::CurrentVersion);
    const QByteArray before = digest(p);

    // The reader: the current schema, read from an in-memory upgrade.
    {
        auto r = ProjectReader::open(p);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE((*r.value)->upgradedInMemoryFrom(), 2);
        const auto info = (*r.value)->projectInfo();
        QVERIFY(info.ok());
        QCOMPARE(info.value->schemaVersion, Schema::CurrentVersion);
        QCOMPARE((*r.value)->iterations().value->size(), 3);
        QVERIFY((*r.value)->replayConfig().ok()); // a table the file does not have yet
    }

    auto ls = runCommand(runLsCommand, {p, QStringLiteral("iterations")});
    QVERIFY2(ls.rc == 0, qPrintable(ls.err));
    QCOMPARE(ls.out.count(QStringLiteral("finished")), 3);
    ls = runCommand(runLsCommand, {p, QStringLiteral("policies")});
    QVERIFY2(ls.rc == 0 && ls.out.contains(QStringLiteral("builtin:portfolio")), qPrintable(ls.err + ls.out));

    const QString exported = dir.filePath(QStringLiteral("trees"));
    const auto ex = runCommand(runProjectExportCommand, {p, QStringLiteral("--all"), QStringLiteral("--dir"), exported});
    QVERIFY2(ex.rc == 0, qPrintable(ex.err));
    QCOMPARE(QDir(exported).entryList({QStringLiteral("*.json")}, QDir::Files).size(), 3);

    // A replay that stores nothing, of today's built-in (not stored in the file).
    const auto replay = runCommand(runProjectReplayCommand, {QStringLiteral("--project"), p, QStringLiteral("--policy"),
                                                      QStringLiteral("builtin:portfolio"), QStringLiteral("--no-store"),
                                                      QStringLiteral("--json"), QStringLiteral("--threads"), QStringLiteral("1")});
    QVERIFY2(replay.rc == 0, qPrintable(replay.err));
    QVERIFY(QJsonDocument::fromJson(replay.out.toUtf8()).object().value(QStringLiteral("value")).isDouble());
    QVERIFY2(replay.err.contains(QStringLiteral("nothing was written")), qPrintable(replay.err));

    const auto imagine = runCommand(runImagineCommand, {QStringLiteral("--project"), p, QStringLiteral("--out"),
                                                        dir.filePath(QStringLiteral("imagined")), QStringLiteral("--completions"),
                                                        QStringLiteral("1")});
    QVERIFY2(imagine.rc == 0, qPrintable(imagine.err));

    // Not a byte of the file changed, and nothing was left beside it.
    QCOMPARE(digest(p), before);
    QCOMPARE(fileSchema(p), qint64(2));
    QVERIFY(!QFileInfo::exists(p + QStringLiteral("-wal")) || QFileInfo(p + QStringLiteral("-wal")).size() == 0);
}

void TestOldProjects::upgradeCommand()
{
    QTemporaryDir dir;
    const QString p = copyOfOldProject(dir);
    QVERIFY(!p.isEmpty());
    auto up = runCommand(runProjectCommand, {QStringLiteral("upgrade"), p});
    QVERIFY2(up.rc == 0, qPrintable(up.err));
    QVERIFY2(up.out.contains(QStringLiteral("from schema 2 to %1").arg(Schema::CurrentVersion)), qPrintable(up.out));
    QCOMPARE(fileSchema(p), qint64(Schema::CurrentVersion));
    auto r = ProjectReader::open(p);
    QVERIFY(r.ok());
    QCOMPARE((*r.value)->upgradedInMemoryFrom(), 0);
    QCOMPARE((*r.value)->iterations().value->size(), 3);
    r.value->reset();
    // Again: nothing to do, said so.
    up = runCommand(runProjectCommand, {QStringLiteral("upgrade"), p});
    QCOMPARE(up.rc, 0);
    QVERIFY2(up.out.contains(QStringLiteral("nothing to upgrade")), qPrintable(up.out));
    // A missing file is named.
    up = runCommand(runProjectCommand, {QStringLiteral("upgrade"), dir.filePath(QStringLiteral("none.dreamrsi"))});
    QCOMPARE(up.rc, 1);
    QVERIFY2(up.err.contains(QStringLiteral("none.dreamrsi")), qPrintable(up.err));
}

void TestOldProjects::changedBuiltinIsStoredBeside()
{
    QTemporaryDir dir;
    const QString p = copyOfOldProject(dir);
    QVERIFY(!p.isEmpty());
    const QString today = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
    const QString expectedName = QStringLiteral("builtin:portfolio@") + ProjectPolicies::codeHash(today);
    QCOMPARE(ProjectPolicies::codeHash(today).size(), 8);

    // The file's builtin:portfolio is an older build's code, with results.
    QList<PolicyVersion> versions = versionsOf(p);
    const QList<PolicyVersion> stale = ProjectPolicies::staleBuiltins(versions);
    QVERIFY(!stale.isEmpty());
    PolicyVersion old;
    for (const PolicyVersion &v : versions) {
        if (v.name == QLatin1String("builtin:portfolio"))
            old = v;
    }
    QVERIFY(old.id != 0 && old.code != today);
    auto results = [&p](PolicyVersionId id) {
        auto r = ProjectReader::open(p);
        return r.ok() ? (*r.value)->replayResults(id).valueOr({}).size() : -1;
    };
    const qsizetype oldResults = results(old.id);
    QVERIFY(oldResults > 0);
    const std::optional<PolicyVersion> planned = ProjectPolicies::currentBuiltin(versions, QStringLiteral("portfolio"));
    QVERIFY(planned && planned->id == 0);
    QCOMPARE(planned->name, expectedName);

    // builtin:portfolio is today's built-in, stored beside the old one.
    const QStringList args{QStringLiteral("--project"), p, QStringLiteral("--policy"), QStringLiteral("builtin:portfolio"),
                           QStringLiteral("--threads"), QStringLiteral("1")};
    auto replay = runCommand(runProjectReplayCommand, args);
    QVERIFY2(replay.rc == 0, qPrintable(replay.err));
    QVERIFY2(replay.err.contains(expectedName), qPrintable(replay.err));
    versions = versionsOf(p);
    PolicyVersion added;
    for (const PolicyVersion &v : versions) {
        if (v.name == expectedName)
            added = v;
        if (v.id == old.id)
            QCOMPARE(v.code, old.code); // the old version is untouched
    }
    QVERIFY(added.id != 0);
    QCOMPARE(added.code, today);
    QCOMPARE(added.origin, PolicyOrigin::Builtin);
    QVERIFY(results(added.id) > 0);
    QCOMPARE(results(old.id), oldResults); // its results stay where they are

    // Asked again, the same version: no third one.
    replay = runCommand(runProjectReplayCommand, args);
    QVERIFY2(replay.rc == 0, qPrintable(replay.err));
    int named = 0;
    for (const PolicyVersion &v : versionsOf(p))
        named += v.name.startsWith(QLatin1String("builtin:portfolio")) ? 1 : 0;
    QCOMPARE(named, 2);
    QCOMPARE(ProjectPolicies::currentBuiltin(versionsOf(p), QStringLiteral("portfolio"))->id, added.id);
    // A built-in that does not exist is named, as before.
    replay = runCommand(runProjectReplayCommand, {QStringLiteral("--project"), p, QStringLiteral("--policy"),
                                           QStringLiteral("builtin:portfolio@") + QStringLiteral("nope")});
    QCOMPARE(replay.rc, 1);
    QVERIFY2(replay.err.contains(QStringLiteral("unknown built-in")), qPrintable(replay.err));
}

QTEST_GUILESS_MAIN(TestOldProjects)
#include "tst_old_projects.moc"
