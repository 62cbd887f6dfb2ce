// The bundled demo (resources/demo/demo.dreamrsi, what `dreamrsi-workbench
// --demo` opens) is made by this build: at the current schema, so the
// README's read-only commands work on a copy of it, and its stored built-in
// versions hold today's code, so `--policy builtin:NAME` on it names the
// version the demo's results belong to. Either fails after a change to the
// schema or to a built-in policy until the demo is remade (one command,
// named in the failure).
#include "policy/builtinpolicies.h"
#include "project/projectpolicies.h"
#include "store/projectreader.h"
#include "store/schema.h"
#include "store/sqliteconnection.h"

#include <QFile>
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

QTEST_GUILESS_MAIN(TestBundledDemo)
#include "tst_bundled_demo.moc"
