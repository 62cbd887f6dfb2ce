// The bundled demo (resources/demo/demo.dreamrsi, what `dreamrsi-workbench
// --demo` opens) is made by this build: at the current schema, so the
// README's read-only commands work on a copy of it, and its stored built-in
// versions hold today's code, so `--policy builtin:NAME` on it names the
// version the demo's results belong to. Either fails after a change to the
// schema or to a built-in policy until the demo is remade (one command,
// named in the failure). Every stored version has a value under the demo's
// own replay configuration over every world, as the window decides it (the
// demo opens with no "1 of 3 worlds" and no "Stale under this
// configuration"). The README's figure commands and a replay of a built-in
// run on a copy of it.
#include "clirunsupport.h"
#include "policy/builtinpolicies.h"
#include "project/projectpolicies.h"
#include "project/projectsnapshot.h"
#include "store/projectreader.h"
#include "store/schema.h"
#include "store/sqliteconnection.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace dreamrsi;

namespace {

const char *const Demo = DREAMRSI_SOURCE_DIR "/resources/demo/demo.dreamrsi";

QString remake()
{
    return QStringLiteral("The bundled demo is stale: remake it with one command from the source folder,\n"
                          "    cmake --build --preset dev --target regenerate-demo\n"
                          "(it runs resources/demo/make-demo-project.sh with the dreamrsi just built) and commit "
                          "resources/demo/.");
}

} // namespace

class TestBundledDemo : public QObject
{
    Q_OBJECT
private slots:
    void atTheCurrentSchema();
    void builtinsAreTodays();
    void everyVersionIsValued();
    void readmeCommandsRunOnACopy();
};

void TestBundledDemo::atTheCurrentSchema()
{
    // Read the file's own version, touching nothing beside it.
    auto db = SqliteConnection::open(QString::fromUtf8(Demo), SqliteConnection::Mode::Immutable);
    QVERIFY2(db, qPrintable(db.error));
    const qint64 version = (*db.value)->queryInt("PRAGMA user_version;").valueOr(-1);
    QVERIFY2(version == Schema::CurrentVersion,
             qPrintable(QStringLiteral("resources/demo/demo.dreamrsi has schema %1, this build writes %2.\n%3")
                            .arg(version)
                            .arg(Schema::CurrentVersion)
                            .arg(remake())));
}

void TestBundledDemo::builtinsAreTodays()
{
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("demo.dreamrsi"));
    QVERIFY(QFile::copy(QString::fromUtf8(Demo), copy));
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    auto reader = ProjectReader::open(copy);
    QVERIFY2(reader.ok(), qPrintable(reader.error));
    const StoreResult<QList<PolicyVersion>> versions = (*reader.value)->policyVersions();
    QVERIFY2(versions.ok(), qPrintable(versions.error));
    QStringList problems;
    for (const PolicyVersion &v : ProjectPolicies::staleBuiltins(*versions.value))
        problems.append(QStringLiteral("%1 (version %2) holds other code than today's built-in (stored %3, today %4)")
                            .arg(v.name)
                            .arg(v.id)
                            .arg(ProjectPolicies::codeHash(v.code),
                                 ProjectPolicies::codeHash(BuiltinPolicies::javaScriptSource(v.name.mid(8)))));
    for (const QString &name : BuiltinPolicies::names()) {
        const std::optional<PolicyVersion> current = ProjectPolicies::currentBuiltin(*versions.value, name);
        if (!current || current->id == 0 || current->name != QStringLiteral("builtin:") + name)
            problems.append(QStringLiteral("builtin:%1 of today is not stored in the demo").arg(name));
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n')) + QLatin1Char('\n') + remake()));
}

void TestBundledDemo::everyVersionIsValued()
{
    // The rule of the Policies table, Frontiers and the approval: each
    // version's result under the project's replay configuration only
    // (ProjectSnapshot::load → ProjectScores::resultsFromRecords and
    // staleVersions, what the window's ProjectSession applies), a value only
    // when it covers every replay world (under the imagined valuation, each
    // of the C completions of every world) and every β of the grid.
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("demo.dreamrsi"));
    QVERIFY(QFile::copy(QString::fromUtf8(Demo), copy));
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    auto reader = ProjectReader::open(copy);
    QVERIFY2(reader.ok(), qPrintable(reader.error));
    const Result<ProjectSnapshot> snapshot = ProjectSnapshot::load(**reader.value);
    QVERIFY2(snapshot.ok(), qPrintable(snapshot.error));
    const ProjectSnapshot &s = *snapshot.value;
    QVERIFY2(s.worlds.size() >= 3, "the demo has its three replay worlds");
    QVERIFY2(s.versions.size() >= 4, "the demo has the built-ins and the dreamed versions");
    const ReplayConfig &config = s.config.config;
    const int completions = config.imaginedCompletions();
    QStringList problems;
    for (const PolicyVersion &v : s.versions) {
        const ReplayResultPtr r = s.results.value(v.id);
        QStringList missing;
        for (const ProjectWorld &w : s.worlds) {
            int lacking = 0;
            for (int k = 0; k < std::max(1, completions); ++k) {
                const QString name = completions > 0 ? ProjectScores::completionName(w.name, k) : w.name;
                lacking += !r || !r->sweepOf(name);
            }
            if (lacking > 0)
                missing.append(completions > 0 ? QStringLiteral("%1 (%2 of its %3 completions)").arg(w.name).arg(lacking).arg(completions)
                                               : w.name);
        }
        if (!r || !r->value)
            problems.append(QStringLiteral("%1 has no value under the demo's configuration (%2)%3")
                                .arg(v.name, config.label(),
                                     r && !r->ok() ? QStringLiteral(": ") + r->firstError() : QString()));
        if (!missing.isEmpty())
            problems.append(QStringLiteral("%1 was not replayed in %2").arg(v.name, missing.join(QStringLiteral(", "))));
        if (s.stale.contains(v.id))
            problems.append(QStringLiteral("%1 is stale under the demo's configuration").arg(v.name));
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n')) + QLatin1Char('\n') + remake()));
}

void TestBundledDemo::readmeCommandsRunOnACopy()
{
    // What the README shows on the demo, run as a user would, on a copy:
    // the figures of a project (each a file with its caption table and
    // data), and a replay of today's portfolio that stores its results.
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("demo.dreamrsi"));
    QVERIFY(QFile::copy(QString::fromUtf8(Demo), copy));
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    const QList<QStringList> figures{
        {QStringLiteral("plot"), QStringLiteral("frontier"), QStringLiteral("--project"), copy, QStringLiteral("--out"),
         dir.filePath(QStringLiteral("frontier.pdf"))},
        {QStringLiteral("plot"), QStringLiteral("anytime"), QStringLiteral("--project"), copy, QStringLiteral("--out"),
         dir.filePath(QStringLiteral("anytime.svg"))},
        {QStringLiteral("plot"), QStringLiteral("tree"), QStringLiteral("--project"), copy, QStringLiteral("--out"),
         dir.filePath(QStringLiteral("tree.png"))},
        {QStringLiteral("plot"), QStringLiteral("progress"), QStringLiteral("--project"), copy, QStringLiteral("--out"),
         dir.filePath(QStringLiteral("progress.png"))},
    };
    for (QStringList args : figures) {
        const QString out = args.last();
        const QString data = out + QStringLiteral(".csv");
        args << QStringLiteral("--data") << data;
        const test::CliRun r = test::runDreamrsi(args);
        QVERIFY2(r.exitCode == 0, qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") + QString::fromUtf8(r.err)));
        QVERIFY2(QFileInfo(out).size() > 0, qPrintable(out));
        QVERIFY2(QFileInfo(data).size() > 0, qPrintable(data));
    }
    const test::CliRun replay = test::runDreamrsi({QStringLiteral("replay"), QStringLiteral("--project"), copy,
                                                   QStringLiteral("--policy"), QStringLiteral("builtin:portfolio"),
                                                   QStringLiteral("--json")});
    QVERIFY2(replay.exitCode == 0, replay.err.constData());
    const QJsonObject json = QJsonDocument::fromJson(replay.out).object();
    QVERIFY2(json.value(QStringLiteral("value")).isDouble(), replay.out.constData());
    QCOMPARE(json.value(QStringLiteral("policy")).toString(), QStringLiteral("builtin:portfolio"));
}

QTEST_GUILESS_MAIN(TestBundledDemo)
#include "tst_bundled_demo.moc"
