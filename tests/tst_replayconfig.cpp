// One replay configuration per project: how the store keeps it (defaults,
// the first round's W, the user's), how values are taken under it and the
// rest kept apart, `dreamrsi project config`, and that every command path —
// `replay --project`, `dream`, `approve`, `project info`, `plot` — uses it,
// explicit flags overriding it for one run only and saying so.
#include "clirunsupport.h"

#include "model/treejson.h"
#include "project/projectscores.h"
#include "project/projectsnapshot.h"
#include "store/projectreader.h"
#include "store/projectwriter.h"
#include "store/replaybounds.h"
#include "store/sqliteconnection.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <limits>

using namespace dreamrsi;

namespace {

using Run = dreamrsi::test::TextRun;
using dreamrsi::test::runText;

QJsonObject jsonOf(const Run &r)
{
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

QString fixture(const char *name)
{
    return QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/project/") + QLatin1String(name);
}

/// A project holding the fixture worlds alpha and beta.
QString makeProject(const QTemporaryDir &dir, const QString &name = QStringLiteral("p.dreamrsi"))
{
    const QString p = dir.filePath(name);
    if (runText({QStringLiteral("project"), QStringLiteral("new"), p}).exitCode != 0)
        qFatal("project new failed");
    const Run r = runText({QStringLiteral("import"), p, fixture("alpha.json"), fixture("beta.json")});
    if (r.exitCode != 0)
        qFatal("import failed: %s", qPrintable(r.err));
    return p;
}

ProjectSnapshot snapshotOf(const QString &path)
{
    auto reader = ProjectReader::open(path);
    if (!reader.ok())
        qFatal("%s", qPrintable(reader.error));
    auto s = ProjectSnapshot::load(**reader.value);
    if (!s.ok())
        qFatal("%s", qPrintable(s.error));
    return *s.value;
}

QList<ReplayResultRecord> recordsOf(const QString &path, const QString &version)
{
    auto reader = ProjectReader::open(path);
    if (!reader.ok())
        return {};
    const auto v = (*reader.value)->policyVersionByName(version);
    if (!v.ok())
        return {};
    return (*reader.value)->replayResults(v.value->id).value.value_or(QList<ReplayResultRecord>());
}

/// How many of `records` were drawn under `rule`.
int countOfRule(const QList<ReplayResultRecord> &records, ImaginationRule rule)
{
    return int(std::count_if(records.cbegin(), records.cend(), [rule](const ReplayResultRecord &r) { return r.key.rule == rule; }));
}

PolicyVersionId idOf(const ProjectSnapshot &s, const QString &name)
{
    const PolicyVersion *v = s.versionNamed(name);
    return v ? v->id : 0;
}

ReplayConfig small()
{
    ReplayConfig c;
    c.workers = 3;
    c.lambda = 0.2;
    c.betas = {0.0, 1.0};
    return c;
}

ReplayResultRecord record(PolicyVersionId version, IterationId world, double beta, int workers, double best)
{
    ReplayResultRecord r;
    r.key.version = version;
    r.key.world = world;
    r.key.beta = beta;
    r.key.workers = workers;
    r.calls = 2;
    r.rounds = 1;
    r.best = best;
    r.attainment = 1.0;
    r.created = QDateTime::currentDateTimeUtc();
    return r;
}

} // namespace

class TestReplayConfig : public QObject
{
    Q_OBJECT

private slots:
    // The store: defaults, the first round's W, the user's configuration, bad values refused.
    void storeKeepsOneConfiguration()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.dreamrsi"));
        auto w = ProjectWriter::create(path, ProjectInfo());
        QVERIFY2(w.ok(), qPrintable(w.error));
        auto r = ProjectReader::open(path);
        QVERIFY(r.ok());
        StoreResult<StoredReplayConfig> c = (*r.value)->replayConfig();
        QVERIFY2(c.ok(), qPrintable(c.error));
        QCOMPARE(c.value->config, ReplayConfig());
        QCOMPARE(c.value->config.workers, 10);
        QCOMPARE(c.value->config.lambda, 0.1);
        QCOMPARE(c.value->config.betas, (QList<double>{0.0, 0.25, 0.5, 0.75, 1.0}));
        QVERIFY(!c.value->config.rounds);
        QCOMPARE(c.value->origin, ReplayConfigOrigin::Default);

        // The first round sets W; later rounds do not.
        IterationInfo round;
        round.maxParallelism = 4;
        QVERIFY((*w.value)->beginIteration(round).ok());
        round.maxParallelism = 8;
        QVERIFY((*w.value)->beginIteration(round).ok());
        c = (*r.value)->replayConfig();
        QCOMPARE(c.value->config.workers, 4);
        QCOMPARE(c.value->origin, ReplayConfigOrigin::FirstRound);

        // Bad values are refused with what is wrong, and nothing changes.
        ReplayConfig bad;
        bad.workers = 0;
        QVERIFY((*w.value)->setReplayConfig(bad).error.contains(QStringLiteral("W must be in [1, 10000] (got 0)")));
        bad.workers = ReplayBounds::MaxWorkers + 1;
        QVERIFY((*w.value)->setReplayConfig(bad).error.contains(QStringLiteral("W must be in [1, 10000] (got 10001)")));
        bad = ReplayConfig();
        bad.completions = ReplayBounds::MaxCompletions + 1;
        QVERIFY((*w.value)->setReplayConfig(bad).error.contains(QStringLiteral("C must be in [1, 1000] (got 1001)")));
        bad = ReplayConfig();
        bad.lambda = ReplayBounds::MaxLambda * 2;
        QVERIFY((*w.value)->setReplayConfig(bad).error.contains(QStringLiteral("λ must be a number in [0, 1000]")));
        bad = ReplayConfig();
        bad.betas = {0.5, 2.0};
        QVERIFY((*w.value)->setReplayConfig(bad).error.contains(QStringLiteral("outside [0, 1]")));
        bad.betas.clear();
        QVERIFY((*w.value)->setReplayConfig(bad).error.contains(QStringLiteral("empty")));
        bad = ReplayConfig();
        bad.lambda = std::numeric_limits<double>::quiet_NaN();
        QVERIFY(!(*w.value)->setReplayConfig(bad).ok());
        bad = ReplayConfig();
        bad.rounds = 0;
        QVERIFY((*w.value)->setReplayConfig(bad).error.contains(QStringLiteral("K must be in [1, 1000000] (got 0)")));
        QCOMPARE((*r.value)->replayConfig().value->config.workers, 4);

        // The user's configuration (β sorted, duplicates dropped) wins over a later first round.
        const QString other = dir.filePath(QStringLiteral("u.dreamrsi"));
        auto w2 = ProjectWriter::create(other, ProjectInfo());
        QVERIFY(w2.ok());
        ReplayConfig mine = small();
        mine.betas = {1.0, 0.0, 1.0};
        mine.rounds = 5;
        QVERIFY((*w2.value)->setReplayConfig(mine).ok());
        round.maxParallelism = 2;
        QVERIFY((*w2.value)->beginIteration(round).ok());
        auto r2 = ProjectReader::open(other);
        QVERIFY(r2.ok());
        c = (*r2.value)->replayConfig();
        QCOMPARE(c.value->origin, ReplayConfigOrigin::User);
        QCOMPARE(c.value->config.workers, 3);
        QCOMPARE(c.value->config.betas, (QList<double>{0.0, 1.0}));
        QCOMPARE(c.value->config.rounds, std::optional<int>(5));
        QCOMPARE(c.value->config.label(), QStringLiteral("W 3, λ 0.2, β {0, 1}, K 5, imagined C 8"));
        QCOMPARE(c.value->config.valuation, Valuation::Imagined);

        // A damaged stored configuration is reported, naming what is wrong.
        w2.value->reset();
        {
            const auto db = SqliteConnection::open(other, SqliteConnection::Mode::ReadWrite);
            QVERIFY2(db, qPrintable(db.error));
            const Result<Done> damaged = (*db.value)->exec("UPDATE replay_config SET betas = 'nonsense';");
            QVERIFY2(damaged, qPrintable(damaged.error));
        }
        auto r3 = ProjectReader::open(other);
        QVERIFY(r3.ok());
        c = (*r3.value)->replayConfig();
        QVERIFY(!c.ok());
        QVERIFY2(c.error.contains(QStringLiteral("replay configuration is damaged")), qPrintable(c.error));
    }

    // Values are taken under the configuration only; the rest is listed apart; stale versions are named.
    void valuesUnderTheConfigurationOnly()
    {
        QList<ProjectWorld> worlds;
        auto tree = [](const char *name) {
            auto parsed = TreeJson::readFile(fixture(name));
            if (!parsed.ok())
                qFatal("%s", qPrintable(parsed.error.message));
            return std::make_shared<const DiscoveryTree>(std::move(*parsed.tree));
        };
        worlds.append({QStringLiteral("alpha"), 1, tree("alpha.json")});
        worlds.append({QStringLiteral("beta"), 2, tree("beta.json")});
        QList<ReplayResultRecord> records;
        for (IterationId world : {1, 2}) {
            for (double beta : {0.0, 1.0}) {
                records.append(record(5, world, beta, 3, 1.0)); // version 5 under W 3
                records.append(record(5, world, beta, 10, 2.0)); // and under W 10
                records.append(record(6, world, beta, 10, 2.0)); // version 6 only under W 10
            }
        }
        ReplayConfig config;
        config.workers = 3;
        config.betas = {0.0, 1.0};
        config.valuation = Valuation::Revealed; // the records are of the worlds as revealed
        const auto results = ProjectScores::resultsFromRecords(records, worlds, config);
        QVERIFY(results.value(5));
        QVERIFY(!results.contains(6));
        QCOMPARE(results.value(5)->workers, 3);
        QCOMPARE(results.value(5)->worlds.size(), 2);
        for (const SweepResult &s : results.value(5)->worlds) {
            for (const EpisodeResult &e : s.episodes)
                QCOMPARE(e.best, 1.0); // never the W 10 episodes
        }
        const QList<ConfiguredResult> others = ProjectScores::otherResults(records, worlds, config);
        QCOMPARE(others.size(), 2);
        for (const ConfiguredResult &o : others) {
            QCOMPARE(o.config.workers, 10);
            QCOMPARE(o.config.label(), QStringLiteral("W 10, λ 0.1, β {0, 1}, no K"));
        }
        QCOMPARE(ProjectScores::staleVersions(records, worlds, config), (QList<PolicyVersionId>{6}));
        // A β of the grid missing in a world: that world is not covered, so no value, and stale.
        config.betas = {0.0, 0.5, 1.0};
        const auto partial = ProjectScores::resultsFromRecords(records, worlds, config);
        QVERIFY(!partial.contains(5));
        QCOMPARE(ProjectScores::staleVersions(records, worlds, config), (QList<PolicyVersionId>{5, 6}));
    }

    // `dreamrsi project config`: print, change, list stale values, replay them only with --replay.
    void projectConfigCommand()
    {
        QTemporaryDir dir;
        const QString p = makeProject(dir);
        Run r = runText({QStringLiteral("project"), QStringLiteral("config"), p, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QJsonObject o = jsonOf(r);
        QCOMPARE(o.value(QStringLiteral("config")).toObject(), ReplayConfig().toJson());
        QCOMPARE(o.value(QStringLiteral("origin")).toString(), QStringLiteral("default"));
        QCOMPARE(o.value(QStringLiteral("changed")).toBool(), false);
        QVERIFY(o.value(QStringLiteral("stale")).toArray().isEmpty());

        r = runText({QStringLiteral("replay"), QStringLiteral("--project"), p, QStringLiteral("--policy"),
                 QStringLiteral("builtin:portfolio"), QStringLiteral("--threads"), QStringLiteral("1")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));

        // Changing it lists the version replayed under the old one, and does not replay it.
        r = runText({QStringLiteral("project"), QStringLiteral("config"), p, QStringLiteral("--workers"), QStringLiteral("3"),
                 QStringLiteral("--lambda"), QStringLiteral("0.2"), QStringLiteral("--betas"), QStringLiteral("1,0"),
                 QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        o = jsonOf(r);
        QCOMPARE(o.value(QStringLiteral("config")).toObject(), small().toJson());
        QCOMPARE(o.value(QStringLiteral("origin")).toString(), QStringLiteral("user"));
        QCOMPARE(o.value(QStringLiteral("changed")).toBool(), true);
        QCOMPARE(o.value(QStringLiteral("previous")).toObject(), ReplayConfig().toJson());
        QJsonArray stale = o.value(QStringLiteral("stale")).toArray();
        QCOMPARE(stale.size(), 1);
        QCOMPARE(stale.at(0).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("builtin:portfolio"));
        const QJsonArray under = stale.at(0).toObject().value(QStringLiteral("computed_under")).toArray();
        QCOMPARE(under.size(), 1);
        QCOMPARE(under.at(0).toObject().value(QStringLiteral("workers")).toInt(), 10);
        QVERIFY(o.value(QStringLiteral("replayed")).toArray().isEmpty());
        QVERIFY(!snapshotOf(p).results.contains(idOf(snapshotOf(p), QStringLiteral("builtin:portfolio"))));

        // The text form says the same and how to replay.
        r = runText({QStringLiteral("project"), QStringLiteral("config"), p});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("W        3")) && r.out.contains(QStringLiteral("builtin:portfolio"))
                     && r.out.contains(QStringLiteral("computed under W 10")) && r.out.contains(QStringLiteral("--replay")),
                 qPrintable(r.out));

        // --replay replays it under the project's configuration; the old values are kept, listed apart.
        r = runText({QStringLiteral("project"), QStringLiteral("config"), p, QStringLiteral("--replay"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        o = jsonOf(r);
        QCOMPARE(o.value(QStringLiteral("replayed")).toArray().size(), 1);
        QVERIFY(o.value(QStringLiteral("replayed")).toArray().at(0).toObject().value(QStringLiteral("value")).isDouble());
        QVERIFY(o.value(QStringLiteral("stale_after")).toArray().isEmpty());
        const ProjectSnapshot s = snapshotOf(p);
        const PolicyVersionId portfolio = idOf(s, QStringLiteral("builtin:portfolio"));
        QVERIFY(s.results.value(portfolio));
        QCOMPARE(s.results.value(portfolio)->workers, 3);
        QCOMPARE(s.results.value(portfolio)->betas, (QList<double>{0.0, 1.0}));
        QVERIFY(s.results.value(portfolio)->value);
        QCOMPARE(s.others.size(), 1);
        QCOMPARE(s.others.first().config.workers, 10);
        QVERIFY(s.stale.isEmpty());

        // K: set, then removed.
        r = runText({QStringLiteral("project"), QStringLiteral("config"), p, QStringLiteral("--rounds"), QStringLiteral("5"),
                 QStringLiteral("--json")});
        QCOMPARE(jsonOf(r).value(QStringLiteral("config")).toObject().value(QStringLiteral("rounds")).toInt(), 5);
        r = runText({QStringLiteral("project"), QStringLiteral("config"), p, QStringLiteral("--rounds"), QStringLiteral("none"),
                 QStringLiteral("--json")});
        QVERIFY(jsonOf(r).value(QStringLiteral("config")).toObject().value(QStringLiteral("rounds")).isNull());
        QCOMPARE(jsonOf(r).value(QStringLiteral("changed")).toBool(), true);
    }

    // The imagination rule is part of the configuration: results drawn under
    // another rule are other worlds, kept apart and never mixed with the project's.
    void ruleIsPartOfTheConfiguration()
    {
        // A key as revealed is covered whatever the rule; an imagined one only under its own.
        ReplayConfig widened;
        widened.rule = ImaginationRule::Widened;
        ReplayKey key;
        key.beta = 0.5;
        key.completions = widened.completions;
        QVERIFY(!widened.covers(key)); // drawn under capped
        key.rule = ImaginationRule::Widened;
        QVERIFY(widened.covers(key));
        QCOMPARE(ReplayConfig::ofKey(key, {0.5}).rule, ImaginationRule::Widened);
        ReplayConfig revealed = widened;
        revealed.valuation = Valuation::Revealed;
        ReplayKey asRevealed;
        asRevealed.beta = 0.5;
        QVERIFY(revealed.covers(asRevealed));
        QCOMPARE(widened.label(), QStringLiteral("W 10, λ 0.1, β {0, 0.25, 0.5, 0.75, 1}, no K, imagined C 8, widened"));
        QCOMPARE(ReplayConfig().label(), QStringLiteral("W 10, λ 0.1, β {0, 0.25, 0.5, 0.75, 1}, no K, imagined C 8"));
        QCOMPARE(widened.toJson().value(QStringLiteral("rule")).toString(), QStringLiteral("widened"));

        QTemporaryDir dir;
        const QString p = makeProject(dir);
        Run r = runText({QStringLiteral("project"), QStringLiteral("config"), p, QStringLiteral("--valuation"),
                         QStringLiteral("imagined"), QStringLiteral("--completions"), QStringLiteral("2"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(jsonOf(r).value(QStringLiteral("config")).toObject().value(QStringLiteral("rule")).toString(),
                 QStringLiteral("capped"));
        r = runText({QStringLiteral("replay"), QStringLiteral("--project"), p, QStringLiteral("--policy"),
                     QStringLiteral("builtin:portfolio"), QStringLiteral("--threads"), QStringLiteral("1")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QList<ReplayResultRecord> records = recordsOf(p, QStringLiteral("builtin:portfolio"));
        QCOMPARE(records.size(), 2 * 2 * 5); // worlds × completions × β
        for (const ReplayResultRecord &rec : records)
            QCOMPARE(rec.key.rule, ImaginationRule::Capped);

        // Switching to widened leaves the capped values stale, and --replay values it under widened.
        r = runText({QStringLiteral("project"), QStringLiteral("config"), p, QStringLiteral("--rule"), QStringLiteral("widened"),
                     QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QJsonObject o = jsonOf(r);
        QCOMPARE(o.value(QStringLiteral("config")).toObject().value(QStringLiteral("rule")).toString(), QStringLiteral("widened"));
        QCOMPARE(o.value(QStringLiteral("changed")).toBool(), true);
        QCOMPARE(o.value(QStringLiteral("stale")).toArray().size(), 1);
        r = runText({QStringLiteral("project"), QStringLiteral("config"), p});
        QVERIFY2(r.out.contains(QStringLiteral("rule     widened")), qPrintable(r.out));
        r = runText({QStringLiteral("project"), QStringLiteral("config"), p, QStringLiteral("--replay"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(jsonOf(r).value(QStringLiteral("stale_after")).toArray().isEmpty());
        records = recordsOf(p, QStringLiteral("builtin:portfolio"));
        QCOMPARE(records.size(), 2 * (2 * 2 * 5)); // both rules kept
        QCOMPARE(countOfRule(records, ImaginationRule::Widened), 2 * 2 * 5);
        const ProjectSnapshot s = snapshotOf(p);
        const ReplayResultPtr value = s.results.value(idOf(s, QStringLiteral("builtin:portfolio")));
        QVERIFY(value && value->value);
        QCOMPARE(value->rule, ImaginationRule::Widened);
        QCOMPARE(s.others.size(), 1);
        QCOMPARE(s.others.first().config.rule, ImaginationRule::Capped);
        QVERIFY2(s.others.first().config.label().endsWith(QStringLiteral("imagined C 2")), qPrintable(s.others.first().config.label()));

        // The third and fourth rules are stored and keyed the same way (schemas 10 and 11 allow them in both tables).
        qsizetype kept = 2;
        for (const ImaginationRule rule : {ImaginationRule::Uncertain, ImaginationRule::Anchored}) {
            const QString name = imaginationRuleName(rule);
            r = runText({QStringLiteral("project"), QStringLiteral("config"), p, QStringLiteral("--rule"), name,
                         QStringLiteral("--replay"), QStringLiteral("--json")});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QCOMPARE(jsonOf(r).value(QStringLiteral("config")).toObject().value(QStringLiteral("rule")).toString(), name);
            records = recordsOf(p, QStringLiteral("builtin:portfolio"));
            QCOMPARE(records.size(), ++kept * (2 * 2 * 5));
            QCOMPARE(countOfRule(records, rule), 2 * 2 * 5);
            const ProjectSnapshot after = snapshotOf(p);
            const ReplayResultPtr ruleValue = after.results.value(idOf(after, QStringLiteral("builtin:portfolio")));
            QVERIFY(ruleValue && ruleValue->value);
            QCOMPARE(ruleValue->rule, rule);
        }
    }

    void projectConfigRefusesBadInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no file") << QStringList{} << 2 << QStringLiteral("give the project file");
        QTest::newRow("workers 0") << QStringList{QStringLiteral("--workers"), QStringLiteral("0")} << 2 << QStringLiteral("--workers");
        QTest::newRow("lambda") << QStringList{QStringLiteral("--lambda"), QStringLiteral("-1")} << 2 << QStringLiteral("--lambda");
        QTest::newRow("betas") << QStringList{QStringLiteral("--betas"), QStringLiteral("0,2")} << 2 << QStringLiteral("--betas");
        QTest::newRow("rounds") << QStringList{QStringLiteral("--rounds"), QStringLiteral("many")} << 2 << QStringLiteral("--rounds");
        QTest::newRow("unknown") << QStringList{QStringLiteral("--frobnicate")} << 2 << QStringLiteral("frobnicate");
        QTest::newRow("rule") << QStringList{QStringLiteral("--rule"), QStringLiteral("wide")} << 2
                              << QStringLiteral("--rule must be one of capped, widened, uncertain, anchored (got 'wide')");
    }

    void projectConfigRefusesBadInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString p = makeProject(dir);
        QStringList full{QStringLiteral("project"), QStringLiteral("config")};
        if (QString::fromLatin1(QTest::currentDataTag()) != QLatin1String("no file"))
            full.append(p);
        const Run r = runText(full + args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        // Nothing changed.
        QCOMPARE(snapshotOf(p).config.config, ReplayConfig());
        const Run missing = runText({QStringLiteral("project"), QStringLiteral("config"), dir.filePath(QStringLiteral("none.dreamrsi"))});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains(QStringLiteral("no such project file")));
    }

    // The replay-configuration flags are read one way by every command that
    // takes them: the same bounds, the same message naming the flag, exit 2,
    // nothing stored.
    void everyCommandReadsTheFlagsOneWay_data()
    {
        QTest::addColumn<QStringList>("flag");
        QTest::addColumn<QString>("message");
        QTest::newRow("W 0") << QStringList{QStringLiteral("--workers"), QStringLiteral("0")}
                             << QStringLiteral("--workers must be an integer in [1, 10000] (got '0')");
        QTest::newRow("W too many") << QStringList{QStringLiteral("--workers"), QStringLiteral("10001")}
                                    << QStringLiteral("--workers must be an integer in [1, 10000] (got '10001')");
        QTest::newRow("K 0") << QStringList{QStringLiteral("--rounds"), QStringLiteral("0x")}
                             << QStringLiteral("--rounds must be an integer in [1, 1000000] (got '0x')");
        QTest::newRow("C") << QStringList{QStringLiteral("--completions"), QStringLiteral("1001")}
                           << QStringLiteral("--completions must be an integer in [1, 1000] (got '1001')");
        QTest::newRow("valuation") << QStringList{QStringLiteral("--valuation"), QStringLiteral("dreamt")}
                                   << QStringLiteral("--valuation must be imagined"); // loop --worlds also takes oracle
    }
    void everyCommandReadsTheFlagsOneWay()
    {
        QFETCH(QStringList, flag);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString p = makeProject(dir);
        const QString world = fixture("alpha.json");
        const qsizetype versions = snapshotOf(p).versions.size();
        // Each command with the flag as it spells it (dream's K is --replay-rounds).
        const bool rounds = flag.first() == QLatin1String("--rounds");
        const bool replayOnly = flag.first() == QLatin1String("--completions") || flag.first() == QLatin1String("--valuation");
        QList<QStringList> commands{{QStringLiteral("project"), QStringLiteral("config"), p}};
        if (!replayOnly)
            commands.append({QStringLiteral("replay"), QStringLiteral("--project"), p, QStringLiteral("--policy"),
                             QStringLiteral("builtin:portfolio")});
        commands.append({QStringLiteral("dream"), QStringLiteral("--project"), p});
        commands.append({QStringLiteral("loop"), QStringLiteral("--worlds"), world, QStringLiteral("--iterations"), QStringLiteral("1")});
        if (flag.first() == QLatin1String("--completions"))
            commands.append({QStringLiteral("imagine"), QStringLiteral("--world"), world, QStringLiteral("--out"), dir.filePath(QStringLiteral("out"))});
        for (const QStringList &command : std::as_const(commands)) {
            QStringList given = flag;
            if (rounds && command.first() == QLatin1String("dream"))
                given.first() = QStringLiteral("--replay-rounds");
            const Run r = runText(command + given);
            const QString expected =
                QString(message).replace(QStringLiteral("--rounds"), given.first());
            QVERIFY2(r.exitCode == 2, qPrintable(command.join(QLatin1Char(' ')) + QStringLiteral(": ") + r.err));
            QVERIFY2(r.err.contains(expected), qPrintable(command.join(QLatin1Char(' ')) + QStringLiteral(": ") + r.err));
            QVERIFY2(r.err.contains(QStringLiteral("(got '%1')").arg(given.at(1))), qPrintable(r.err));
        }
        QCOMPARE(snapshotOf(p).config.config, ReplayConfig());
        QCOMPARE(snapshotOf(p).versions.size(), versions); // nothing dreamed or stored
    }

    // Every command path uses the project's configuration; explicit flags override it for one run, labelled.
    void everyCommandUsesTheConfiguration()
    {
        QTemporaryDir dir;
        const QString p = makeProject(dir);
        Run r = runText({QStringLiteral("project"), QStringLiteral("config"), p, QStringLiteral("--workers"), QStringLiteral("3"),
                     QStringLiteral("--lambda"), QStringLiteral("0.2"), QStringLiteral("--betas"), QStringLiteral("0,1")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));

        // replay --project
        r = runText({QStringLiteral("replay"), QStringLiteral("--project"), p, QStringLiteral("--policy"),
                 QStringLiteral("builtin:portfolio"), QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // A new project values over imagined completions (C 8 of each of the 2 worlds).
        QVERIFY2(r.err.contains(QStringLiteral("under W 3, λ 0.2, β {0, 1}, no K, imagined C 8 (the project's replay configuration)")),
                 qPrintable(r.err));
        for (const ReplayResultRecord &rec : recordsOf(p, QStringLiteral("builtin:portfolio")))
            QVERIFY(small().covers(rec.key) && rec.key.isImagined());
        QCOMPARE(recordsOf(p, QStringLiteral("builtin:portfolio")).size(), 2 * 8 * 2);

        // … with a flag: this run only, said so, never mixed into the project's values.
        r = runText({QStringLiteral("replay"), QStringLiteral("--project"), p, QStringLiteral("--policy"),
                 QStringLiteral("builtin:portfolio"), QStringLiteral("--workers"), QStringLiteral("5"), QStringLiteral("--threads"),
                 QStringLiteral("1")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("under W 5, λ 0.2, β {0, 1}, no K, imagined C 8 (overrides")), qPrintable(r.err));
        ProjectSnapshot s = snapshotOf(p);
        const PolicyVersionId portfolio = idOf(s, QStringLiteral("builtin:portfolio"));
        QCOMPARE(s.config.config, small());
        QCOMPARE(s.results.value(portfolio)->workers, 3);
        QCOMPARE(s.others.size(), 1);
        QCOMPARE(s.others.first().config.workers, 5);

        // dream
        r = runText({QStringLiteral("dream"), QStringLiteral("--project"), p, QStringLiteral("--versions"), QStringLiteral("2"),
                 QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QJsonObject o = jsonOf(r);
        QCOMPARE(o.value(QStringLiteral("replay_config")).toObject(), small().toJson());
        QCOMPARE(o.value(QStringLiteral("replay_config_overridden")).toBool(), false);
        QCOMPARE(o.value(QStringLiteral("workers")).toInt(), 3);
        const QString written = o.value(QStringLiteral("versions")).toArray().at(1).toObject().value(QStringLiteral("name")).toString();
        QVERIFY(!written.isEmpty());
        const QList<ReplayResultRecord> dreamed = recordsOf(p, written);
        QVERIFY(!dreamed.isEmpty());
        // Under the project's (imagined) valuation; a proposal is also valued
        // over the history as revealed, for the dialogs' second number.
        ReplayConfig revealedTwin = small();
        revealedTwin.valuation = Valuation::Revealed;
        int imagined = 0;
        for (const ReplayResultRecord &rec : dreamed) {
            QVERIFY(small().covers(rec.key) || revealedTwin.covers(rec.key));
            imagined += small().covers(rec.key) ? 1 : 0;
        }
        QCOMPARE(imagined, 2 * 8 * 2);
        // … with a flag: labelled as an override.
        r = runText({QStringLiteral("dream"), QStringLiteral("--project"), p, QStringLiteral("--versions"), QStringLiteral("1"),
                 QStringLiteral("--lambda"), QStringLiteral("0.3"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        o = jsonOf(r);
        QCOMPARE(o.value(QStringLiteral("replay_config_overridden")).toBool(), true);
        QCOMPARE(o.value(QStringLiteral("lambda")).toDouble(), 0.3);
        QVERIFY(r.err.contains(QStringLiteral("overrides the project's")));
        QCOMPARE(snapshotOf(p).config.config, small());

        // approve: the evidence names the project's configuration
        r = runText({QStringLiteral("approve"), QStringLiteral("--project"), p, QStringLiteral("--version"),
                 QStringLiteral("builtin:portfolio"), QStringLiteral("--by"), QStringLiteral("tester"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject evidence = jsonOf(r).value(QStringLiteral("evidence")).toObject();
        QCOMPARE(evidence.value(QStringLiteral("replay")).toObject(), small().toJson());
        QCOMPARE(evidence.value(QStringLiteral("value")).toObject().value(QStringLiteral("candidate")).toDouble(),
                 *snapshotOf(p).results.value(portfolio)->value);

        // project info
        r = runText({QStringLiteral("project"), QStringLiteral("info"), p});
        QVERIFY2(r.out.contains(QStringLiteral("replay      W 3, λ 0.2, β {0, 1}, no K, imagined C 8")), qPrintable(r.out));
    }
};

QTEST_GUILESS_MAIN(TestReplayConfig)
#include "tst_replayconfig.moc"
