// Compare and the path to the best (docs/compare.md): `dreamrsi plot compare`
// over seeds of two labels (the band recomputed from the CSV's own curves),
// over an imported OpenEvolve run and a ShinkaEvolve database, over a
// project's iterations A-B (and the Compare tab's project source), and
// `dreamrsi path` on imported runs and on our own trees; an OpenEvolve
// checkpoint as a population snapshot (by iteration found, or refused).
#include "clirunsupport.h"
#include "commands.h"
#include "pathcommand.h"
#include "runfixtures.h"

#include "import/runimport.h"
#include "model/cellpath.h"
#include "model/meanci.h"
#include "model/treejson.h"
#include "figures/qcp.h"
#include "progress/comparepage.h"
#include "progress/compareplot.h"
#include "project/comparecurves.h"
#include "store/projectfiles.h"
#include "store/projectreader.h"
#include "store/projectwriter.h"
#include "tree/inspectorwidget.h"
#include "tree/treeview.h"

#include <QApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace dreamrsi;
using namespace dreamrsi::test;

namespace {

/// One cell of a tree file in creation order: its score (none: a failed
/// attempt), cost and end time (seconds after 2026-01-01T00:00:00Z).
struct Attempt
{
    std::optional<double> score;
    double cost = 0.0;
    double endedS = 0.0;
};

/// A tree file of one branch per attempt, the costs and timings a live round writes.
QByteArray treeJson(const QList<Attempt> &attempts, bool withCost = true)
{
    QJsonArray cells;
    const QDateTime t0(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
    for (qsizetype i = 0; i < attempts.size(); ++i) {
        const Attempt &a = attempts.at(i);
        QJsonObject c{{QStringLiteral("id"), QStringLiteral("b%1a0").arg(i)},
                      {QStringLiteral("branch"), int(i)},
                      {QStringLiteral("attempt"), 0},
                      {QStringLiteral("seq"), int(i)},
                      {QStringLiteral("score"), a.score ? QJsonValue(*a.score) : QJsonValue()},
                      {QStringLiteral("fail_class"), a.score ? QStringLiteral("ok") : QStringLiteral("runtime")},
                      {QStringLiteral("timing"),
                       QJsonObject{{QStringLiteral("wall_s"), 1.0},
                                   {QStringLiteral("ended"), t0.addMSecs(qint64(a.endedS * 1000)).toString(Qt::ISODateWithMs)}}}};
        if (!a.score)
            c.insert(QStringLiteral("error"), QStringLiteral("crashed"));
        if (withCost)
            c.insert(QStringLiteral("agent"), QJsonObject{{QStringLiteral("name"), QStringLiteral("openai")}, {QStringLiteral("cost"), a.cost}});
        cells.append(c);
    }
    return QJsonDocument(QJsonObject{{QStringLiteral("format"), QStringLiteral("dreamrsi-tree/1")}, {QStringLiteral("cells"), cells}})
        .toJson();
}

/// A tree file whose branches are numbered against creation order: the cell
/// of seq i is branch n − 1 − i, so only seq gives `attempts`' order.
QByteArray reversedTreeJson(const QList<Attempt> &attempts)
{
    QJsonDocument doc = QJsonDocument::fromJson(treeJson(attempts));
    QJsonObject root = doc.object();
    QJsonArray cells = root.value(QStringLiteral("cells")).toArray();
    const int n = int(cells.size());
    for (int i = 0; i < n; ++i) {
        QJsonObject c = cells.at(i).toObject();
        c.insert(QStringLiteral("id"), QStringLiteral("b%1a0").arg(n - 1 - i));
        c.insert(QStringLiteral("branch"), n - 1 - i);
        cells.replace(i, c);
    }
    root.insert(QStringLiteral("cells"), cells);
    return QJsonDocument(root).toJson();
}

/// The CSV `--data` wrote: header then rows, split on commas (no field here has one).
QList<QStringList> readCsv(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<QStringList> rows;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (!line.trimmed().isEmpty())
            rows.append(QString::fromUtf8(line.trimmed()).split(QLatin1Char(',')));
    }
    return rows;
}

struct CsvCurves
{
    QMap<QString, QMap<QString, QList<std::pair<double, std::optional<double>>>>> curves; ///< label → source → (x, best)
    QMap<QString, QList<QStringList>> means; ///< label → its mean rows
};

CsvCurves curvesOf(const QList<QStringList> &rows)
{
    CsvCurves c;
    for (qsizetype i = 1; i < rows.size(); ++i) {
        const QStringList &r = rows.at(i);
        if (r.at(1) == QLatin1String("mean"))
            c.means[r.at(0)].append(r);
        else
            c.curves[r.at(0)][r.at(1)].append({r.at(2).toDouble(), r.at(3).isEmpty() ? std::nullopt : std::optional<double>(r.at(3).toDouble())});
    }
    return c;
}

/// A seed's best after the last cell at or before x; none before its first score.
std::optional<double> bestAt(const QList<std::pair<double, std::optional<double>>> &curve, double x)
{
    std::optional<double> best;
    for (const auto &[cx, b] : curve) {
        if (cx > x)
            break;
        best = b;
    }
    return best;
}

/// An OpenEvolve run with a fork: root ← p1 ← p2, p1 ← p3 (a fork) ← p4 (the best).
QList<QJsonObject> forkedRun()
{
    return {oeProgram(QStringLiteral("root"), QString(), 1.0, score(0.2)),
            oeProgram(QStringLiteral("p1"), QStringLiteral("root"), 2.0, score(0.4)),
            oeProgram(QStringLiteral("p2"), QStringLiteral("p1"), 3.0, score(0.3)),
            oeProgram(QStringLiteral("p3"), QStringLiteral("p1"), 4.0, score(0.5), {},
                      {{QStringLiteral("changes_description"), QStringLiteral("Try a wider grid.\nSecond line.")}}),
            oeProgram(QStringLiteral("bad"), QStringLiteral("p3"), 5.0,
                      QJsonObject{{QStringLiteral("error"), QStringLiteral("crash")}}),
            oeProgram(QStringLiteral("p4"), QStringLiteral("p3"), 6.0, score(0.9))};
}

/// The survivors of an OpenEvolve run at checkpoint_200, as OpenEvolve writes
/// them (each program's `iteration_found`): the initial program and four
/// found at iterations 12, 57, 130 and 199. c (130) was stamped before b
/// (57), so creation order (a, c, b, d) is not the order found.
QList<QJsonObject> survivors()
{
    const auto found = [](int iteration) { return QJsonObject{{QStringLiteral("iteration_found"), iteration}}; };
    return {oeProgram(QStringLiteral("root"), QString(), 1000.0, score(0.1), {}, found(0)),
            oeProgram(QStringLiteral("a"), QStringLiteral("root"), 1010.0, score(0.3), {}, found(12)),
            oeProgram(QStringLiteral("c"), QStringLiteral("a"), 1020.0, score(0.5), {}, found(130)),
            oeProgram(QStringLiteral("b"), QStringLiteral("a"), 1030.0, score(0.25), {}, found(57)),
            oeProgram(QStringLiteral("d"), QStringLiteral("c"), 1040.0, score(0.45), {}, found(199))};
}

/// The same programs as an older OpenEvolve wrote them: no `iteration_found`.
QList<QJsonObject> survivorsUnplaced()
{
    QList<QJsonObject> programs = survivors();
    for (QJsonObject &p : programs)
        p.remove(QStringLiteral("iteration_found"));
    return programs;
}

/// The names of a plot's legend items.
QStringList legendNames(QCustomPlot *plot)
{
    QStringList names;
    for (int i = 0; i < plot->legend->itemCount(); ++i) {
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(plot->legend->item(i)))
            names.append(item->plottable()->name());
    }
    return names;
}

/// A ShinkaEvolve run with costs and end times: g0 ← g1 ← g2 (best), g0 ← g3 (a fork of the root's line).
QList<ShinkaRow> shinkaRun()
{
    QList<ShinkaRow> rows{ShinkaRow(QStringLiteral("g0"), QString(), 10.0, true, 0.1),
                          ShinkaRow(QStringLiteral("g1"), QStringLiteral("g0"), 11.0, true, 0.3),
                          ShinkaRow(QStringLiteral("g2"), QStringLiteral("g1"), 12.0, true, 0.8),
                          ShinkaRow(QStringLiteral("g3"), QStringLiteral("g0"), 13.0, false, std::nullopt)};
    for (qsizetype i = 0; i < rows.size(); ++i) {
        rows[i].metadata = QJsonObject{{QStringLiteral("api_costs"), 0.25 * double(i + 1)},
                                       {QStringLiteral("sampling_seconds"), 2.0},
                                       {QStringLiteral("evaluation_seconds"), 1.0},
                                       {QStringLiteral("postprocess_finished_at"), 1.7e9 + 10.0 * double(i)}};
        rows[i].diff = QStringLiteral("--- a\n+++ b\n@@ change %1 @@\n").arg(i);
    }
    return rows;
}

} // namespace

class TestCompare : public QObject
{
    Q_OBJECT

private slots:
    void studentQuantile();
    void bandFromTheCsvsOwnCurves_data();
    void bandFromTheCsvsOwnCurves();
    void importedRunsEndAtTheirBest();
    void badCompareArguments();
    void populationSnapshotByIterationFound();
    void populationSnapshotRefusedByCalls();
    void programsFolderPointsToItsParent();
    void projectIterationsInCreationOrder();
    void pathOnAnImportedRun();
    void pathOnAShinkaRun();
    void pathOnOurTree();
    void comparePageKeepsItsSetWithTheProject();
    void comparePageWarnsOfDifferentTasksAndFreeCosts();
    void inspectorPathPage();
    void inspectorPathShowsTextAndGainsPastFailures();
};

void TestCompare::studentQuantile()
{
    QVERIFY(std::abs(studentT975(1) - 12.7062) < 1e-3);
    QVERIFY(std::abs(studentT975(2) - 4.30265) < 1e-4);
    QVERIFY(std::abs(studentT975(30) - 2.04227) < 1e-4);
    QVERIFY(std::abs(studentT975(31) - 2.03951) < 1e-4);
    QVERIFY(std::abs(studentT975(120) - 1.97993) < 1e-4);
    QVERIFY(std::abs(studentT975(100000) - 1.95997) < 1e-4);
}

void TestCompare::bandFromTheCsvsOwnCurves_data()
{
    QTest::addColumn<QString>("axis");
    QTest::newRow("calls") << QStringLiteral("calls");
    QTest::newRow("usd") << QStringLiteral("usd");
    QTest::newRow("seconds") << QStringLiteral("seconds");
}

void TestCompare::bandFromTheCsvsOwnCurves()
{
    QFETCH(QString, axis);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // Two settings of three seeds each, runs of different lengths, costs and
    // pace; seed a3 scores only from its third cell.
    const QMap<QString, QList<Attempt>> seeds{
        {QStringLiteral("a1"), {{0.1, 0.5, 2}, {0.4, 0.5, 4}, {std::nullopt, 0.2, 5}, {0.6, 0.5, 8}, {0.5, 0.1, 9}}},
        {QStringLiteral("a2"), {{0.3, 0.3, 1}, {0.2, 0.3, 3}, {0.7, 0.3, 6}, {0.7, 0.3, 7}}},
        {QStringLiteral("a3"), {{std::nullopt, 0.2, 2}, {std::nullopt, 0.2, 3}, {0.2, 0.2, 5}, {0.5, 0.4, 6}, {0.9, 0.4, 10}, {0.95, 1, 12}}},
        {QStringLiteral("b1"), {{0.2, 1.0, 3}, {0.3, 1.0, 6}, {0.35, 1.0, 9}}},
        {QStringLiteral("b2"), {{0.1, 0.7, 2}, {0.6, 0.7, 4}, {0.6, 0.7, 6}, {0.8, 0.7, 8}}},
        {QStringLiteral("b3"), {{0.4, 0.9, 5}, {0.45, 0.9, 7}, {0.5, 0.9, 11}}}};
    QStringList args{QStringLiteral("compare")};
    for (auto it = seeds.cbegin(); it != seeds.cend(); ++it) {
        const QString path = dir.filePath(it.key() + QStringLiteral(".json"));
        QVERIFY(writeFile(path, treeJson(it.value())));
        args << QStringLiteral("--world") << path << QStringLiteral("--label")
             << (it.key().startsWith(QLatin1Char('a')) ? QStringLiteral("setting A") : QStringLiteral("setting B"));
    }
    const QString csv = dir.filePath(QStringLiteral("compare.csv"));
    args << QStringLiteral("--x") << axis << QStringLiteral("--out") << dir.filePath(QStringLiteral("compare.pdf"))
         << QStringLiteral("--data") << csv << QStringLiteral("--width-mm") << QStringLiteral("85") << QStringLiteral("--height-mm")
         << QStringLiteral("60");
    const CommandRun run = runCommand(runPlotCommand, args);
    QVERIFY2(run.rc == 0, qPrintable(run.err));
    QVERIFY(QFileInfo(dir.filePath(QStringLiteral("compare.pdf"))).size() > 1000);
    QVERIFY2(run.out.contains(QStringLiteral(".tex")), qPrintable(run.out)); // the caption table beside it

    const QList<QStringList> rows = readCsv(csv);
    QCOMPARE(rows.value(0), (QStringList{QStringLiteral("label"), QStringLiteral("source"), QStringLiteral("x"), QStringLiteral("best"),
                                         QStringLiteral("lo"), QStringLiteral("hi"), QStringLiteral("population_snapshot")}));
    // Tree files are histories: no row is marked a population snapshot.
    for (qsizetype i = 1; i < rows.size(); ++i)
        QVERIFY2(rows.at(i).value(6).isEmpty(), qPrintable(rows.at(i).join(QLatin1Char(','))));
    const CsvCurves c = curvesOf(rows);
    // One row per cell of every source, in creation order, best empty until the first ok score.
    QCOMPARE(c.curves.value(QStringLiteral("setting A")).size(), 3);
    QCOMPARE(c.curves.value(QStringLiteral("setting B")).size(), 3);
    for (auto it = seeds.cbegin(); it != seeds.cend(); ++it) {
        const QString label = it.key().startsWith(QLatin1Char('a')) ? QStringLiteral("setting A") : QStringLiteral("setting B");
        const auto curve = c.curves.value(label).value(it.key());
        QCOMPARE(curve.size(), it.value().size());
        std::optional<double> best;
        double usd = 0.0;
        for (qsizetype i = 0; i < curve.size(); ++i) {
            const Attempt &a = it.value().at(i);
            if (a.score && (!best || *a.score > *best))
                best = a.score;
            usd += a.cost;
            QCOMPARE(curve.at(i).second.has_value(), best.has_value());
            if (best)
                QVERIFY(std::abs(*curve.at(i).second - *best) < 1e-12);
            if (axis == QLatin1String("calls"))
                QCOMPARE(curve.at(i).first, double(i + 1));
            else if (axis == QLatin1String("usd"))
                QVERIFY(std::abs(curve.at(i).first - usd) < 1e-9);
            else // every attempt took 1 s: the first started 1 s before it ended
                QVERIFY(std::abs(curve.at(i).first - (a.endedS - (it.value().first().endedS - 1.0))) < 1e-6);
        }
    }
    // The band, recomputed from the curves: at each x of a seed where all
    // seeds have a best, the mean and mean ± t(0.975, 2) s / √3.
    const double t2 = 4.302652729749464;
    for (const QString &label : {QStringLiteral("setting A"), QStringLiteral("setting B")}) {
        const auto perSeed = c.curves.value(label);
        const QList<QStringList> means = c.means.value(label);
        QVERIFY(!means.isEmpty());
        double from = 0.0, to = std::numeric_limits<double>::infinity();
        QList<double> xs;
        for (const auto &curve : perSeed) {
            for (const auto &[x, b] : curve)
                xs.append(x);
            for (const auto &[x, b] : curve) {
                if (b) {
                    from = std::max(from, x);
                    break;
                }
            }
            to = std::min(to, curve.last().first);
        }
        std::sort(xs.begin(), xs.end());
        xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
        QList<double> expectedXs;
        for (const double x : std::as_const(xs)) {
            if (x >= from && x <= to)
                expectedXs.append(x);
        }
        QCOMPARE(means.size(), expectedXs.size());
        for (qsizetype i = 0; i < means.size(); ++i) {
            const double x = means.at(i).at(2).toDouble();
            QVERIFY(std::abs(x - expectedXs.at(i)) < 1e-9);
            QList<double> values;
            for (const auto &curve : perSeed)
                values.append(*bestAt(curve, x));
            QCOMPARE(values.size(), 3);
            const double m = (values[0] + values[1] + values[2]) / 3.0;
            double ss = 0.0;
            for (const double v : values)
                ss += (v - m) * (v - m);
            const double half = t2 * std::sqrt(ss / 2.0) / std::sqrt(3.0);
            QVERIFY2(std::abs(means.at(i).at(3).toDouble() - m) < 1e-9, qPrintable(means.at(i).join(QLatin1Char(','))));
            QVERIFY2(std::abs(means.at(i).at(4).toDouble() - (m - half)) < 1e-9,
                     qPrintable(QStringLiteral("%1 expected %2").arg(means.at(i).join(QLatin1Char(','))).arg(m - half)));
            QVERIFY(std::abs(means.at(i).at(5).toDouble() - (m + half)) < 1e-9);
        }
    }
    // The legend counts the seeds.
    QVERIFY2(run.out.contains(QStringLiteral("setting A")), qPrintable(run.out));
}

void TestCompare::importedRunsEndAtTheirBest()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString oe = dir.filePath(QStringLiteral("openevolve_output/checkpoints/checkpoint_6"));
    QVERIFY(writeOeFolder(oe, forkedRun()));
    const QString shinka = dir.filePath(QStringLiteral("evolution_db.sqlite"));
    QVERIFY(writeShinkaDb(shinka, shinkaRun()));
    const Result<RunImport::Imported> oeTree = RunImport::read(oe);
    const Result<RunImport::Imported> shinkaTree = RunImport::read(shinka);
    QVERIFY2(oeTree && shinkaTree, qPrintable(oeTree ? shinkaTree.error : oeTree.error));
    const QString oeName = RunImport::worldName(oe);
    const QString shinkaName = RunImport::worldName(shinka);

    // Calls: both curves end at their run's best, one row per cell in the import's order
    // (the checkpoint is a population snapshot drawn by iteration_found, here that same order).
    const QString csv = dir.filePath(QStringLiteral("calls.csv"));
    CommandRun run = runCommand(runPlotCommand, {QStringLiteral("compare"), QStringLiteral("--run"), oe, QStringLiteral("--run"), shinka,
                                                 QStringLiteral("--label"), QStringLiteral("shinka"), QStringLiteral("--x"), QStringLiteral("calls"),
                                                 QStringLiteral("--out"), dir.filePath(QStringLiteral("calls.svg")), QStringLiteral("--data"), csv});
    QVERIFY2(run.rc == 0, qPrintable(run.err));
    CsvCurves c = curvesOf(readCsv(csv));
    const auto oeCurve = c.curves.value(oeName).value(oeName);
    const auto shinkaCurve = c.curves.value(QStringLiteral("shinka")).value(shinkaName);
    QCOMPARE(oeCurve.size(), oeTree.value->tree.cellCount());
    QCOMPARE(shinkaCurve.size(), shinkaTree.value->tree.cellCount());
    QCOMPARE(*oeCurve.last().second, 0.9);
    QCOMPARE(*oeCurve.last().second, *oeTree.value->tree.bestScore());
    QCOMPARE(*shinkaCurve.last().second, 0.8);
    QCOMPARE(*shinkaCurve.last().second, *shinkaTree.value->tree.bestScore());
    // The initial program is no cell: the first cell is p1 (0.4).
    QCOMPARE(*oeCurve.first().second, 0.4);
    // One seed per label: its mean rows carry no band.
    QVERIFY(!c.means.value(QStringLiteral("shinka")).isEmpty());
    QVERIFY(c.means.value(QStringLiteral("shinka")).first().at(4).isEmpty());

    // USD: OpenEvolve records no cost, so it gets no curve and says so.
    const QString usd = dir.filePath(QStringLiteral("usd.csv"));
    run = runCommand(runPlotCommand, {QStringLiteral("compare"), QStringLiteral("--run"), oe, QStringLiteral("--run"), shinka,
                                      QStringLiteral("--x"), QStringLiteral("usd"), QStringLiteral("--out"), dir.filePath(QStringLiteral("usd.png")),
                                      QStringLiteral("--data"), usd});
    QVERIFY2(run.rc == 0, qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("%1: no cost recorded, no USD curve").arg(oeName)), qPrintable(run.err));
    c = curvesOf(readCsv(usd));
    QVERIFY(!c.curves.contains(oeName));
    const auto shinkaUsd = c.curves.value(shinkaName).value(shinkaName);
    QCOMPARE(shinkaUsd.size(), 3); // g1, g2, g3 (g0 is the initial program)
    QVERIFY(std::abs(shinkaUsd.last().first - (0.5 + 0.75 + 1.0)) < 1e-9);
    QCOMPARE(*shinkaUsd.last().second, 0.8);
    // The table beside the figure says which source was not drawn.
    QVERIFY2(run.out.contains(QStringLiteral("not drawn")), qPrintable(run.out));

    // Time: the Shinka run's end times; OpenEvolve keeps none.
    run = runCommand(runPlotCommand, {QStringLiteral("compare"), QStringLiteral("--run"), shinka, QStringLiteral("--run"), oe,
                                      QStringLiteral("--x"), QStringLiteral("seconds"), QStringLiteral("--out"), dir.filePath(QStringLiteral("time.png"))});
    QVERIFY2(run.rc == 0, qPrintable(run.err));
    QVERIFY(run.err.contains(QStringLiteral("%1: no timestamps recorded, no time curve").arg(oeName)));

    // Nothing to draw at all is an error, not an empty figure.
    run = runCommand(runPlotCommand, {QStringLiteral("compare"), QStringLiteral("--run"), oe, QStringLiteral("--x"), QStringLiteral("usd"),
                                      QStringLiteral("--out"), dir.filePath(QStringLiteral("none.png"))});
    QCOMPARE(run.rc, 1);
    QVERIFY(run.err.contains(QStringLiteral("no source recorded the usd axis")));
}

void TestCompare::badCompareArguments()
{
    QTemporaryDir dir;
    const QString tree = dir.filePath(QStringLiteral("t.json"));
    QVERIFY(writeFile(tree, treeJson({{0.5, 0.1, 1}})));
    const QString out = dir.filePath(QStringLiteral("f.pdf"));
    const auto rejected = [&](const QStringList &args, const QString &said) {
        const CommandRun r = runCommand(runPlotCommand, args);
        if (r.rc != 2 || !r.err.contains(said))
            qWarning() << args << r.rc << r.err;
        return r.rc == 2 && r.err.contains(said);
    };
    QVERIFY(rejected({QStringLiteral("compare"), QStringLiteral("--label"), QStringLiteral("A"), QStringLiteral("--world"), tree,
                      QStringLiteral("--x"), QStringLiteral("calls"), QStringLiteral("--out"), out},
                     QStringLiteral("names the source before it")));
    QVERIFY(rejected({QStringLiteral("compare"), QStringLiteral("--world"), tree, QStringLiteral("--x"), QStringLiteral("tokens"),
                      QStringLiteral("--out"), out},
                     QStringLiteral("--x takes calls, usd or seconds")));
    QVERIFY(rejected({QStringLiteral("compare"), QStringLiteral("--world"), tree, QStringLiteral("--iterations"), QStringLiteral("1-2"),
                      QStringLiteral("--x"), QStringLiteral("calls"), QStringLiteral("--out"), out},
                     QStringLiteral("goes once after a --project")));
    QVERIFY(rejected({QStringLiteral("compare"), QStringLiteral("--world"), tree, QStringLiteral("--out"), out},
                     QStringLiteral("compare needs sources")));
    QVERIFY(rejected({QStringLiteral("progress"), QStringLiteral("--project"), tree, QStringLiteral("--x"), QStringLiteral("calls"),
                      QStringLiteral("--out"), out},
                     QStringLiteral("--x goes with compare alone")));
    // A metric no cell has is said, not drawn as an empty curve.
    const CommandRun r = runCommand(runPlotCommand, {QStringLiteral("compare"), QStringLiteral("--world"), tree, QStringLiteral("--x"),
                                                     QStringLiteral("calls"), QStringLiteral("--score"), QStringLiteral("speed"),
                                                     QStringLiteral("--out"), out});
    QCOMPARE(r.rc, 1);
    QVERIFY2(r.err.contains(QStringLiteral("no cell has a numeric metric \"speed\"")), qPrintable(r.err));
}

void TestCompare::populationSnapshotByIterationFound()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString checkpoint = dir.filePath(QStringLiteral("openevolve_output/checkpoints/checkpoint_200"));
    QVERIFY(writeOeFolder(checkpoint, survivors()));
    const QString name = RunImport::worldName(checkpoint);
    QCOMPARE(name, QStringLiteral("checkpoints-checkpoint_200"));

    const QString csv = dir.filePath(QStringLiteral("snapshot.csv"));
    const CommandRun run = runCommand(runPlotCommand, {QStringLiteral("compare"), QStringLiteral("--run"), checkpoint, QStringLiteral("--x"),
                                                       QStringLiteral("calls"), QStringLiteral("--out"), dir.filePath(QStringLiteral("s.svg")),
                                                       QStringLiteral("--data"), csv});
    QVERIFY2(run.rc == 0, qPrintable(run.err));
    // stderr says it once: how many survive, of which iterations, and the axis.
    QCOMPARE(run.err.count(QStringLiteral("population snapshot")), 1);
    QVERIFY2(run.err.contains(QStringLiteral("note: %1: a population snapshot: %2 holds the 5 programs that survived iterations 0-200, "
                                             "not every program the run made; drawn against the iteration each was found")
                                  .arg(name, QDir::cleanPath(checkpoint))),
             qPrintable(run.err));
    // The caption table names it a snapshot.
    QVERIFY2(run.out.contains(QStringLiteral("%1 (population snapshot: 5 survivors of iterations 0-200, by iteration found)").arg(name)),
             qPrintable(run.out));

    // The CSV: x is the iteration found, the cells in that order (b, found at
    // 57, before c at 130, though c was made first); each row says snapshot.
    const QList<QStringList> rows = readCsv(csv);
    QCOMPARE(rows.value(0).value(6), QStringLiteral("population_snapshot"));
    QList<QStringList> cells;
    QList<QStringList> means;
    for (qsizetype i = 1; i < rows.size(); ++i)
        (rows.at(i).at(1) == QLatin1String("mean") ? means : cells).append(rows.at(i));
    const QList<std::pair<double, double>> expected{{12, 0.3}, {57, 0.3}, {130, 0.5}, {199, 0.5}};
    QCOMPARE(cells.size(), expected.size());
    for (qsizetype i = 0; i < cells.size(); ++i) {
        QCOMPARE(cells.at(i).at(0), name);
        QCOMPARE(cells.at(i).at(2).toDouble(), expected.at(i).first);
        QCOMPARE(cells.at(i).at(3).toDouble(), expected.at(i).second);
        QCOMPARE(cells.at(i).at(6), QStringLiteral("5 survivors of iterations 0-200"));
    }
    QVERIFY(!means.isEmpty());
    QCOMPARE(means.first().at(6), QStringLiteral("1 of 1 seeds"));

    // The figure: the legend and the axis say what is drawn.
    Result<CompareSource> source = CompareCurves::read(CompareSourceSpec{CompareSourceSpec::Kind::Run, checkpoint, std::nullopt, QString()});
    QVERIFY2(source, qPrintable(source.error));
    QVERIFY(source.value->snapshot);
    QCOMPARE(source.value->snapshot->programs, qint64(5));
    QCOMPARE(source.value->snapshot->lastIteration, qint64(200));
    QVERIFY(source.value->snapshot->history.isEmpty());
    const CompareResult result = CompareCurves::compare({*source.value}, CompareAxis::Calls);
    QCustomPlot plot;
    ComparePlot::populate(&plot, result, false);
    QCOMPARE(legendNames(&plot), QStringList{QStringLiteral("%1 (population snapshot, by iteration found)").arg(name)});
    QCOMPARE(plot.xAxis->label(), QStringLiteral("Iteration found (population snapshot)"));
    // Against cost it is left out as OpenEvolve keeps none; the snapshot is not the reason.
    const CompareResult usd = CompareCurves::compare({*source.value}, CompareAxis::Usd);
    QVERIFY(usd.curves.isEmpty());
    QVERIFY(usd.refusedSnapshots().isEmpty());

    // With a history beside it: the axis says both.
    const QString tree = dir.filePath(QStringLiteral("t.json"));
    QVERIFY(writeFile(tree, treeJson({{0.2, 0.1, 1}, {0.6, 0.1, 2}})));
    Result<CompareSource> ours = CompareCurves::read(CompareSourceSpec{CompareSourceSpec::Kind::Tree, tree, std::nullopt, QString()});
    QVERIFY(ours);
    ComparePlot::populate(&plot, CompareCurves::compare({*ours.value, *source.value}, CompareAxis::Calls), false);
    QCOMPARE(plot.xAxis->label(), QStringLiteral("Cumulative agent calls; iteration found for a snapshot"));
    QCOMPARE(legendNames(&plot), (QStringList{QStringLiteral("t"), QStringLiteral("%1 (population snapshot, by iteration found)").arg(name)}));

    // A folder written with a trailing slash is the same checkpoint.
    const Result<RunImport::Imported> slashed = RunImport::read(checkpoint + QLatin1Char('/'));
    QVERIFY(slashed && slashed.value->snapshot);
    QCOMPARE(RunImport::worldName(checkpoint + QLatin1Char('/')), name);

    // The Compare tab: the same legend, and its notes say it.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("dreamrsi-tests-compare"));
    QSettings().remove(QStringLiteral("compare"));
    ComparePage page;
    page.setProject(dir.filePath(QStringLiteral("p.dreamrsi")));
    page.addPaths({checkpoint});
    QTRY_VERIFY(!page.isReading());
    QCOMPARE(page.result().curves.size(), 1);
    QVERIFY(page.result().curves.first().snapshot);
    const QString pageName = page.result().curves.first().name;
    QCOMPARE(legendNames(page.plot()), QStringList{QStringLiteral("%1 (population snapshot, by iteration found)").arg(pageName)});
    QVERIFY2(page.notesText().contains(QStringLiteral("holds the 5 programs that survived iterations 0-200")), qPrintable(page.notesText()));
    QCOMPARE(page.figureData().rows.first().at(6), QStringLiteral("5 survivors of iterations 0-200"));
    page.removeSource(0);
}

void TestCompare::populationSnapshotRefusedByCalls()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // An older OpenEvolve: no iteration_found; the run's db/ holds every program.
    const QString out = dir.filePath(QStringLiteral("openevolve_output"));
    const QString checkpoint = out + QStringLiteral("/checkpoints/checkpoint_200");
    QVERIFY(writeOeFolder(checkpoint, survivorsUnplaced()));
    const QString db = out + QStringLiteral("/db");
    QList<QJsonObject> every = survivorsUnplaced();
    every.append(oeProgram(QStringLiteral("e"), QStringLiteral("b"), 1035.0, score(0.2)));
    QVERIFY(writeOeFolder(db, every));
    const QString figure = dir.filePath(QStringLiteral("refused.svg"));
    CommandRun run = runCommand(runPlotCommand, {QStringLiteral("compare"), QStringLiteral("--run"), checkpoint, QStringLiteral("--x"),
                                                 QStringLiteral("calls"), QStringLiteral("--out"), figure});
    QCOMPARE(run.rc, 1);
    QVERIFY2(run.err.contains(QStringLiteral("a population snapshot: %1 holds the 5 programs that survived iterations 0-200")
                                  .arg(QDir::cleanPath(checkpoint))),
             qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("not every program records the iteration it was found (iteration_found)")), qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("the run's full history, every program, is in %1; give --run %1").arg(db)), qPrintable(run.err));
    QVERIFY(!QFileInfo::exists(figure));

    // The db/ it names is drawn by calls as a history: six cells, unmarked.
    const QString csv = dir.filePath(QStringLiteral("db.csv"));
    run = runCommand(runPlotCommand, {QStringLiteral("compare"), QStringLiteral("--run"), db, QStringLiteral("--x"), QStringLiteral("calls"),
                                      QStringLiteral("--out"), figure, QStringLiteral("--data"), csv});
    QVERIFY2(run.rc == 0, qPrintable(run.err));
    QVERIFY2(!run.err.contains(QStringLiteral("population snapshot")), qPrintable(run.err));
    const QList<QStringList> rows = readCsv(csv);
    const CsvCurves c = curvesOf(rows);
    const auto history = c.curves.value(RunImport::worldName(db)).value(RunImport::worldName(db));
    QCOMPARE(history.size(), 5); // a, c, b, e, d: the initial program is no cell
    for (qsizetype i = 0; i < history.size(); ++i)
        QCOMPARE(history.at(i).first, double(i + 1));
    for (qsizetype i = 1; i < rows.size(); ++i)
        QVERIFY(rows.at(i).value(6).isEmpty());

    // Without a db/ beside it, the message says where it would be.
    QVERIFY(QDir(db).removeRecursively());
    run = runCommand(runPlotCommand, {QStringLiteral("compare"), QStringLiteral("--run"), checkpoint, QStringLiteral("--x"),
                                      QStringLiteral("calls"), QStringLiteral("--out"), figure});
    QCOMPARE(run.rc, 1);
    QVERIFY2(run.err.contains(QStringLiteral("no db/ with the run's full history beside it (none at %1;").arg(db)), qPrintable(run.err));
    QVERIFY(!run.err.contains(QStringLiteral("give --run")));

    // OpenEvolve's default iteration_found, 0 on every program, places nothing either.
    const QString zeros = dir.filePath(QStringLiteral("zeros/checkpoint_9"));
    QList<QJsonObject> zeroed = survivors();
    for (QJsonObject &p : zeroed)
        p.insert(QStringLiteral("iteration_found"), 0);
    QVERIFY(writeOeFolder(zeros, zeroed));
    run = runCommand(runPlotCommand, {QStringLiteral("compare"), QStringLiteral("--run"), zeros, QStringLiteral("--x"),
                                      QStringLiteral("calls"), QStringLiteral("--out"), figure});
    QCOMPARE(run.rc, 1);
    QVERIFY2(run.err.contains(QStringLiteral("survived iterations 0-9")), qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("none at %1").arg(dir.filePath(QStringLiteral("zeros/db")))), qPrintable(run.err));

    // The Compare tab leaves it out and says why, in its notes and legend.
    QVERIFY(writeOeFolder(db, every));
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("dreamrsi-tests-compare"));
    QSettings().remove(QStringLiteral("compare"));
    ComparePage page;
    page.setProject(dir.filePath(QStringLiteral("p.dreamrsi")));
    page.addPaths({checkpoint});
    QTRY_VERIFY(!page.isReading());
    QVERIFY(page.result().curves.isEmpty());
    QCOMPARE(page.result().refusedSnapshots().size(), 1);
    QVERIFY2(page.notesText().contains(QStringLiteral("not drawn by calls")), qPrintable(page.notesText()));
    QVERIFY2(page.notesText().contains(QStringLiteral("Add %1 instead").arg(db)), qPrintable(page.notesText()));
    const QString pageName = page.result().groups.first().unrecorded.first().name;
    QCOMPARE(legendNames(page.plot()), QStringList{QStringLiteral("%1: population snapshot, no iteration found").arg(pageName)});
    page.removeSource(0);
}

void TestCompare::programsFolderPointsToItsParent()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("openevolve_output/db"));
    QVERIFY(writeOeFolder(db, survivors()));
    const CommandRun run = runCommand(runPlotCommand, {QStringLiteral("compare"), QStringLiteral("--run"), db + QStringLiteral("/programs/"),
                                                       QStringLiteral("--x"), QStringLiteral("calls"), QStringLiteral("--out"),
                                                       dir.filePath(QStringLiteral("f.svg"))});
    QCOMPARE(run.rc, 1);
    QVERIFY2(run.err.contains(QStringLiteral("not an OpenEvolve run but the programs/ folder inside one; give the folder above it, "
                                             "%1 (the run's db/ folder, every program of the run)")
                                  .arg(db)),
             qPrintable(run.err));
    // A checkpoint's programs/ points to the checkpoint.
    const QString checkpoint = dir.filePath(QStringLiteral("openevolve_output/checkpoints/checkpoint_3"));
    QVERIFY(writeOeFolder(checkpoint, survivors()));
    const Result<RunImport::Imported> r = RunImport::read(checkpoint + QStringLiteral("/programs"));
    QVERIFY(!r);
    QVERIFY2(r.error.contains(QStringLiteral("give the folder above it, %1 (a checkpoint").arg(checkpoint)), qPrintable(r.error));
}

void TestCompare::projectIterationsInCreationOrder()
{
    // A project of four iterations; iterations 2-3 are compared: their cells
    // one after another, each iteration's in seq order, the others left out.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("dreamrsi-tests-compare"));
    QSettings().remove(QStringLiteral("compare"));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // Costs are powers of two: each cumulative cost names the cells before it.
    const QList<QList<Attempt>> iterations{
        {{0.9, 1.0, 1}, {0.95, 1.0, 2}},                                             // 1: left out, better
        {{0.2, 0.01, 1}, {std::nullopt, 0.02, 2}, {0.5, 0.04, 3}, {0.4, 0.08, 4}}, // 2
        {{0.3, 0.16, 1}, {0.7, 0.32, 2}, {0.6, 0.64, 3}},                           // 3
        {{0.99, 2.0, 1}}};                                                          // 4: left out, better
    QStringList files;
    for (qsizetype i = 0; i < iterations.size(); ++i) {
        files.append(dir.filePath(QStringLiteral("it%1.json").arg(i + 1)));
        QVERIFY(writeFile(files.last(), reversedTreeJson(iterations.at(i))));
    }
    const QString project = dir.filePath(QStringLiteral("p.dreamrsi"));
    {
        auto writer = ProjectWriter::create(project, ProjectInfo{});
        QVERIFY2(writer.ok(), qPrintable(writer.error));
        StoreResult<QList<IterationId>> ids = ProjectFiles::importTreeFiles(**writer.value, files);
        QVERIFY2(ids.ok(), qPrintable(ids.error));
        QCOMPARE(*ids.value, (QList<IterationId>{1, 2, 3, 4}));
    }
    // The expected curve, from the attempts as written: iterations 2 then 3.
    QList<Attempt> chosen = iterations.at(1) + iterations.at(2);
    QList<double> calls, usd;
    QList<std::optional<double>> best;
    double cost = 0.0;
    for (qsizetype i = 0; i < chosen.size(); ++i) {
        cost += chosen.at(i).cost;
        calls.append(double(i + 1));
        usd.append(cost);
        std::optional<double> b = best.isEmpty() ? std::nullopt : best.last();
        if (chosen.at(i).score && (!b || *chosen.at(i).score > *b))
            b = chosen.at(i).score;
        best.append(b);
    }
    // The best score of those iterations' cells, as the project holds them.
    double storedBest = -1.0;
    {
        auto reader = ProjectFiles::openReader(project);
        QVERIFY2(reader.ok(), qPrintable(reader.error));
        for (const IterationId id : {IterationId(2), IterationId(3)}) {
            StoreResult<IterationData> data = (*reader.value)->iterationData(id);
            QVERIFY2(data.ok(), qPrintable(data.error));
            for (const Cell &c : data.value->cells)
                storedBest = c.score ? std::max(storedBest, *c.score) : storedBest;
        }
    }
    QCOMPARE(storedBest, 0.7);
    QCOMPARE(*best.last(), storedBest);

    for (const QString &axis : {QStringLiteral("calls"), QStringLiteral("usd")}) {
        const QString csv = dir.filePath(QStringLiteral("compare-%1.csv").arg(axis));
        const CommandRun run = runCommand(runPlotCommand, {QStringLiteral("compare"), QStringLiteral("--project"), project,
                                                           QStringLiteral("--iterations"), QStringLiteral("2-3"), QStringLiteral("--x"),
                                                           axis, QStringLiteral("--out"), dir.filePath(QStringLiteral("compare.pdf")),
                                                           QStringLiteral("--data"), csv});
        QVERIFY2(run.rc == 0, qPrintable(run.err));
        const CsvCurves c = curvesOf(readCsv(csv));
        QCOMPARE(c.curves.size(), 1);
        const auto &sources = c.curves.first();
        QCOMPARE(sources.size(), 1);
        QVERIFY2(sources.firstKey().contains(QStringLiteral("[2-3]")), qPrintable(sources.firstKey()));
        // One row per cell of iterations 2 and 3 only, in creation order.
        const auto curve = sources.first();
        QCOMPARE(curve.size(), chosen.size());
        for (qsizetype i = 0; i < curve.size(); ++i) {
            const double x = axis == QLatin1String("calls") ? calls.at(i) : usd.at(i);
            QVERIFY2(std::abs(curve.at(i).first - x) < 1e-9, qPrintable(QStringLiteral("%1: cell %2 at x %3, expected %4")
                                                                            .arg(axis).arg(i).arg(curve.at(i).first).arg(x)));
            QCOMPARE(curve.at(i).second.has_value(), best.at(i).has_value());
            if (best.at(i))
                QCOMPARE(*curve.at(i).second, *best.at(i));
        }
        QCOMPARE(*curve.last().second, storedBest);
    }
    // An id range the project does not have is an error naming it.
    const CommandRun none = runCommand(runPlotCommand, {QStringLiteral("compare"), QStringLiteral("--project"), project,
                                                        QStringLiteral("--iterations"), QStringLiteral("7-9"), QStringLiteral("--x"),
                                                        QStringLiteral("calls"), QStringLiteral("--out"),
                                                        dir.filePath(QStringLiteral("none.pdf"))});
    QVERIFY(none.rc != 0);
    QVERIFY2(none.err.contains(QStringLiteral("no iteration with an id from 7 to 9")), qPrintable(none.err));

    // The Compare tab's project source: all iterations, then 2-3 typed in its row.
    ComparePage page;
    page.setProject(project);
    page.addPaths({project});
    QCOMPARE(page.sources().size(), 1);
    QCOMPARE(page.sources().first().kind, CompareSourceSpec::Kind::Project);
    QTRY_VERIFY(!page.isReading());
    QCOMPARE(page.result().curves.size(), 1);
    QCOMPARE(page.result().curves.first().points.size(), 10);
    QCOMPARE(*page.result().curves.first().best, 0.99);
    page.sourceTable()->item(0, 3)->setText(QStringLiteral("2-3"));
    QCOMPARE(page.sources().first().iterations, (std::pair<IterationId, IterationId>{2, 3}));
    QTRY_VERIFY(!page.isReading());
    QCOMPARE(page.result().curves.size(), 1);
    const QList<ComparePoint> &points = page.result().curves.first().points;
    QCOMPARE(points.size(), chosen.size());
    for (qsizetype i = 0; i < points.size(); ++i) {
        QCOMPARE(points.at(i).x, calls.at(i));
        QCOMPARE(points.at(i).best.has_value(), best.at(i).has_value());
        if (best.at(i))
            QCOMPARE(*points.at(i).best, *best.at(i));
    }
    QCOMPARE(*page.result().curves.first().best, storedBest);
    // The data it exports is the command's CSV.
    const QList<QStringList> written = readCsv(dir.filePath(QStringLiteral("compare-calls.csv")));
    QCOMPARE(page.figureData().header, written.first());
    QCOMPARE(page.figureData().rows, written.mid(1));
}

void TestCompare::pathOnAnImportedRun()
{
    QTemporaryDir dir;
    const QString oe = dir.filePath(QStringLiteral("run/checkpoints/checkpoint_6"));
    QVERIFY(writeOeFolder(oe, forkedRun()));
    const Result<RunImport::Imported> imported = RunImport::read(oe);
    QVERIFY(imported);
    const DiscoveryTree &tree = imported.value->tree;
    QVERIFY(tree.meta().approximate); // p3 is a fork of p1

    const CommandRun run = runCommand(runPathCommand, {oe, QStringLiteral("--format"), QStringLiteral("json")});
    QVERIFY2(run.rc == 0, qPrintable(run.err));
    const QJsonArray path = QJsonDocument::fromJson(run.out.toUtf8()).object().value(QStringLiteral("path")).toArray();
    QCOMPARE(path.size(), 3); // p1, p3, p4: root is the initial program, no step
    QStringList programs;
    QString previous = QStringLiteral("root"); // the path starts after the initial program
    for (const QJsonValue &v : path) {
        const QJsonObject step = v.toObject();
        QCOMPARE(step.keys(), (QStringList{QStringLiteral("gain"), QStringLiteral("id"), QStringLiteral("score")}));
        const int cell = tree.indexOfId(step.value(QStringLiteral("id")).toString());
        QVERIFY(cell >= 0);
        const QJsonObject origin = tree.cells().at(cell).payload.value(QStringLiteral("origin")).toObject();
        const QString parent = origin.value(QStringLiteral("real_parent_id")).toString(origin.value(QStringLiteral("parent_id")).toString());
        QCOMPARE(parent, previous);
        previous = origin.value(QStringLiteral("id")).toString();
        programs.append(previous);
    }
    QCOMPARE(programs, (QStringList{QStringLiteral("p1"), QStringLiteral("p3"), QStringLiteral("p4")}));
    // It ends at the best cell; the gains are over the real parents (0.2 the initial program's score).
    QCOMPARE(tree.indexOfId(path.last().toObject().value(QStringLiteral("id")).toString()), tree.bestCellIndex());
    const QList<double> gains{0.2, 0.1, 0.4};
    for (qsizetype i = 0; i < path.size(); ++i)
        QVERIFY(std::abs(path.at(i).toObject().value(QStringLiteral("gain")).toDouble() - gains.at(i)) < 1e-12);

    // Markdown: a table of the steps with the run's program ids, then each
    // step's proposal and its diff to its real parent.
    const CommandRun md = runCommand(runPathCommand, {oe});
    QVERIFY2(md.rc == 0, qPrintable(md.err));
    QVERIFY(md.out.startsWith(QStringLiteral("# Path to ")));
    QVERIFY(md.out.contains(QStringLiteral("| 2 | %1 | p3 | 0.5 | +0.1 | Try a wider grid. |")
                                .arg(tree.cells().at(tree.indexOfId(path.at(1).toObject().value(QStringLiteral("id")).toString())).id)));
    QVERIFY(md.out.contains(QStringLiteral("> Second line.")));
    QVERIFY(md.out.contains(QStringLiteral("```diff\n--- initial program\n")));
    QVERIFY(md.out.contains(QStringLiteral("\n-# program p3\n")));
    QVERIFY(md.out.contains(QStringLiteral("\n+# program p4\n")));

    // --cell: the path to a cell on the other line (p2, under p1).
    const int p2 = [&] {
        for (int i = 0; i < tree.cellCount(); ++i) {
            if (tree.cells().at(i).payload.value(QStringLiteral("origin")).toObject().value(QStringLiteral("id")).toString() == QLatin1String("p2"))
                return i;
        }
        return -1;
    }();
    const CommandRun other = runCommand(runPathCommand, {oe, QStringLiteral("--cell"), tree.cells().at(p2).id, QStringLiteral("--format"),
                                                         QStringLiteral("json")});
    QCOMPARE(QJsonDocument::fromJson(other.out.toUtf8()).object().value(QStringLiteral("path")).toArray().size(), 2);
    const CommandRun missing = runCommand(runPathCommand, {oe, QStringLiteral("--cell"), QStringLiteral("b99a0")});
    QCOMPARE(missing.rc, 1);
    QVERIFY(missing.err.contains(QStringLiteral("has no cell 'b99a0'")));
    const CommandRun noIteration = runCommand(runPathCommand, {oe, QStringLiteral("--iteration"), QStringLiteral("1")});
    QCOMPARE(noIteration.rc, 2);
}

void TestCompare::pathOnAShinkaRun()
{
    QTemporaryDir dir;
    const QString shinka = dir.filePath(QStringLiteral("evolution_db.sqlite"));
    QVERIFY(writeShinkaDb(shinka, shinkaRun()));
    const Result<RunImport::Imported> imported = RunImport::read(shinka);
    QVERIFY(imported);
    const DiscoveryTree &tree = imported.value->tree;
    const CommandRun run = runCommand(runPathCommand, {shinka, QStringLiteral("--format"), QStringLiteral("json")});
    QVERIFY2(run.rc == 0, qPrintable(run.err));
    const QJsonArray path = QJsonDocument::fromJson(run.out.toUtf8()).object().value(QStringLiteral("path")).toArray();
    QString previous = QStringLiteral("g0");
    QStringList programs;
    for (const QJsonValue &v : path) {
        const Cell &c = tree.cells().at(tree.indexOfId(v.toObject().value(QStringLiteral("id")).toString()));
        const QJsonObject origin = c.payload.value(QStringLiteral("origin")).toObject();
        QCOMPARE(origin.value(QStringLiteral("parent_id")).toString(), previous);
        previous = origin.value(QStringLiteral("id")).toString();
        programs.append(previous);
    }
    QCOMPARE(programs, (QStringList{QStringLiteral("g1"), QStringLiteral("g2")}));
    QCOMPARE(path.last().toObject().value(QStringLiteral("score")).toDouble(), 0.8);
}

void TestCompare::pathOnOurTree()
{
    // Our own tree: chains from the root; the path to b1a2 is b1a0, b1a1, b1a2.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("t.json"));
    QJsonArray cells;
    const QList<std::tuple<int, int, std::optional<double>>> spec{{0, 0, 0.3}, {1, 0, 0.1}, {1, 1, std::nullopt}, {1, 2, 0.6}, {0, 1, 0.2}};
    for (qsizetype i = 0; i < spec.size(); ++i) {
        const auto &[b, a, s] = spec.at(i);
        cells.append(QJsonObject{{QStringLiteral("id"), QStringLiteral("b%1a%2").arg(b).arg(a)},
                                 {QStringLiteral("branch"), b},
                                 {QStringLiteral("attempt"), a},
                                 {QStringLiteral("seq"), int(i)},
                                 {QStringLiteral("score"), s ? QJsonValue(*s) : QJsonValue()},
                                 {QStringLiteral("fail_class"), s ? QStringLiteral("ok") : QStringLiteral("compile")},
                                 {QStringLiteral("program"), QStringLiteral("x = %1\n").arg(i)},
                                 {QStringLiteral("proposal"), QStringLiteral("\n\nIdea %1\nmore").arg(i)}});
    }
    QVERIFY(writeFile(file, QJsonDocument(QJsonObject{{QStringLiteral("format"), QStringLiteral("dreamrsi-tree/1")},
                                                      {QStringLiteral("baseline_score"), 0.05},
                                                      {QStringLiteral("cells"), cells}})
                                .toJson()));
    const CommandRun run = runCommand(runPathCommand, {file, QStringLiteral("--format"), QStringLiteral("json")});
    QVERIFY2(run.rc == 0, qPrintable(run.err));
    const QJsonArray path = QJsonDocument::fromJson(run.out.toUtf8()).object().value(QStringLiteral("path")).toArray();
    QCOMPARE(path.size(), 3);
    QCOMPARE(path.at(0).toObject().value(QStringLiteral("id")).toString(), QStringLiteral("b1a0"));
    QCOMPARE(path.at(2).toObject().value(QStringLiteral("id")).toString(), QStringLiteral("b1a2"));
    QVERIFY(std::abs(path.at(0).toObject().value(QStringLiteral("gain")).toDouble() - 0.05) < 1e-12);
    // A failed step has no score and no gain; the step after it gains over
    // the nearest scored program before it (b1a0, 0.1): 0.6 − 0.1.
    QVERIFY(path.at(1).toObject().value(QStringLiteral("score")).isNull());
    QVERIFY(path.at(1).toObject().value(QStringLiteral("gain")).isNull());
    QVERIFY(std::abs(path.at(2).toObject().value(QStringLiteral("gain")).toDouble() - 0.5) < 1e-12);
    {
        const TreeJson::ParseResult parsed = TreeJson::readFile(file);
        QVERIFY(parsed.ok());
        const CellPath::Path steps = CellPath::to(*parsed.tree, parsed.tree->indexOfId(QStringLiteral("b1a2")));
        QCOMPARE(steps.steps.size(), 3);
        QCOMPARE(steps.steps.at(0).gainFrom, -1); // the baseline
        QCOMPARE(steps.steps.at(1).gainFrom, -1); // no gain
        QCOMPARE(steps.steps.at(2).gainFrom, 0);  // over b1a0, past the failed parent
        // The Markdown says the same gain.
        QVERIFY(CellPath::toMarkdown(*parsed.tree, steps, QStringLiteral("t")).contains(QStringLiteral("| 3 | b1a2 | 0.6 | +0.5 |")));
    }
    const Cell c = [] {
        Cell x;
        x.payload.insert(QStringLiteral("proposal"), QStringLiteral("\n  first\n\nsecond\nthird\nfourth"));
        return x;
    }();
    QCOMPARE(CellPath::proposalHead(c), QStringLiteral("first\nsecond\nthird"));
}

// Issue 53: sources of different tasks (scores on different scales) are
// said first in the notes and on stderr; a source whose costs are all 0 (the
// built-in agent) has no USD curve and says so, and a flat curve still gets
// a y axis whose ticks read apart (not 0 to 1e-9, every tick "100").
void TestCompare::comparePageWarnsOfDifferentTasksAndFreeCosts()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("dreamrsi-tests-compare"));
    QSettings().remove(QStringLiteral("compare"));
    QTemporaryDir dir;
    auto withTask = [](const QByteArray &json, const QString &task) {
        QJsonObject root = QJsonDocument::fromJson(json).object();
        root.insert(QStringLiteral("task"), task);
        return QJsonDocument(root).toJson();
    };
    const QString packing = dir.filePath(QStringLiteral("packing.json"));
    const QString c3 = dir.filePath(QStringLiteral("c3.json"));
    const QString free = dir.filePath(QStringLiteral("free.json"));
    QVERIFY(writeFile(packing, withTask(treeJson({{2.1, 0.5, 1}, {2.4, 0.5, 2}}), QStringLiteral("circle_packing_26"))));
    QVERIFY(writeFile(c3, withTask(treeJson({{0.8, 0.5, 1}, {0.9, 0.5, 2}}), QStringLiteral("c3_autocorrelation"))));
    QVERIFY(writeFile(free, withTask(treeJson({{100.0, 0.0, 1}, {100.0, 0.0, 2}}), QStringLiteral("circle_packing_26"))));

    // The core: every task named, a note first.
    QList<CompareSource> sources;
    for (const QString &path : {packing, c3, free}) {
        const Result<CompareSource> read = CompareCurves::read({CompareSourceSpec::Kind::Tree, path, std::nullopt, QString()});
        QVERIFY2(read, qPrintable(read.error));
        sources.append(*read.value);
    }
    const CompareResult calls = CompareCurves::compare(sources, CompareAxis::Calls);
    QCOMPARE(calls.tasks, (QStringList{QStringLiteral("circle_packing_26"), QStringLiteral("c3_autocorrelation")}));
    QVERIFY2(calls.notes.value(0).contains(QStringLiteral("different tasks (circle_packing_26, c3_autocorrelation)")),
             qPrintable(calls.notes.join(QLatin1Char('\n'))));
    QVERIFY(CompareCurves::compare({sources.at(0), sources.at(2)}, CompareAxis::Calls).tasks.size() == 1);
    // All-zero costs are no cost.
    QVERIFY(!sources.at(2).hasCost);
    const CompareResult usd = CompareCurves::compare(sources, CompareAxis::Usd);
    QCOMPARE(usd.curves.size(), 2);
    QCOMPARE(usd.groups.at(2).unrecorded.size(), 1);
    QCOMPARE(usd.groups.at(2).unrecorded.first().gap, CompareGap::Cost);

    ComparePage page;
    page.setProject(dir.filePath(QStringLiteral("p.dreamrsi")));
    page.addPaths({packing, c3, free});
    QTRY_VERIFY(!page.isReading());
    const QString notes = page.notesText();
    QVERIFY2(notes.startsWith(QStringLiteral("⚠ These sources are of different tasks")), qPrintable(notes));
    QVERIFY2(notes.contains(QStringLiteral("circle_packing_26 (packing, free)")) && notes.contains(QStringLiteral("c3_autocorrelation (c3)")),
             qPrintable(notes));
    page.setAxis(CompareAxis::Usd);
    QVERIFY2(page.notesText().contains(QStringLiteral("free: no cost recorded (none above 0), no USD curve")), qPrintable(page.notesText()));

    // One flat source alone: a readable span, tick labels that differ.
    page.removeSource(0);
    page.removeSource(0);
    page.setAxis(CompareAxis::Calls);
    QTRY_VERIFY(!page.isReading());
    QCOMPARE(page.result().curves.size(), 1);
    QCustomPlot *plot = page.plot();
    plot->resize(600, 400);
    plot->replot();
    QVERIFY2(plot->yAxis->range().size() >= 1.0, qPrintable(QString::number(plot->yAxis->range().size())));
    QVERIFY(plot->yAxis->range().contains(100.0));
    QVector<double> ticks;
    QVector<QString> labels;
    plot->yAxis->ticker()->generate(plot->yAxis->range(), plot->locale(), QLatin1Char('g'), plot->yAxis->numberPrecision(), ticks, nullptr, &labels);
    QVERIFY(labels.size() >= 2);
    QCOMPARE(QSet<QString>(labels.cbegin(), labels.cend()).size(), labels.size());
}

void TestCompare::comparePageKeepsItsSetWithTheProject()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("dreamrsi-tests-compare"));
    QSettings().remove(QStringLiteral("compare"));
    QTemporaryDir dir;
    QList<QString> trees;
    const QList<QList<Attempt>> seeds{{{0.2, 0.1, 1}, {0.5, 0.1, 2}}, {{0.4, 0.1, 1}, {0.6, 0.1, 2}, {0.7, 0.1, 3}}};
    for (qsizetype i = 0; i < seeds.size(); ++i) {
        trees.append(dir.filePath(QStringLiteral("seed%1.json").arg(i)));
        QVERIFY(writeFile(trees.last(), treeJson(seeds.at(i))));
    }
    const QString oe = dir.filePath(QStringLiteral("oe/checkpoints/checkpoint_6"));
    QVERIFY(writeOeFolder(oe, forkedRun()));
    const QString project = dir.filePath(QStringLiteral("p.dreamrsi")); // the set is keyed by its path

    {
        ComparePage page;
        page.setProject(project);
        QVERIFY(page.sources().isEmpty());
        QSignalSpy refreshed(&page, &ComparePage::refreshed);
        page.addPaths({trees.at(0), trees.at(1), oe});
        QCOMPARE(page.sources().at(2).kind, CompareSourceSpec::Kind::Run);
        QTRY_VERIFY(!page.isReading());
        page.setLabel(0, QStringLiteral("greedy"));
        page.setLabel(1, QStringLiteral("greedy"));
        QCOMPARE(page.result().groups.size(), 2);
        QCOMPARE(page.result().groups.at(0).curves.size(), 2);
        // Two seeds up to the shorter one's end; the run alone.
        QCOMPARE(page.result().groups.at(0).band.size(), 2);
        QCOMPARE(page.result().groups.at(0).band.last().mean, (0.5 + 0.6) / 2);
        QVERIFY(page.figurePainter());
        QCOMPARE(page.figureData().header, CompareCurves::csvHeader());
        // The legend counts the seeds.
        bool counted = false;
        for (int i = 0; i < page.plot()->legend->itemCount(); ++i) {
            if (auto *item = qobject_cast<QCPPlottableLegendItem *>(page.plot()->legend->item(i)))
                counted = counted || item->plottable()->name() == QStringLiteral("greedy (n = 2 seeds)");
        }
        QVERIFY(counted);
        // Cost: the run records none and says so; the trees' curves stay.
        page.setAxis(CompareAxis::Usd);
        QCOMPARE(page.result().curves.size(), 2);
        QVERIFY2(page.notesText().contains(QStringLiteral("no cost recorded")), qPrintable(page.notesText()));
    }
    {
        // Opened again: the same set, labels and axis.
        ComparePage page;
        page.setProject(project);
        QCOMPARE(page.sources().size(), 3);
        QCOMPARE(page.sources().at(1).label, QStringLiteral("greedy"));
        QCOMPARE(page.axis(), CompareAxis::Usd);
        QTRY_VERIFY(!page.isReading());
        QCOMPARE(page.result().curves.size(), 2);
        page.removeSource(2);
        // Another project has its own set.
        page.setProject(dir.filePath(QStringLiteral("other.dreamrsi")));
        QVERIFY(page.sources().isEmpty());
        page.setProject(project);
        QCOMPARE(page.sources().size(), 2);
    }
}

void TestCompare::inspectorPathPage()
{
    QTemporaryDir dir;
    const QString oe = dir.filePath(QStringLiteral("run/checkpoints/checkpoint_6"));
    QVERIFY(writeOeFolder(oe, forkedRun()));
    Result<RunImport::Imported> imported = RunImport::read(oe);
    QVERIFY(imported);
    auto tree = std::make_shared<const DiscoveryTree>(std::move(imported.value->tree));
    InspectorWidget inspector;
    TreeView view;
    view.resize(600, 400);
    view.setTree(tree);
    QObject::connect(&inspector, &InspectorWidget::pathChanged, &view, [&](const QList<int> &cells) { view.setPath(inspector.tree(), cells); });
    QSignalSpy activated(&inspector, &InspectorWidget::pathStepActivated);
    inspector.showCell(tree, tree->bestCellIndex());
    const CellPath::Path path = CellPath::to(*tree, tree->bestCellIndex());
    QCOMPARE(inspector.pathCells().size(), 3);
    for (qsizetype i = 0; i < path.steps.size(); ++i)
        QCOMPARE(inspector.pathCells().at(i), path.steps.at(i).cell);
    QCOMPARE(inspector.pathTable()->item(1, 1)->text(), tree->cells().at(path.steps.at(1).cell).id);
    QCOMPARE(inspector.pathTable()->item(1, 3)->text(), QStringLiteral("+0.1"));
    // The proposal's first paragraph as it renders (its two lines are one paragraph).
    QCOMPARE(inspector.pathTable()->item(1, 4)->text(), QStringLiteral("Try a wider grid. Second line."));
    QCOMPARE(inspector.pages()->tabText(InspectorWidget::PathPage), QStringLiteral("Path"));
    // The path is drawn on the tree it is of, and only there.
    QCOMPARE(view.renderer().path(), inspector.pathCells());
    // A step clicked asks for its cell on the tree.
    emit inspector.pathTable()->cellClicked(0, 1);
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.first().first().toInt(), path.steps.first().cell);
    QImage image(view.size(), QImage::Format_ARGB32);
    view.render(&image); // paints the path without trouble
    inspector.clear();
    QVERIFY(view.renderer().path().isEmpty());
}

// Issue 53: the Path page's proposal column showed raw Markdown, and a step
// whose parent failed showed gain "–", hiding the step that made the best.
void TestCompare::inspectorPathShowsTextAndGainsPastFailures()
{
    QJsonArray cells;
    const QList<std::tuple<QString, int, int, std::optional<double>, QString>> spec{
        {QStringLiteral("b0a0"), 0, 0, 0.2, QStringLiteral("\n## Idea: a **wider** grid\n\nSee `grid.py`.")},
        {QStringLiteral("b0a1"), 0, 1, std::nullopt, QStringLiteral("*Tighter* bounds")},
        {QStringLiteral("b0a2"), 0, 2, std::nullopt, QStringLiteral("1. Retry")},
        {QStringLiteral("b0a3"), 0, 3, 0.9, QStringLiteral("- Use __hex__ rows, [as before](http://x)\n- and more")}};
    for (qsizetype i = 0; i < spec.size(); ++i) {
        const auto &[id, b, a, score, proposal] = spec.at(i);
        cells.append(QJsonObject{{QStringLiteral("id"), id},
                                 {QStringLiteral("branch"), b},
                                 {QStringLiteral("attempt"), a},
                                 {QStringLiteral("seq"), int(i)},
                                 {QStringLiteral("score"), score ? QJsonValue(*score) : QJsonValue()},
                                 {QStringLiteral("fail_class"), score ? QStringLiteral("ok") : QStringLiteral("runtime")},
                                 {QStringLiteral("program"), QStringLiteral("x = %1\n").arg(i)},
                                 {QStringLiteral("proposal"), proposal}});
    }
    TreeJson::ParseResult parsed = TreeJson::parse(QJsonDocument(QJsonObject{{QStringLiteral("format"), QStringLiteral("dreamrsi-tree/1")},
                                                                             {QStringLiteral("baseline_score"), 0.1},
                                                                             {QStringLiteral("cells"), cells}})
                                                       .toJson());
    QVERIFY2(parsed.ok(), qPrintable(parsed.error.message));
    auto tree = std::make_shared<const DiscoveryTree>(std::move(*parsed.tree));
    InspectorWidget inspector;
    inspector.showCell(tree, tree->indexOfId(QStringLiteral("b0a3")));
    QTableWidget *table = inspector.pathTable();
    QCOMPARE(table->rowCount(), 4);
    // The proposal as text: the heading, bold, code and link marks gone.
    QCOMPARE(table->item(0, 4)->text(), QStringLiteral("Idea: a wider grid"));
    QCOMPARE(table->item(0, 4)->toolTip(), QStringLiteral("Idea: a wider grid\nSee grid.py."));
    QCOMPARE(table->item(1, 4)->text(), QStringLiteral("Tighter bounds"));
    QCOMPARE(table->item(3, 4)->text(), QStringLiteral("Use hex rows, as before"));
    // Gains: over the baseline, none for the failed steps, and the best's
    // over b0a0 (0.9 − 0.2), its failed parents passed over, said in its tooltip.
    QCOMPARE(table->item(0, 3)->text(), QStringLiteral("+0.1"));
    QCOMPARE(table->item(1, 3)->text(), QStringLiteral("–"));
    QCOMPARE(table->item(2, 3)->text(), QStringLiteral("–"));
    QCOMPARE(table->item(3, 3)->text(), QStringLiteral("+0.7"));
    QVERIFY2(table->item(3, 3)->toolTip().contains(QStringLiteral("b0a0")), qPrintable(table->item(3, 3)->toolTip()));
    QVERIFY(table->item(0, 3)->toolTip().isEmpty()); // over its parent (the initial program): nothing to say
}

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    TestCompare t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_compare.moc"
