// The compact replay of built-in policies (CompactReplay, the path of
// `dreamrsi replay --policy builtin:NAME`) against the general engine
// (ReplayEngine): the same JSON byte for byte, over synthetic worlds of every
// regime, hand-made worlds with sparse branches, unicode and escaped ids,
// payload and unscorable worlds, under several W, K and β grids; and the
// same error for an unreadable file.
#include "model/compactcache.h"
#include "model/treejson.h"
#include "policy/policyspec.h"
#include "replay/compactreplay.h"
#include "replay/replayengine.h"
#include "replay/replayjson.h"
#include "replay/synthworld.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>

#include <sys/stat.h>

using namespace dreamrsi;

namespace {

/// The whole `dreamrsi replay --json` document of a run, and its read error.
struct Run
{
    std::string json;
    QString readError;
};

Run classic(const QStringList &paths, const PolicySpec &spec, const ReplayOptions &options)
{
    Run run;
    QList<QByteArray> entries(paths.size());
    const Result<ReplayResult> result = ReplayEngine::runFiles(
        paths, spec, options,
        [&entries](qsizetype world, const SweepResult &sweep) {
            entries[world] = ReplayJson::sweepToIndentedJson(sweep);
        });
    run.readError = result.error;
    if (result)
        run.json = ReplayJson::resultToIndentedJson(*result.value, entries);
    return run;
}

Run compact(const QStringList &paths, const PolicySpec &spec, const ReplayOptions &options, int *handedOver = nullptr)
{
    Run run;
    QList<QByteArray> entries(paths.size());
    std::atomic<int> count{0};
    const Result<ReplayResult> result = CompactReplay::runFiles(
        paths, spec, options,
        [&](qsizetype index, const SweepResult &sweep, const CompactTree &world,
            const std::vector<std::vector<int>> &revealed) {
            entries[index] = ReplayJson::sweepToIndentedJson(sweep, world, revealed);
            ++count;
        });
    run.readError = result.error;
    if (result)
        run.json = ReplayJson::resultToIndentedJson(*result.value, entries);
    if (handedOver)
        *handedOver = count.load();
    return run;
}

bool write(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

/// Worlds the synthetic generator does not make: sparse branch ids, cells
/// out of order, ids that need escaping or are not ASCII, payload, missing
/// optional fields, a world with no positive score, an empty world.
QList<QByteArray> handMadeWorlds()
{
// A quote, an escaped é and a literal 中 (moc reads raw strings poorly, so this one is plain).
#define ID_NEEDING_ESCAPES "{\"id\":\"x\\\"q\\u00e9\u4e2d\""
    return {
        R"({"format":"dreamrsi-tree/1","cells":[
            {"id":"b7a1","branch":7,"attempt":1,"seq":5,"score":3.5,"fail_class":"ok"},
            {"id":"b7a0","branch":7,"attempt":0,"seq":1,"score":1.25},
            )" ID_NEEDING_ESCAPES R"(,"branch":2,"attempt":0,"seq":0,"score":2,"program":"int main(){}","metrics":{"ms":[1,2.5]}},
            {"id":"tab\tid","branch":2,"attempt":1,"seq":3,"score":null,"error":"boom","fail_class":"env"},
            {"id":"e2","branch":2,"attempt":2,"seq":9,"score":4,"evaluated":false},
            {"id":"r0","branch":40,"attempt":0,"seq":-3,"score":-1,"valid":false,"fail_class":"correctness"},
            {"id":"r1","branch":40,"attempt":1,"seq":11,"score":0.5,"error":null,"tags":["direction:x"]}
        ],"baseline_score":1,"grid":{"branches":3,"refinements":2},"notes":{"k":[true,null]}})",
        R"({"format":"dreamrsi-tree/1","cells":[
            {"id":"a","branch":0,"attempt":0,"seq":0,"score":0},
            {"id":"b","branch":1,"attempt":0,"seq":1,"score":-2,"fail_class":"runtime"},
            {"id":"c","branch":1,"attempt":1,"seq":2}
        ]})",
        R"({"format":"dreamrsi-tree/1","cells":[]})",
        // Branch ids far apart, cells in no order.
        R"({"format":"dreamrsi-tree/1","cells":[
            {"id":"f2","branch":2000000000,"attempt":2,"seq":8,"score":9},
            {"id":"f0","branch":2000000000,"attempt":0,"seq":2,"score":3},
            {"id":"g0","branch":0,"attempt":0,"seq":7,"score":5,"fail_class":"compile"},
            {"id":"f1","branch":2000000000,"attempt":1,"seq":4,"score":2},
            {"id":"g1","branch":0,"attempt":1,"seq":1,"score":6}
        ]})",
        // A payload number the fast readings leave to the reference (1.0): the compact path falls back.
        R"({"format":"dreamrsi-tree/1","cells":[
            {"id":"z0","branch":0,"attempt":0,"seq":0,"score":1,"cost":1.0},
            {"id":"z1","branch":0,"attempt":1,"seq":1,"score":2,"fail_class":"ok"},
            {"id":"y0","branch":3,"attempt":0,"seq":2,"score":1.5,"error":"late"}
        ]})",
    };
}

} // namespace

class TestCompactReplay : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(m_cacheDir.isValid());
        // Before anything asks CompactCache where it lives (it asks once).
        qputenv("DREAMRSI_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
        qunsetenv("DREAMRSI_WORLD_CACHE");
        QCOMPARE(CompactCache::directory(), m_cacheDir.path() + QStringLiteral("/worlds"));
        int n = 0;
        for (const QString &regime : SynthWorld::regimes()) {
            for (quint64 seed = 1; seed <= 6; ++seed) {
                SynthParams p;
                p.regime = regime;
                p.seed = seed;
                p.width = 3 + int(seed * 3 % 11);
                p.depth = 2 + int(seed * 5 % 12);
                p.failRate = 0.1 * double(seed % 5);
                const QString path = m_dir.filePath(QStringLiteral("s%1.json").arg(n++, 3, 10, QLatin1Char('0')));
                QVERIFY(TreeJson::writeFile(SynthWorld::generate(p), path));
                m_paths << path;
            }
        }
        for (const QByteArray &bytes : handMadeWorlds()) {
            const QString path = m_dir.filePath(QStringLiteral("h%1.json").arg(n++, 3, 10, QLatin1Char('0')));
            QVERIFY(write(path, bytes));
            QVERIFY2(TreeJson::readFile(path).ok(), qPrintable(TreeJson::readFile(path).error.message));
            m_paths << path;
        }
    }

    void sameJsonAsTheEngine_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<int>("workers");
        QTest::addColumn<int>("rounds"); // 0: no limit
        QTest::addColumn<QList<double>>("betas");
        QTest::addColumn<int>("threads");
        const QList<double> grid{0.0, 0.25, 0.5, 0.75, 1.0};
        for (const QString &policy : {QStringLiteral("portfolio"), QStringLiteral("parallel_refine")}) {
            const QByteArray p = policy.toLatin1();
            QTest::addRow("%s W10", p.constData()) << policy << 10 << 0 << grid << 2;
            QTest::addRow("%s W1", p.constData()) << policy << 1 << 0 << grid << 1;
            QTest::addRow("%s W3 K2", p.constData()) << policy << 3 << 2 << grid << 3;
            QTest::addRow("%s W4 fine betas", p.constData())
                << policy << 4 << 0 << QList<double>{0.0, 0.1, 0.33, 0.9} << 2;
            QTest::addRow("%s W64 one beta", p.constData()) << policy << 64 << 0 << QList<double>{0.6} << 4;
        }
    }

    void sameJsonAsTheEngine()
    {
        QFETCH(QString, policy);
        QFETCH(int, workers);
        QFETCH(int, rounds);
        QFETCH(QList<double>, betas);
        QFETCH(int, threads);
        const PolicySpec spec = PolicySpec::builtin(policy);
        QVERIFY(CompactReplay::handles(spec));
        ReplayOptions options;
        options.workers = workers;
        if (rounds > 0)
            options.maxRounds = rounds;
        options.betas = betas;
        options.threads = threads;
        options.lambda = 0.07;
        const Run expected = classic(m_paths, spec, options);
        int handedOver = 0;
        const Run got = compact(m_paths, spec, options, &handedOver);
        QVERIFY2(expected.readError.isEmpty(), qPrintable(expected.readError));
        QVERIFY2(got.readError.isEmpty(), qPrintable(got.readError));
        QCOMPARE(handedOver, int(m_paths.size()));
        QVERIFY(expected.json.size() > 1000);
        if (got.json != expected.json) {
            size_t at = 0;
            while (at < got.json.size() && at < expected.json.size() && got.json[at] == expected.json[at])
                ++at;
            QFAIL(qPrintable(QStringLiteral("differ at byte %1: compact '%2' engine '%3'")
                                 .arg(at)
                                 .arg(QString::fromStdString(got.json.substr(at > 80 ? at - 80 : 0, 160)),
                                      QString::fromStdString(expected.json.substr(at > 80 ? at - 80 : 0, 160)))));
        }
    }

    void unreadableFileGivesTheSameError()
    {
        const QString broken = m_dir.filePath(QStringLiteral("zz-broken.json"));
        QVERIFY(write(broken, R"({"format":"dreamrsi-tree/1","cells":[{"id":"a","branch":0,"attempt":1,"seq":0}]})"));
        const QString missing = m_dir.filePath(QStringLiteral("zz-missing.json"));
        const PolicySpec spec = PolicySpec::builtin(QStringLiteral("portfolio"));
        for (const QString &bad : {broken, missing}) {
            QStringList paths = m_paths;
            paths.insert(7, bad);
            for (const int threads : {1, 2}) {
                ReplayOptions options;
                options.threads = threads;
                const Run expected = classic(paths, spec, options);
                const Run got = compact(paths, spec, options);
                QVERIFY(!expected.readError.isEmpty());
                QCOMPARE(got.readError, expected.readError);
                QVERIFY(got.readError.startsWith(bad));
                QVERIFY(got.json.empty());
            }
        }
    }

    void scriptsAreNotHandled()
    {
        QVERIFY(!CompactReplay::handles(PolicySpec::script(QStringLiteral("function selectBatch(s) { return []; }"),
                                                           QStringLiteral("x.js"))));
        QVERIFY(!CompactReplay::handles(PolicySpec::builtin(QStringLiteral("no_such_policy"))));
    }

    // The compact world cache (CompactCache): a settled file is cached and
    // served from there; a changed file never is; a damaged entry is
    // ignored; a file just written is not cached; replays with and without
    // the cache print the same bytes.
    void worldCacheServesOnlyUnchangedFiles()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString a = dir.filePath(QStringLiteral("a.json")), b = dir.filePath(QStringLiteral("b.json"));
        const QByteArray worldA = R"({"format":"dreamrsi-tree/1","cells":[{"id":"a0","branch":0,"attempt":0,"seq":0,"score":0.5}]})";
        const QByteArray worldB = R"({"format":"dreamrsi-tree/1","cells":[{"id":"b0","branch":4,"attempt":0,"seq":0,"score":0.25}]})";
        QVERIFY(write(a, worldA));
        QVERIFY(write(b, worldB));
        const auto expected = [](const QString &path) { return CompactTree::fromTree(*TreeJson::readFile(path).tree); };
        const auto entries = [this] {
            return QDir(CompactCache::directory()).entryList({QStringLiteral("*.cw")}, QDir::Files).size();
        };
        const qsizetype before = entries();
        // Just written: read, not cached.
        QVERIFY(*TreeJson::readCompactFile(a, true).value == expected(a));
        QCOMPARE(entries(), before);

        settle(); // the files' ctimes are now older than the settle age
        QVERIFY(*TreeJson::readCompactFile(a, false).value == expected(a));
        QCOMPARE(entries(), before); // not asked to cache
        QVERIFY(*TreeJson::readCompactFile(a, true).value == expected(a));
        QVERIFY(*TreeJson::readCompactFile(b, true).value == expected(b));
        QCOMPARE(entries(), before + 2);
        struct stat infoA, infoB;
        QVERIFY(::stat(QFile::encodeName(a).constData(), &infoA) == 0);
        QVERIFY(::stat(QFile::encodeName(b).constData(), &infoB) == 0);
        QVERIFY(*CompactCache::load(infoA) == expected(a));

        // Served from the cache: give b's entry a's tree, and b reads as a.
        CompactCache::store(infoB, expected(a));
        QVERIFY(*TreeJson::readCompactFile(b, true).value == expected(a));
        QVERIFY(*TreeJson::readCompactFile(b, false).value == expected(b));

        // b rewritten, same size and inode: its ctime moved, the entry no longer matches.
        QByteArray changed = worldB;
        changed.replace("0.25", "0.75");
        QCOMPARE(changed.size(), worldB.size());
        QVERIFY(write(b, changed));
        struct stat now;
        QVERIFY(::stat(QFile::encodeName(b).constData(), &now) == 0);
        QCOMPARE(now.st_ino, infoB.st_ino);
        QVERIFY(!CompactCache::load(now)); // the entry is of the file as it was
        const std::optional<CompactTree> reread = TreeJson::readCompactFile(b, true).value;
        QVERIFY(reread && *reread == expected(b));
        QCOMPARE(reread->best, 0.75);

        // A damaged entry is ignored (and rewritten).
        const QString entry = QDir(CompactCache::directory())
                                  .filePath(QStringLiteral("%1-%2.cw")
                                                .arg(quint64(infoA.st_dev), 0, 16)
                                                .arg(quint64(infoA.st_ino), 0, 16));
        QFile f(entry);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        QVERIFY(bytes.size() > 100);
        bytes[bytes.size() - 3] = char(bytes.at(bytes.size() - 3) ^ 0x5a);
        QVERIFY(f.seek(0) && f.write(bytes) == bytes.size());
        f.close();
        QVERIFY(!CompactCache::load(infoA));
        QVERIFY(*TreeJson::readCompactFile(a, true).value == expected(a));
        QVERIFY(*CompactCache::load(infoA) == expected(a));

        // An entry whose facts contradict each other is ignored too, checksum or not.
        CompactTree inconsistent = expected(a);
        inconsistent.best = 7.0;
        CompactCache::store(infoA, inconsistent);
        QVERIFY(!CompactCache::load(infoA));
        inconsistent = expected(a);
        inconsistent.cells[0].effective = 0.125;
        CompactCache::store(infoA, inconsistent);
        QVERIFY(!CompactCache::load(infoA));
        QVERIFY(*TreeJson::readCompactFile(a, true).value == expected(a));
    }

    void cachedReplayPrintsTheSameJson()
    {
        // The suite's worlds must have settled to be cached: the cache's clock moves on.
        settle();
        const PolicySpec spec = PolicySpec::builtin(QStringLiteral("portfolio"));
        ReplayOptions options;
        options.worldCache = true;
        const Run expected = classic(m_paths, spec, options);
        const Run first = compact(m_paths, spec, options);
        const QDir cacheDir(CompactCache::directory());
        const qsizetype cached = cacheDir.entryList({QStringLiteral("*.cw")}, QDir::Files).size();
        QVERIFY(cached >= m_paths.size()); // the one read in full (payload 1.0) as well
        const Run warm = compact(m_paths, spec, options);
        QVERIFY(first.json == expected.json);
        QVERIFY(warm.json == expected.json);
    }

private:
    /// Moves the cache's clock past the settle age instead of sleeping through it.
    void settle()
    {
        m_clockOffset += (qint64(CompactCache::SettleSeconds) * 1000 + 300) * 1000000;
        CompactCache::setClockOffset(m_clockOffset);
    }

    QTemporaryDir m_dir;
    qint64 m_clockOffset = 0; ///< how far settle() moved the cache's clock
    QTemporaryDir m_cacheDir;
    QStringList m_paths;
};

QTEST_GUILESS_MAIN(TestCompactReplay)
#include "tst_compactreplay.moc"
