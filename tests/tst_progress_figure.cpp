// The Progress figure at single- and double-column sizes in every format:
// legend, axis titles and tick labels on the page and off the data, fonts of
// 6–9 pt, the page the size asked, whole-number ticks on the calls axis, a
// labelled line where each iteration starts. Then `dreamrsi plot progress`
// on two projects made here, and the Progress tab following the workspace.
#include "commands.h"
#include "figures/figureexport.h"
#include "figures/figurelayout.h"
#include "figures/qcp.h"
#include "figuretestsupport.h"
#include "progress/progresspage.h"
#include "progress/progressplot.h"
#include "progresstestdata.h"
#include "models/workspace.h"
#include "store/projectreader.h"
#include "store/projectwriter.h"

#include <QApplication>
#include <QFontMetrics>
#include <QImage>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace dreamrsi;
using namespace dreamrsi::progresstest;
using namespace dreamrsi::figuretest;

namespace {
constexpr double MmPerInch = 25.4;

QList<ProgressCurve> twoRuns()
{
    // 12 calls an iteration, 4 iterations: the dreaming run climbs, the fixed one stalls.
    QList<IterationData> dream, fixed;
    for (int t = 0; t < 4; ++t) {
        QList<std::optional<double>> a, b;
        for (int k = 0; k < 12; ++k) {
            a.append(k % 5 == 4 ? std::nullopt : std::optional<double>(0.5 + 0.1 * t + 0.01 * k));
            b.append(std::optional<double>(0.5 + 0.02 * ((k * 7 + t) % 6)));
        }
        dream.append(iteration(t + 1, a));
        fixed.append(iteration(t + 1, b));
    }
    return {ProjectProgress::curveOf(QStringLiteral("Dream-RSI (recursive self-improvement)"), dream),
            ProjectProgress::curveOf(QStringLiteral("Recursive fixed exploration"), fixed)};
}

/// A project as `dreamrsi loop` leaves it: finished live iterations in order.
QString makeProject(const QTemporaryDir &dir, const QString &name, const QList<QList<std::optional<double>>> &rounds)
{
    const QString path = dir.filePath(name + QStringLiteral(".dreamrsi"));
    ProjectInfo info;
    info.name = name;
    auto w = ProjectWriter::create(path, info);
    if (!w.ok())
        qFatal("%s", qPrintable(w.error));
    ProjectWriter &writer = **w.value;
    for (const auto &scores : rounds) {
        IterationInfo live;
        const auto id = writer.beginIteration(live);
        if (!id.ok())
            qFatal("%s", qPrintable(id.error));
        for (qsizetype i = 0; i < scores.size(); ++i) {
            const auto done = writer.appendCell(*id.value, cell(i, scores.at(i)));
            if (!done.ok())
                qFatal("%s", qPrintable(done.error));
        }
        if (!writer.finishIteration(*id.value, IterationStatus::Finished).ok())
            qFatal("finish failed");
    }
    return path;
}

int plot(const QStringList &args, QString *out, QString *err)
{
    QTextStream o(out), e(err);
    const int rc = runPlotCommand(args, o, e);
    o.flush();
    e.flush();
    return rc;
}
} // namespace

class TestProgressFigure : public QObject
{
    Q_OBJECT

private slots:
    void layout_data()
    {
        QTest::addColumn<QSizeF>("mm");
        QTest::addColumn<QString>("suffix");
        for (const QSizeF mm : {QSizeF(85, 60), QSizeF(175, 90)}) {
            for (const char *suffix : {"pdf", "svg", "png"})
                QTest::addRow("%gx%g-%s", mm.width(), mm.height(), suffix) << mm << QString::fromLatin1(suffix);
        }
    }

    void layout()
    {
        QFETCH(QSizeF, mm);
        QFETCH(QString, suffix);
        const QList<ProgressCurve> curves = twoRuns();
        QCustomPlot plot;
        QCOMPARE(ProgressPlot::populate(&plot, curves, false), 2);
        const QSizeF logical = FigureExport::logicalSize(mm);
        FigureLayout::apply(&plot, logical);
        const QRect page(QPoint(0, 0), logical.toSize());
        const QRect data = plot.axisRect()->rect();
        QVERIFY2(page.contains(data), qPrintable(describe(data)));
        QVERIFY2(data.width() * data.height() >= 0.35 * page.width() * page.height(), qPrintable(describe(data)));

        const QStringList problems = layoutProblems(&plot, page);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n"))));
        const QList<TextBox> boxes = textBoxes(&plot);
        for (const TextBox &b : boxes) {
            QVERIFY2(page.contains(b.rect), qPrintable(b.what + QStringLiteral(" off the page: ") + describe(b.rect)));
            QVERIFY2(!b.rect.intersects(data), qPrintable(b.what + QStringLiteral(" over the data: ") + describe(b.rect)));
            if (b.what.startsWith(QLatin1String("axis title"))) {
                for (const TextBox &other : boxes) {
                    if (&other != &b && !other.what.startsWith(QLatin1String("legend item")))
                        QVERIFY2(!b.rect.intersects(other.rect), qPrintable(b.what + QStringLiteral(" overlaps ") + other.what));
                }
            }
        }
        QCOMPARE(plot.legend->itemCount(), 2); // the runs; iteration markers stay out of the legend
        QVERIFY2(plot.legend->outerRect().height() <= 0.3 * page.height(), qPrintable(describe(plot.legend->outerRect())));
        for (int i = 0; i < plot.legend->itemCount(); ++i)
            QVERIFY2(plot.legend->item(i)->minimumOuterSizeHint().width() <= plot.legend->item(i)->outerRect().width() + 1,
                     "legend entry cut");

        // Fonts 6–9 pt, iteration labels included; one label per iteration start.
        QList<QFont> fonts{plot.xAxis->tickLabelFont(), plot.xAxis->labelFont(), plot.yAxis->tickLabelFont(),
                           plot.yAxis->labelFont(), plot.legend->font()};
        QStringList labels;
        int lines = 0;
        for (int i = 0; i < plot.itemCount(); ++i) {
            if (auto *text = qobject_cast<QCPItemText *>(plot.item(i))) {
                fonts << text->font();
                labels << text->text();
            } else if (auto *line = qobject_cast<QCPItemStraightLine *>(plot.item(i))) {
                QVERIFY(std::lround(line->point1->coords().x()) % 12 == 0);
                ++lines;
            }
        }
        for (const QFont &f : std::as_const(fonts))
            QVERIFY2(f.pointSizeF() >= FigureLayout::MinPointSize && f.pointSizeF() <= FigureLayout::MaxPointSize,
                     qPrintable(QString::number(f.pointSizeF())));
        QCOMPARE(labels, (QStringList{QStringLiteral("it. 1"), QStringLiteral("it. 2"), QStringLiteral("it. 3"), QStringLiteral("it. 4")}));
        QCOMPARE(lines, 3); // iteration 1 starts on the y axis

        // Calls are counted: whole-number ticks over the 48 calls.
        QVERIFY(FigureLayout::isIntegerAxis(plot.xAxis));
        QVERIFY(!FigureLayout::isIntegerAxis(plot.yAxis));
        QCOMPARE(plot.xAxis->range().upper, 48.0);
        QVector<double> ticks;
        plot.xAxis->ticker()->generate(plot.xAxis->range(), plot.locale(), QLatin1Char('g'), 6, ticks, nullptr, nullptr);
        QVERIFY(ticks.size() >= 3);
        for (double t : std::as_const(ticks))
            QCOMPARE(t, std::round(t));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("progress.") + suffix);
        FigureExport::Options options;
        options.sizeMm = mm;
        options.dpi = 200;
        const Result<Done> written = FigureExport::write(path, options, FigureLayout::painterFor(&plot));
        QVERIFY2(written, qPrintable(written.error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        if (suffix == QLatin1String("pdf")) {
            static const QRegularExpression box(QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([0-9.]+)\\s+([0-9.]+)\\s*\\]"));
            const auto m = box.match(QString::fromLatin1(bytes));
            QVERIFY(m.hasMatch());
            QVERIFY(std::abs(m.captured(1).toDouble() - mm.width() / MmPerInch * 72) <= 1.0);
            QVERIFY(std::abs(m.captured(2).toDouble() - mm.height() / MmPerInch * 72) <= 1.0);
            QVERIFY2(bytes.contains("/FontFile"), "fonts are not embedded");
        } else if (suffix == QLatin1String("svg")) {
            static const QRegularExpression size(QStringLiteral("<svg width=\"([0-9.]+)mm\" height=\"([0-9.]+)mm\""));
            const auto m = size.match(QString::fromUtf8(bytes));
            QVERIFY(m.hasMatch());
            QVERIFY(std::abs(m.captured(1).toDouble() - mm.width()) < 0.01);
            QVERIFY(std::abs(m.captured(2).toDouble() - mm.height()) < 0.01);
        } else {
            const QImage image(path);
            QCOMPARE(image.width(), int(std::lround(mm.width() / MmPerInch * options.dpi)));
            QCOMPARE(image.height(), int(std::lround(mm.height() / MmPerInch * options.dpi)));
        }
    }

    // Two runs whose iterations start a call apart (one drew 23 calls where
    // the other drew 24): one label per iteration, not two overlapping ones.
    void nearbyStartsShareOneLabel()
    {
        QList<IterationData> a, b;
        for (int t = 0; t < 3; ++t) {
            QList<std::optional<double>> x, y;
            for (int k = 0; k < 24; ++k) {
                x.append(std::optional<double>(0.5 + 0.01 * t + 0.001 * k));
                if (!(t == 0 && k == 23))
                    y.append(std::optional<double>(0.5 + 0.02 * t + 0.001 * k));
            }
            a.append(iteration(t + 1, x));
            b.append(iteration(t + 1, y));
        }
        QCustomPlot plot;
        QCOMPARE(ProgressPlot::populate(&plot, {ProjectProgress::curveOf(QStringLiteral("A"), a),
                                                ProjectProgress::curveOf(QStringLiteral("B"), b)}, false),
                 2);
        QStringList labels;
        int lines = 0;
        for (int i = 0; i < plot.itemCount(); ++i) {
            if (auto *text = qobject_cast<QCPItemText *>(plot.item(i)))
                labels << text->text();
            else if (qobject_cast<QCPItemStraightLine *>(plot.item(i)))
                ++lines;
        }
        QCOMPARE(labels, (QStringList{QStringLiteral("it. 1"), QStringLiteral("it. 2"), QStringLiteral("it. 3")}));
        QCOMPARE(lines, 4); // iterations 2 and 3 start at 23 and 24, 47 and 48 calls: each run keeps its line
    }

    void captionTable()
    {
        const FigureTable t = ProgressPlot::table(twoRuns());
        QCOMPARE(t.rows.size(), 2);
        // Dream-RSI: best 0.5 + 0.3 + 0.11 = 0.91 at the last call, 48.
        QCOMPARE(t.rows.at(0), (QStringList{QStringLiteral("Dream-RSI (recursive self-improvement)"), QStringLiteral("4"),
                                            QStringLiteral("48"), QStringLiteral("0.91"), QStringLiteral("48")}));
        QCOMPARE(t.rows.at(1).at(3), QStringLiteral("0.6"));
    }

    void plotCommandTwoProjects()
    {
        QTemporaryDir dir;
        const QString dream = makeProject(dir, QStringLiteral("dream"), {{1.0, std::nullopt, 2.0}, {2.5, 3.0}, {3.0, 4.0, 1.0}});
        const QString fixed = makeProject(dir, QStringLiteral("fixed"), {{1.0, std::nullopt, 2.0}, {1.5, 2.0}, {2.2, 1.0, 1.0}});
        for (const char *suffix : {"pdf", "svg", "png"}) {
            const QString fig = dir.filePath(QStringLiteral("progress.") + QLatin1String(suffix));
            QString out, err;
            const int rc = plot({QStringLiteral("progress"), QStringLiteral("--project"), dream, QStringLiteral("--project"), fixed,
                                 QStringLiteral("--label"), QStringLiteral("Fixed baseline"), QStringLiteral("--width-mm"),
                                 QStringLiteral("85"), QStringLiteral("--height-mm"), QStringLiteral("60"), QStringLiteral("--out"), fig},
                                &out, &err);
            QVERIFY2(rc == 0, qPrintable(err));
            QVERIFY(QFileInfo(fig).size() > 0);
            const QString table = FigureExport::captionTablePath(fig);
            QVERIFY(QFileInfo::exists(table));
            // Default label: the project's name; --label names the curve before it.
            const QStringList lines = out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            QVERIFY2(lines.size() == 5, qPrintable(out));
            QCOMPARE(lines.at(3).split(QLatin1Char(' '), Qt::SkipEmptyParts),
                     (QStringList{QStringLiteral("dream"), QStringLiteral("3"), QStringLiteral("8"), QStringLiteral("4"), QStringLiteral("7")}));
            QVERIFY2(lines.at(4).startsWith(QLatin1String("Fixed baseline")), qPrintable(lines.at(4)));
            QCOMPARE(lines.at(4).split(QLatin1Char(' '), Qt::SkipEmptyParts).mid(2),
                     (QStringList{QStringLiteral("3"), QStringLiteral("8"), QStringLiteral("2.2"), QStringLiteral("6")}));
        }
    }

    void plotCommandBadInput()
    {
        QTemporaryDir dir;
        QString out, err;
        const QString fig = dir.filePath(QStringLiteral("p.pdf"));
        QCOMPARE(plot({QStringLiteral("progress"), QStringLiteral("--project"), dir.filePath(QStringLiteral("missing.dreamrsi")),
                       QStringLiteral("--out"), fig},
                      &out, &err),
                 1);
        QVERIFY2(err.contains(QLatin1String("missing.dreamrsi")), qPrintable(err));
        QVERIFY(!QFileInfo::exists(fig));
        err.clear();
        QCOMPARE(plot({QStringLiteral("progress"), QStringLiteral("--label"), QStringLiteral("x"), QStringLiteral("--out"), fig}, &out, &err), 2);
        QVERIFY2(err.contains(QLatin1String("--label")), qPrintable(err));
        err.clear();
        const QString empty = makeProject(dir, QStringLiteral("empty"), {});
        QCOMPARE(plot({QStringLiteral("progress"), QStringLiteral("--project"), empty, QStringLiteral("--out"), fig}, &out, &err), 1);
        QVERIFY2(err.contains(QLatin1String("no iterations")), qPrintable(err));
        err.clear();
        QCOMPARE(plot({QStringLiteral("frontier"), QStringLiteral("--project"), empty, QStringLiteral("--project"), empty,
                       QStringLiteral("--out"), fig},
                      &out, &err),
                 2);
        QVERIFY2(err.contains(QLatin1String("one --project")), qPrintable(err));
    }

    void pageFollowsTheWorkspace()
    {
        Workspace workspace;
        ProgressPage page(&workspace);
        QVERIFY(page.curves().isEmpty());
        auto treeOf = [](const IterationData &d) {
            TreeError error;
            auto tree = DiscoveryTree::build(TreeMeta{}, d.cells, &error);
            if (!tree)
                qFatal("bad fixture tree");
            return std::make_shared<const DiscoveryTree>(std::move(*tree));
        };
        // Added out of order and with a loose file: the project's iterations count, by id.
        workspace.addWorld({QStringLiteral("it2"), QString(), 2, treeOf(iteration(2, {5.0, 1.0}))});
        workspace.addWorld({QStringLiteral("loose"), QStringLiteral("/x/loose.json"), 0, treeOf(iteration(0, {99.0}))});
        workspace.addWorld({QStringLiteral("it1"), QString(), 1, treeOf(iteration(1, {1.0, 2.0, 3.0}))});
        QTRY_COMPARE_WITH_TIMEOUT(page.curves().size(), 1, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(int(page.curves().first().totalCalls), 5, 5000);
        const ProgressCurve c = page.curves().first();
        QCOMPARE(int(c.marks.at(1).startCalls), 3);
        QCOMPARE(c.best, std::optional<double>(5.0));
        QCOMPARE(c.points.first(), (ProgressPoint{1, 1.0}));
        QCOMPARE(page.plot()->legend->itemCount(), 1);

        // A live round growing: one more call with a better score.
        const int row = workspace.indexOfWorld(QStringLiteral("it2"));
        QSignalSpy refreshed(&page, &ProgressPage::refreshed);
        QVERIFY(workspace.appendCell(row, cell(2, 7.0)).ok());
        QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), 5000);
        QCOMPARE(int(page.curves().first().totalCalls), 6);
        QCOMPARE(page.curves().first().best, std::optional<double>(7.0));

        workspace.clearWorlds();
        QTRY_VERIFY_WITH_TIMEOUT(page.curves().isEmpty(), 5000);
    }

    // Tasks of different score scales (thousands and fractions) share the
    // axis as attainment, and every iteration's label is named once.
    void pageWithTasksOfDifferentScales()
    {
        Workspace workspace;
        ProgressPage page(&workspace);
        auto add = [&](IterationId id, const QString &task, const QList<std::optional<double>> &scores) {
            TreeMeta meta;
            meta.task = task;
            meta.iteration = id;
            TreeError error;
            auto tree = DiscoveryTree::build(meta, iteration(id, scores).cells, &error);
            QVERIFY(tree);
            workspace.addWorld({QStringLiteral("it%1").arg(id), QString(), id,
                                std::make_shared<const DiscoveryTree>(std::move(*tree))});
        };
        add(1, QStringLiteral("lasso_path"), {1000.0, 1200.0, 1500.0});
        add(2, QStringLiteral("c3_autocorrelation"), {0.5, 0.9});
        add(3, QStringLiteral("lasso_path"), {1800.0, 2000.0});
        add(4, QStringLiteral("c3_autocorrelation"), {0.95, 1.0});
        QTRY_COMPARE_WITH_TIMEOUT(page.curves().size(), 2, 5000);
        QVERIFY(ProgressPlot::mixesTasks(page.curves()));
        QCustomPlot *plot = page.plot();
        QVERIFY2(plot->yAxis->label().contains(QStringLiteral("Attainment")), qPrintable(plot->yAxis->label()));
        QVERIFY(plot->yAxis->range().upper <= 1.5);
        QVERIFY(plot->yAxis->range().lower >= -0.5);
        // Both curves end at their task's best: attainment 1.
        double low = 1.0, high = 0.0;
        for (int g = 0; g < plot->graphCount(); ++g) {
            QCPGraph *graph = plot->graph(g);
            if (!graph->visible() || graph->dataCount() == 0)
                continue;
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
                QVERIFY2(it->value >= 0.0 && it->value <= 1.0, qPrintable(QString::number(it->value)));
                low = std::min(low, it->value);
                high = std::max(high, it->value);
            }
        }
        // The axis fits the curves (issue 53: 0–1.25 with every curve in
        // the top fifth): they take at least 70 % of its height, the rest
        // head room for the iteration labels.
        const QCPRange range = plot->yAxis->range();
        QVERIFY(range.contains(low) && range.contains(high));
        QVERIFY2((high - low) / range.size() >= 0.7,
                 qPrintable(QStringLiteral("curves %1–%2 on an axis %3–%4").arg(low).arg(high).arg(range.lower).arg(range.upper)));
        QStringList labels;
        for (int i = 0; i < plot->itemCount(); ++i) {
            if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
                labels.append(text->text());
        }
        // Each task's second iteration starts at its own place (after 3 and 2
        // calls): by index both would read "it. 2".
        labels.sort();
        QCOMPARE(labels, (QStringList{QStringLiteral("it. 1/2"), QStringLiteral("it. 3"), QStringLiteral("it. 4")}));
        QCOMPARE(ProgressPlot::attainment(1500.0, 2000.0, 1000.0), 0.75);
        QCOMPARE(ProgressPlot::attainment(-3.0, -1.0, -5.0), 0.5); // negative scores: over the curve's own range
    }
};

QTEST_MAIN(TestProgressFigure)
#include "tst_progress_figure.moc"
