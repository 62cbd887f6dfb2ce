// Figures for papers: every figure kind (frontier, anytime, tree, progress
// and the counterfactual loop's two panels) laid out at single- and
// double-column sizes, in every format. Legend, axis titles and tick labels
// lie on the page and off the data of every panel, no two pieces of text
// overlap, each role of text has one size across panels; fonts are 6–9 pt
// and embedded in PDF; the file's page is the size asked; counting axes have
// whole-number ticks; 95 % bands stay within their quantity's range; the
// frontier's attainment axis fits the data unless asked for 0–1.
#include "commands.h"
#include "figures/exportdialog.h"
#include "figures/figureexport.h"
#include "figures/figurelayout.h"
#include "figures/figuretable.h"
#include "figures/integerticker.h"
#include "figures/plotstyle.h"
#include "figures/qcp.h"
#include "figuretestsupport.h"
#include "textrecorder.h"
#include "model/treejson.h"
#include "project/projectpolicies.h"
#include "project/projectreplay.h"
#include "replay/synthworld.h"
#include "store/projectwriter.h"
#include "progress/progressplot.h"
#include "progress/simulationplot.h"
#include "progresstestdata.h"
#include "replay/replayengine.h"
#include "session/replayjobs.h"
#include "session/worldselection.h"
#include "tree/treerenderer.h"
#include "replayview/worldmodelplot.h"

#include <QFontMetrics>
#include <QGuiApplication>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <cmath>
#include <optional>

using namespace dreamrsi;
using namespace dreamrsi::figuretest;
using dreamrsi::test::TextRecorder;

namespace {
constexpr double MmPerInch = 25.4;

QString fixture(const char *name)
{
    return QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/figures/") + QLatin1String(name);
}

QList<QFont> plotFonts(QCustomPlot *plot)
{
    QList<QFont> fonts;
    for (QCPAxisRect *rect : plot->axisRects()) {
        for (QCPAxis *axis : rect->axes())
            fonts << axis->tickLabelFont() << axis->labelFont();
    }
    fonts << plot->legend->font();
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        fonts << plot->legend->item(i)->font();
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
            fonts << text->font();
    }
    return fonts;
}

// PDF: "/MediaBox [0 0 w h]" in points.
QSizeF pdfMediaBox(const QByteArray &pdf)
{
    static const QRegularExpression box(QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([0-9.]+)\\s+([0-9.]+)\\s*\\]"));
    const auto m = box.match(QString::fromLatin1(pdf));
    return m.hasMatch() ? QSizeF(m.captured(1).toDouble(), m.captured(2).toDouble()) : QSizeF();
}

QSizeF svgSizeMm(const QByteArray &svg)
{
    static const QRegularExpression size(QStringLiteral("<svg width=\"([0-9.]+)mm\" height=\"([0-9.]+)mm\""));
    const auto m = size.match(QString::fromUtf8(svg));
    return m.hasMatch() ? QSizeF(m.captured(1).toDouble(), m.captured(2).toDouble()) : QSizeF();
}
} // namespace

// Two runs of the recursive loop, 12 calls an iteration over four iterations.
QList<ProgressCurve> progressRuns()
{
    QList<IterationData> dream, fixed;
    for (int t = 0; t < 4; ++t) {
        QList<std::optional<double>> a, b;
        for (int k = 0; k < 12; ++k) {
            a.append(k % 5 == 4 ? std::nullopt : std::optional<double>(0.5 + 0.1 * t + 0.01 * k));
            b.append(std::optional<double>(0.5 + 0.02 * ((k * 7 + t) % 6)));
        }
        dream.append(progresstest::iteration(t + 1, a));
        fixed.append(progresstest::iteration(t + 1, b));
    }
    return {ProjectProgress::curveOf(QStringLiteral("Dream-RSI (recursive self-improvement)"), dream),
            ProjectProgress::curveOf(QStringLiteral("Recursive fixed exploration"), fixed)};
}

class TestFigures : public QObject
{
    Q_OBJECT

    QList<WorldEntry> m_worlds;
    QList<FrontierSeries> m_frontier;
    QList<AnytimeSeries> m_anytime;

    void populate(QCustomPlot *plot, const QString &kind)
    {
        if (kind == QLatin1String("frontier"))
            PlotStyle::populateFrontier(plot, m_frontier, m_worlds.first().name, false);
        else if (kind == QLatin1String("frontier-mean"))
            PlotStyle::populateFrontier(plot, m_frontier, QString(), false);
        else if (kind == QLatin1String("frontier-crowded")) {
            // Six versions with long names: the legend must shorten them to stay in its band.
            QList<FrontierSeries> many;
            for (int i = 0; i < 6; ++i) {
                many.append({QStringLiteral("experiment-%1-portfolio-with-a-rather-long-descriptive-version-name").arg(i),
                             m_frontier.at(i % m_frontier.size()).result});
            }
            PlotStyle::populateFrontier(plot, many, m_worlds.first().name, false);
        } else if (kind == QLatin1String("frontier-full")) {
            PlotStyle::populateFrontier(plot, m_frontier, m_worlds.first().name, false, PlotStyle::AttainmentAxis::Full);
        } else if (kind == QLatin1String("progress")) {
            ProgressPlot::populate(plot, progressRuns(), false);
        } else if (kind == QLatin1String("simulation")) {
            SimulationPlot::populate(plot, overlappingArms(), false);
        } else
            PlotStyle::populateAnytime(plot, m_anytime, m_worlds.first().tree->cellCount(), false);
    }

    void checkFile(const QString &path, const QSizeF &mm, int dpi)
    {
        QFile f(path);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
        const QByteArray bytes = f.readAll();
        const QString suffix = QFileInfo(path).suffix();
        if (suffix == QLatin1String("pdf")) {
            const QSizeF points = pdfMediaBox(bytes);
            QVERIFY2(!points.isEmpty(), "no MediaBox");
            QVERIFY2(std::abs(points.width() - mm.width() / MmPerInch * 72) <= 1.0, qPrintable(QString::number(points.width())));
            QVERIFY2(std::abs(points.height() - mm.height() / MmPerInch * 72) <= 1.0, qPrintable(QString::number(points.height())));
            QVERIFY2(bytes.contains("/FontFile"), "fonts are not embedded");
        } else if (suffix == QLatin1String("svg")) {
            const QSizeF size = svgSizeMm(bytes);
            QVERIFY2(!size.isEmpty(), "no width/height in mm");
            QVERIFY2(std::abs(size.width() - mm.width()) < 0.01, qPrintable(QString::number(size.width())));
            QVERIFY2(std::abs(size.height() - mm.height()) < 0.01, qPrintable(QString::number(size.height())));
        } else {
            const QImage image(path);
            QCOMPARE(image.width(), int(std::lround(mm.width() / MmPerInch * dpi)));
            QCOMPARE(image.height(), int(std::lround(mm.height() / MmPerInch * dpi)));
            QCOMPARE(image.dotsPerMeterX(), int(std::lround(dpi / MmPerInch * 1000)));
        }
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        for (const char *name : {"tiny-iter1.json", "tiny-iter2.json"}) {
            auto parsed = TreeJson::readFile(fixture(name));
            QVERIFY2(parsed.ok(), qPrintable(parsed.error.message));
            m_worlds.append({QFileInfo(fixture(name)).completeBaseName(), fixture(name), 0,
                             std::make_shared<const DiscoveryTree>(std::move(*parsed.tree))});
        }
        QList<ReplayWorld> worlds;
        for (const WorldEntry &w : std::as_const(m_worlds))
            worlds.append({w.name, w.tree});
        // The replay job as `dreamrsi plot` runs it: in this process, under the loose files' configuration.
        VersionReplayJob job;
        job.worlds = worlds;
        job.config = AppSettings().looseReplayConfig();
        job.options.threads = 1;
        for (const PolicyVersion &pv : ReplayJobs::builtinVersions()) {
            job.version = pv;
            const SandboxedReplayOutcome replayed = VersionReplay::run(job);
            QVERIFY(replayed.output);
            auto result = std::make_shared<ReplayResult>(replayed.output->result);
            QVERIFY2(result->ok(), qPrintable(result->firstError()));
            m_frontier.append({pv.name, result});
            const SweepResult *sweep = result->sweepOf(m_worlds.first().name);
            QVERIFY(sweep && !sweep->episodes.isEmpty());
            m_anytime.append({QStringLiteral("%1 (β=%2)").arg(pv.name).arg(sweep->episodes.first().beta), sweep->episodes.first().curve, -1});
        }
        QVERIFY(m_frontier.size() >= 2);
    }

    void plotLayout_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QSizeF>("mm");
        QTest::addColumn<QString>("suffix");
        for (const char *kind : {"frontier", "frontier-mean", "frontier-crowded", "frontier-full", "anytime", "progress", "simulation"}) {
            for (const QSizeF mm : {QSizeF(85, 60), QSizeF(175, 90)}) {
                for (const char *suffix : {"pdf", "svg", "png"})
                    QTest::addRow("%s-%gx%g-%s", kind, mm.width(), mm.height(), suffix) << QString::fromLatin1(kind) << mm
                                                                                         << QString::fromLatin1(suffix);
            }
        }
    }

    void plotLayout()
    {
        QFETCH(QString, kind);
        QFETCH(QSizeF, mm);
        QFETCH(QString, suffix);
        QCustomPlot plot;
        populate(&plot, kind);
        const QSizeF logical = FigureExport::logicalSize(mm);
        FigureLayout::apply(&plot, logical);
        const QRect page(QPoint(0, 0), logical.toSize());
        const QRect data = plot.axisRect()->rect();
        QVERIFY2(page.contains(data), qPrintable(describe(data)));
        // The data area keeps most of the page.
        QVERIFY2(data.width() * data.height() >= 0.35 * page.width() * page.height(), qPrintable(describe(data)));

        const QList<TextBox> boxes = textBoxes(&plot);
        QVERIFY(boxes.size() > 6);
        int titles = 0;
        for (const TextBox &b : boxes) {
            QVERIFY2(page.contains(b.rect), qPrintable(b.what + QStringLiteral(" off the page: ") + describe(b.rect)));
            QVERIFY2(!b.rect.intersects(data), qPrintable(b.what + QStringLiteral(" over the data: ") + describe(b.rect)));
            titles += b.what.startsWith(QLatin1String("axis title"));
        }
        QCOMPARE(titles, kind == QLatin1String("simulation") ? 3 : 2);
        // Axis titles clear of tick labels and of the legend; legend entries not cut.
        for (const TextBox &title : boxes) {
            if (!title.what.startsWith(QLatin1String("axis title")))
                continue;
            for (const TextBox &other : boxes) {
                if (&other != &title && !other.what.startsWith(QLatin1String("legend item")))
                    QVERIFY2(!title.rect.intersects(other.rect), qPrintable(title.what + QStringLiteral(" overlaps ") + other.what));
            }
        }
        QVERIFY2(plot.legend->outerRect().height() <= 0.3 * page.height(), qPrintable(describe(plot.legend->outerRect())));
        for (int i = 0; i < plot.legend->itemCount(); ++i) {
            QCPAbstractLegendItem *item = plot.legend->item(i);
            QVERIFY2(item->minimumOuterSizeHint().width() <= item->outerRect().width() + 1, "legend entry cut");
        }
        for (const QFont &f : plotFonts(&plot)) {
            QVERIFY2(f.pointSizeF() >= FigureLayout::MinPointSize && f.pointSizeF() <= FigureLayout::MaxPointSize,
                     qPrintable(QString::number(f.pointSizeF())));
        }
        // Counting axes: whole-number ticks only.
        if (kind != QLatin1String("frontier-mean")) {
            QVERIFY(FigureLayout::isIntegerAxis(plot.xAxis));
            QVERIFY(!FigureLayout::isIntegerAxis(plot.yAxis));
            QVector<double> ticks;
            plot.xAxis->ticker()->generate(plot.xAxis->range(), plot.locale(), QLatin1Char('g'), 6, ticks, nullptr, nullptr);
            QVERIFY(ticks.size() >= 3);
            for (double t : std::as_const(ticks))
                QCOMPARE(t, std::round(t));
        }

        QTemporaryDir dir;
        const QString path = dir.filePath(kind + QLatin1Char('.') + suffix);
        FigureExport::Options options;
        options.sizeMm = mm;
        options.dpi = 200;
        const Result<Done> written = FigureExport::write(path, options, FigureLayout::painterFor(&plot));
        QVERIFY2(written, qPrintable(written.error));
        checkFile(path, mm, options.dpi);
    }

    // Every figure kind at both journal sizes: no text off the page or over
    // any panel's data, no two pieces of text overlapping, no elided axis
    // title, and text of one role (tick labels, axis titles, legend,
    // annotations) in one size across the panels.
    void everyFigureKindAtJournalSizes_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QSizeF>("mm");
        for (const char *kind :
             {"frontier", "frontier-mean", "frontier-crowded", "frontier-full", "anytime", "progress", "simulation", "tree"}) {
            for (const QSizeF mm : {QSizeF(85, 60), QSizeF(175, 90)})
                QTest::addRow("%s-%gx%g", kind, mm.width(), mm.height()) << QString::fromLatin1(kind) << mm;
        }
    }

    void everyFigureKindAtJournalSizes()
    {
        QFETCH(QString, kind);
        QFETCH(QSizeF, mm);
        const QSizeF logical = FigureExport::logicalSize(mm);
        if (kind == QLatin1String("tree")) {
            // One font for the whole figure; legend and tree apart, both on the page.
            for (const WorldEntry &w : std::as_const(m_worlds)) {
                TreeRenderer renderer;
                renderer.setTree(w.tree);
                const QRectF page(QPointF(0, 0), logical);
                const QFont font = TreeRenderer::figureFont(QGuiApplication::font(), page);
                QVERIFY(font.pointSizeF() >= FigureLayout::MinPointSize && font.pointSizeF() <= FigureLayout::MaxPointSize);
                const TreeFigureGeometry g = renderer.figureGeometry(QFontMetricsF(font), page);
                QVERIFY2(page.contains(g.legend) && page.contains(g.treeRect), qPrintable(w.name));
                QVERIFY2(!g.legend.intersects(g.treeRect), qPrintable(w.name));
                const QStringList ticks = renderer.scaleTickLabels(4);
                QCOMPARE(QSet<QString>(ticks.cbegin(), ticks.cend()).size(), ticks.size());
            }
            return;
        }
        QCustomPlot plot;
        populate(&plot, kind);
        FigureLayout::apply(&plot, logical);
        const QRect page(QPoint(0, 0), logical.toSize());
        const QStringList problems = layoutProblems(&plot, page);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n"))));
        // Each panel keeps room for its data.
        for (QCPAxisRect *rect : plot.axisRects())
            QVERIFY2(rect->height() >= 0.15 * page.height(), qPrintable(describe(rect->rect())));
        // The legend is a band above the panels, never inside one.
        if (plot.legend->visible() && plot.legend->itemCount() > 0) {
            for (QCPAxisRect *rect : plot.axisRects())
                QVERIFY2(plot.legend->outerRect().bottom() < rect->rect().top(), qPrintable(describe(plot.legend->outerRect())));
        }
    }

    // `plot progress --simulation` at 85 × 60 mm: the figure that broke.
    void simulationCommandAtSingleColumn()
    {
        QTemporaryDir dir;
        const QString json = dir.filePath(QStringLiteral("run.json"));
        QFile f(json);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(overlappingArmsJson());
        f.close();
        const Result<SimulationCurves> read = ProjectSimulations::readCurves(json);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.value->arms.size(), 2);
        for (const char *suffix : {"png", "pdf"}) {
            const QString out = dir.filePath(QStringLiteral("simulation.") + QLatin1String(suffix));
            QString o, e;
            QTextStream outStream(&o), errStream(&e);
            const int rc = runPlotCommand({QStringLiteral("progress"), QStringLiteral("--simulation"), json, QStringLiteral("--width-mm"),
                                           QStringLiteral("85"), QStringLiteral("--height-mm"), QStringLiteral("60"), QStringLiteral("--out"), out},
                                          outStream, errStream);
            errStream.flush();
            QVERIFY2(rc == 0, qPrintable(e));
            checkFile(out, QSizeF(85, 60), 300);
        }
        // The same plot the command draws, laid out at that size.
        QCustomPlot plot;
        SimulationPlot::populate(&plot, *read.value, false);
        FigureLayout::apply(&plot, FigureExport::logicalSize(QSizeF(85, 60)));
        const QStringList problems = layoutProblems(&plot, QRect(QPoint(0, 0), FigureExport::logicalSize(QSizeF(85, 60)).toSize()));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n"))));
    }

    // Every arm the studies write has a name of its own in the legend
    // (packaging/figures: the imagination rules' arms among them); an arm
    // this build does not know keeps its key.
    void simulationArmsAreNamed()
    {
        for (const char *arm : {"dream", "dream_guarded", "dream_revealed", "dream_oracle", "dream_noprobe", "dream_widened",
                                "dream_uncertain", "dream_anchored", "fixed_probe", "fixed"}) {
            const QString label = SimulationPlot::armLabel(QString::fromLatin1(arm));
            QVERIFY2(label.startsWith(QStringLiteral("Dream-RSI")) || label.startsWith(QStringLiteral("Fixed exploration")), arm);
        }
        QCOMPARE(SimulationPlot::armLabel(QStringLiteral("dream_anchored")), QStringLiteral("Dream-RSI, anchored rule"));
        QCOMPARE(SimulationPlot::armLabel(QStringLiteral("dream_someday")), QStringLiteral("dream_someday"));
    }

    // Arms whose means are equal (Dream-RSI no better than fixed
    // exploration): the first arm's mean line is drawn above the others', in
    // a solid pen with filled dots, the others dashed with larger hollow
    // marks, so neither hides the other.
    void simulationFirstArmStaysInSightWhenEqual()
    {
        SimulationCurves curves = overlappingArms();
        QVERIFY(curves.arms.size() == 2);
        SimulationArmCurve fixed = curves.arms.at(0);
        fixed.arm = QStringLiteral("fixed");
        curves.arms[1] = fixed;
        QCustomPlot plot;
        QCOMPARE(SimulationPlot::populate(&plot, curves, false), 2);
        QList<QCPGraph *> means; // the legend's lines, arm by arm
        for (int i = 0; i < plot.legend->itemCount(); ++i) {
            auto *item = qobject_cast<QCPPlottableLegendItem *>(plot.legend->item(i));
            QVERIFY(item);
            means.append(qobject_cast<QCPGraph *>(item->plottable()));
        }
        QCOMPARE(means.size(), 2);
        QVERIFY(means.at(0)->name().startsWith(SimulationPlot::armLabel(curves.arms.at(0).arm)));
        QVERIFY(means.at(0)->layer()->index() > means.at(1)->layer()->index());
        QCOMPARE(means.at(0)->pen().style(), Qt::SolidLine);
        QVERIFY(means.at(1)->pen().style() != Qt::SolidLine);
        const QCPScatterStyle first = means.at(0)->scatterStyle(), second = means.at(1)->scatterStyle();
        QVERIFY(first.shape() != second.shape());
        QVERIFY(second.size() > first.size());
        QCOMPARE(second.brush().style(), Qt::NoBrush);
    }

    // The 95 % bands: cut to the quantity's range (attainment 0–1, calls
    // from 0), each edge outlined in its arm's colour with its own dash, the
    // fill light enough that the other arm's band shows through.
    void simulationBandsStayInRangeAndReadable()
    {
        QCustomPlot plot;
        const SimulationCurves curves = overlappingArms();
        QCOMPARE(SimulationPlot::populate(&plot, curves, false), 2);
        const QList<QCPAxisRect *> panels = plot.axisRects();
        QCOMPARE(panels.size(), 2);
        // Some mean + ci of the fixture goes past 1: the band must not.
        bool pastOne = false;
        for (const SimulationArmCurve &c : curves.arms) {
            for (qsizetype t = 0; t < c.iterations.size(); ++t)
                pastOne = pastOne || c.attainmentMean.at(t) + c.attainmentCi95.at(t) > 1.0;
        }
        QVERIFY(pastOne);
        QSet<int> edgeStyles;
        int bands = 0;
        for (int i = 0; i < plot.plottableCount(); ++i) {
            auto *graph = qobject_cast<QCPGraph *>(plot.plottable(i));
            QVERIFY(graph);
            const bool attainment = graph->keyAxis()->axisRect() == panels.at(0);
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
                QVERIFY2(it->value >= 0.0, qPrintable(QString::number(it->value)));
                if (attainment)
                    QVERIFY2(it->value <= 1.0, qPrintable(QString::number(it->value)));
            }
            if (graph->channelFillGraph()) {
                ++bands;
                // The band's fill is light; both its edges are drawn.
                QVERIFY2(graph->brush().color().alpha() <= 60, qPrintable(QString::number(graph->brush().color().alpha())));
                QVERIFY(graph->pen().style() != Qt::NoPen);
                QCOMPARE(graph->channelFillGraph()->pen(), graph->pen());
                if (attainment)
                    edgeStyles.insert(int(graph->pen().style()));
                // In the arm's colour, one of the Okabe–Ito set.
                const QColor edge = graph->pen().color();
                bool okabeIto = false;
                for (int k = 0; k < 8; ++k)
                    okabeIto = okabeIto || PlotStyle::seriesColor(k).rgb() == edge.rgb();
                QVERIFY(okabeIto);
            }
        }
        QCOMPARE(bands, 4);          // two arms, two panels
        QCOMPARE(edgeStyles.size(), 2); // the arms' edges differ without colour too
        QVERIFY(plot.yAxis->range().upper <= 1.05);
    }

    // Frontiers: the attainment axis fits the points drawn (curves near 1
    // stay apart), 0–1 when asked; each version's shading a tint of its
    // colour on a layer under every curve, the largest region behind.
    void frontierAxisFitsTheData()
    {
        QCustomPlot plot;
        const QString world = m_worlds.first().name;
        QVERIFY(PlotStyle::populateFrontier(&plot, m_frontier, world, false) >= 2);
        double low = 1e9, high = -1e9;
        for (const FrontierSeries &s : std::as_const(m_frontier)) {
            for (const EpisodeResult &e : s.result->sweepOf(world)->episodes) {
                low = std::min(low, e.attainment);
                high = std::max(high, e.attainment);
            }
        }
        const QCPRange fitted = plot.yAxis->range();
        QVERIFY2(fitted.lower <= low && fitted.upper >= high, qPrintable(QStringLiteral("%1–%2").arg(fitted.lower).arg(fitted.upper)));
        QCOMPARE(fitted.lower, PlotStyle::fittedAttainmentRange(low, high).lower);
        // Points close to 1 take the whole height instead of one pixel row.
        const QCPRange nearOne = PlotStyle::fittedAttainmentRange(0.985, 1.0);
        QVERIFY(nearOne.lower > 0.9 && nearOne.lower < 0.985 && nearOne.upper > 1.0 && nearOne.upper <= 1.05);
        const QCPRange flat = PlotStyle::fittedAttainmentRange(1.0, 1.0);
        QVERIFY(flat.size() >= 0.02 && flat.contains(1.0));
        QCOMPARE(PlotStyle::fittedAttainmentRange(0.0, 1.0).lower, 0.0);

        QCPLayer *fills = plot.layer(QStringLiteral("fills"));
        QVERIFY(fills);
        QVERIFY(fills->index() < plot.layer(QStringLiteral("main"))->index());
        QList<QColor> tints;
        for (QCPLayerable *l : fills->children()) {
            auto *area = qobject_cast<QCPCurve *>(l);
            QVERIFY(area);
            tints.append(area->brush().color());
        }
        QCOMPARE(tints.size(), m_frontier.size());
        QVERIFY(tints.at(0).rgb() != tints.at(1).rgb());
        for (const QColor &c : std::as_const(tints))
            QVERIFY2(c.alpha() >= 200, "a tint that lets the others blend through turns grey");

        PlotStyle::populateFrontier(&plot, m_frontier, world, false, PlotStyle::AttainmentAxis::Full);
        QCOMPARE(plot.yAxis->range().lower, 0.0);
        QCOMPARE(plot.yAxis->range().upper, 1.05);
    }

    // Series colours tell apart on paper and screen (issue 53: a pale
    // yellow on white, two similar oranges): the first eight at least 3:1
    // against white, no two closer than ΔE 30 in CIELAB; later ones 3:1 on
    // white and never a repeat.
    void seriesColoursTellApart()
    {
        auto lab = [](const QColor &c) {
            auto linear = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
            const double r = linear(c.redF()), g = linear(c.greenF()), b = linear(c.blueF());
            const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, y = 0.2126 * r + 0.7152 * g + 0.0722 * b,
                         z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
            auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
            return std::array<double, 3>{116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
        };
        QSet<QRgb> seen;
        for (int i = 0; i < 40; ++i) {
            const QColor c = PlotStyle::seriesColor(i);
            QVERIFY2(PlotStyle::contrastOnWhite(c) >= 3.0, qPrintable(QStringLiteral("%1: %2").arg(i).arg(c.name())));
            QVERIFY2(!seen.contains(c.rgb()), qPrintable(c.name()));
            seen.insert(c.rgb());
        }
        QVERIFY(PlotStyle::contrastOnWhite(QColor(0xf0, 0xe4, 0x42)) < 1.5); // the yellow it replaced
        for (int i = 0; i < 8; ++i) {
            for (int j = i + 1; j < 8; ++j) {
                const auto a = lab(PlotStyle::seriesColor(i)), b = lab(PlotStyle::seriesColor(j));
                const double dE = std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
                QVERIFY2(dE >= 30, qPrintable(QStringLiteral("%1 and %2: ΔE %3").arg(PlotStyle::seriesColor(i).name(), PlotStyle::seriesColor(j).name()).arg(dE)));
            }
        }
    }

    // Frontiers: each version its own dash and marker shape besides its
    // colour, and a version whose frontier is exactly another's says so in
    // its legend entry (issue 53: five ticked curves lay on one another).
    void frontierVersionsApartWithoutColour()
    {
        QList<FrontierSeries> series = m_frontier;
        series.append({QStringLiteral("twin"), m_frontier.first().result});
        QCustomPlot plot;
        const QString world = m_worlds.first().name;
        QCOMPARE(PlotStyle::populateFrontier(&plot, series, world, false), series.size());
        QList<QCPCurve *> stairs;
        QList<QCPGraph *> filled;
        for (int i = 0; i < plot.plottableCount(); ++i) {
            if (auto *c = qobject_cast<QCPCurve *>(plot.plottable(i)); c && c->pen().style() != Qt::NoPen)
                stairs.append(c);
            if (auto *g = qobject_cast<QCPGraph *>(plot.plottable(i)); g && g->scatterStyle().brush().color() == g->scatterStyle().pen().color())
                filled.append(g);
        }
        QCOMPARE(stairs.size(), series.size());
        QCOMPARE(filled.size(), series.size());
        QSet<int> styles, shapes;
        for (QCPCurve *c : std::as_const(stairs))
            styles.insert(int(c->pen().style()));
        for (QCPGraph *g : std::as_const(filled))
            shapes.insert(int(g->scatterStyle().shape()));
        QCOMPARE(styles.size(), int(series.size()));
        QCOMPARE(shapes.size(), int(series.size()));
        QVERIFY2(stairs.last()->name().contains(QStringLiteral("(the same frontier as %1)").arg(series.first().name)),
                 qPrintable(stairs.last()->name()));
        for (qsizetype i = 0; i + 1 < stairs.size(); ++i)
            QVERIFY2(!stairs.at(i)->name().contains(QStringLiteral("the same frontier")), qPrintable(stairs.at(i)->name()));
    }

    // On screen a legend inside the plot takes a corner of the data area
    // where no drawn line passes, and moves again when the data change
    // (issue 53: legends covered curves in the anytime and Compare plots).
    void screenLegendKeepsClearOfTheCurves()
    {
        QCustomPlot plot;
        plot.resize(640, 360);
        // Low along the bottom until the last calls: the default bottom-right corner is taken.
        const QList<AnytimeSeries> late = {
            {QStringLiteral("late climber"), {{1, 0.05}, {18, 0.1}, {19, 1.0}}, -1},
            {QStringLiteral("later climber"), {{2, 0.04}, {19, 0.08}, {20, 0.9}}, -1}};
        PlotStyle::populateAnytime(&plot, late, 20, false);
        plot.replot();
        auto linesUnderLegend = [&plot] {
            const QRectF legend = QRectF(plot.legend->outerRect());
            int under = 0;
            for (int i = 0; i < plot.graphCount(); ++i) {
                QCPGraph *g = plot.graph(i);
                if (g->pen().style() == Qt::NoPen)
                    continue;
                std::optional<QPointF> last;
                for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
                    const QPointF p(g->keyAxis()->coordToPixel(it->key), g->valueAxis()->coordToPixel(it->value));
                    if (last) {
                        const QPointF corner(p.x(), last->y());
                        for (double t = 0; t <= 1.0; t += 0.01)
                            under += legend.contains(*last + (corner - *last) * t) + legend.contains(corner + (p - corner) * t);
                    }
                    last = p;
                }
            }
            return under;
        };
        QCOMPARE(plot.legend->layout(), static_cast<QCPLayout *>(plot.axisRect()->insetLayout()));
        QVERIFY(plot.axisRect()->rect().contains(plot.legend->outerRect()));
        QCOMPARE(linesUnderLegend(), 0);
        QVERIFY(plot.axisRect()->insetLayout()->insetAlignment(0) != (Qt::AlignBottom | Qt::AlignRight));

        // Early climbers fill the top-left: the legend goes elsewhere, still clear.
        const QList<AnytimeSeries> early = {{QStringLiteral("early climber"), {{1, 0.9}, {2, 1.0}}, -1}};
        PlotStyle::populateAnytime(&plot, early, 20, false);
        plot.replot();
        QCOMPARE(linesUnderLegend(), 0);
        QVERIFY(plot.axisRect()->insetLayout()->insetAlignment(0) & Qt::AlignBottom);
    }

    // `plot frontier --full-axis` draws 0–1; the option means nothing to other figures.
    void fullAxisOption()
    {
        QTemporaryDir dir;
        QString o, e;
        QTextStream outStream(&o), errStream(&e);
        QCOMPARE(runPlotCommand({QStringLiteral("frontier"), QStringLiteral("--world"), fixture("tiny-iter1.json"), QStringLiteral("--full-axis"),
                                 QStringLiteral("--out"), dir.filePath(QStringLiteral("f.svg"))},
                                outStream, errStream),
                 0);
        QCOMPARE(runPlotCommand({QStringLiteral("tree"), QStringLiteral("--world"), fixture("tiny-iter1.json"), QStringLiteral("--full-axis"),
                                 QStringLiteral("--out"), dir.filePath(QStringLiteral("t.svg"))},
                                outStream, errStream),
                 2);
        errStream.flush();
        QVERIFY2(e.contains(QStringLiteral("--full-axis")), qPrintable(e));
    }

    void paintRestoresScreenLayout()
    {
        QCustomPlot plot;
        plot.resize(900, 500);
        populate(&plot, QStringLiteral("frontier"));
        const QString name = plot.plottable(1)->name();
        const QString title = plot.yAxis->label();
        QCOMPARE(plot.legend->layout(), static_cast<QCPLayout *>(plot.axisRect()->insetLayout()));
        QImage image(320, 240, QImage::Format_ARGB32);
        QCPPainter painter(&image);
        FigureLayout::paint(&plot, painter, QRectF(0, 0, 320, 240));
        painter.end();
        // The screen keeps its long legend entries and titles, and the legend inside the plot.
        QVERIFY(name.contains(QStringLiteral("value")));
        QCOMPARE(plot.plottable(1)->name(), name);
        QCOMPARE(plot.yAxis->label(), title);
        QCOMPARE(plot.legend->layout(), static_cast<QCPLayout *>(plot.axisRect()->insetLayout()));
        QCOMPARE(plot.plotLayout()->rowCount(), 1);
    }

    void treeLayout_data()
    {
        QTest::addColumn<QString>("world");
        QTest::addColumn<QSizeF>("mm");
        QTest::addColumn<QString>("suffix");
        for (const char *world : {"tiny-iter1", "tiny-iter2"}) {
            for (const QSizeF mm : {QSizeF(85, 60), QSizeF(175, 90), QSizeF(85, 70)}) {
                for (const char *suffix : {"pdf", "svg", "png"})
                    QTest::addRow("%s-%gx%g-%s", world, mm.width(), mm.height(), suffix) << QString::fromLatin1(world) << mm
                                                                                          << QString::fromLatin1(suffix);
            }
        }
    }

    void treeLayout()
    {
        QFETCH(QString, world);
        QFETCH(QSizeF, mm);
        QFETCH(QString, suffix);
        TreeRenderer renderer;
        for (const WorldEntry &w : std::as_const(m_worlds)) {
            if (w.name == world)
                renderer.setTree(w.tree);
        }
        QVERIFY(renderer.tree());
        const QRectF page(QPointF(0, 0), FigureExport::logicalSize(mm));
        const QFont font = TreeRenderer::figureFont(QGuiApplication::font(), page);
        QVERIFY(font.pointSizeF() >= FigureLayout::MinPointSize && font.pointSizeF() <= FigureLayout::MaxPointSize);
        const TreeFigureGeometry g = renderer.figureGeometry(QFontMetricsF(font), page);
        QVERIFY(!g.legend.isEmpty());
        QVERIFY2(page.contains(g.legend), "legend off the page");
        QVERIFY2(page.contains(g.treeRect), "tree off the page");
        QVERIFY2(!g.legend.intersects(g.treeRect), "legend over the tree");
        // The tree fills its room along one side and has most of the page.
        QVERIFY(g.treeRect.width() >= 0.98 * g.treeArea.width() || g.treeRect.height() >= 0.98 * g.treeArea.height());
        QVERIFY2(g.treeArea.width() * g.treeArea.height() >= 0.45 * page.width() * page.height(), "tree area too small");

        QTemporaryDir dir;
        const QString path = dir.filePath(world + QLatin1Char('.') + suffix);
        FigureExport::Options options;
        options.sizeMm = mm;
        options.dpi = 200;
        const Result<Done> written = FigureExport::write(
            path, options, [&renderer](QPainter &p, const QRectF &area) { renderer.paintFigure(p, area); });
        QVERIFY2(written, qPrintable(written.error));
        checkFile(path, mm, options.dpi);
    }

    void integerTicker_data()
    {
        QTest::addColumn<double>("upper");
        QTest::addColumn<double>("step");
        QTest::addRow("3") << 3.0 << 1.0;
        QTest::addRow("12") << 12.0 << 5.0;
        QTest::addRow("20") << 20.0 << 5.0;
        QTest::addRow("37") << 37.0 << 10.0;
        QTest::addRow("1000") << 1000.0 << 200.0;
    }

    void integerTicker()
    {
        QFETCH(double, upper);
        QFETCH(double, step);
        IntegerTicker ticker;
        ticker.setTickCount(5);
        QVector<double> ticks;
        QVector<QString> labels;
        ticker.generate(QCPRange(0, upper), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr, &labels);
        QVERIFY(ticks.size() >= 2);
        QCOMPARE(ticks.at(1) - ticks.at(0), step);
        for (qsizetype i = 0; i < ticks.size(); ++i) {
            QCOMPARE(ticks.at(i), std::round(ticks.at(i)));
            QVERIFY2(!labels.at(i).contains(QLatin1Char('.')), qPrintable(labels.at(i)));
        }
    }

    void selectByNameOrIteration()
    {
        QCOMPARE(selectWorld(m_worlds, QStringLiteral("tiny-iter2")).valueOr(-1), 1);
        QCOMPARE(selectWorld(m_worlds, QStringLiteral("2")).valueOr(-1), 1);
        QCOMPARE(selectWorld(m_worlds, QStringLiteral("1")).valueOr(-1), 0);
        const Result<int> seven = selectWorld(m_worlds, QStringLiteral("7"));
        QVERIFY(!seven);
        QVERIFY2(seven.error.contains(QStringLiteral("iteration 7")), qPrintable(seven.error));
        const Result<int> nope = selectWorld(m_worlds, QStringLiteral("nope"));
        QVERIFY(!nope);
        QVERIFY2(nope.error.contains(QStringLiteral("nope")) && nope.error.contains(QStringLiteral("tiny-iter1")),
                 qPrintable(nope.error));
        // Two worlds with the same iteration number: the number alone is ambiguous.
        QList<WorldEntry> twins = m_worlds;
        twins.append({QStringLiteral("copy"), QString(), 0, m_worlds.at(1).tree});
        const Result<int> two = selectWorld(twins, QStringLiteral("2"));
        QVERIFY(!two);
        QVERIFY2(two.error.contains(QStringLiteral("copy")) && two.error.contains(QStringLiteral("tiny-iter2")),
                 qPrintable(two.error));
    }

    void commandSelectsIterationAndWritesCaptionTable()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("frontier.pdf"));
        QString o, e;
        QTextStream outStream(&o), errStream(&e);
        const int rc = runPlotCommand({QStringLiteral("frontier"), QStringLiteral("--world"), fixture("tiny-iter1.json"),
                                       QStringLiteral("--world"), fixture("tiny-iter2.json"), QStringLiteral("--select"),
                                       QStringLiteral("2"), QStringLiteral("--width-mm"), QStringLiteral("85"),
                                       QStringLiteral("--height-mm"), QStringLiteral("60"), QStringLiteral("--out"), out},
                                      outStream, errStream);
        outStream.flush();
        errStream.flush();
        QVERIFY2(rc == 0, qPrintable(e));
        checkFile(out, QSizeF(85, 60), 300);
        const QString tablePath = dir.filePath(QStringLiteral("frontier.table.tex"));
        QVERIFY2(o.contains(tablePath), qPrintable(o));
        QFile table(tablePath);
        QVERIFY(table.open(QIODevice::ReadOnly));
        const QString tex = QString::fromUtf8(table.readAll());
        QVERIFY(tex.contains(QStringLiteral("\\begin{tabular}")));
        QVERIFY(tex.contains(QStringLiteral("builtin:portfolio")));
        QVERIFY(o.contains(QStringLiteral("Value"))); // the same table as text on stdout

        QString e2;
        QTextStream err2(&e2), out2(&o);
        QCOMPARE(runPlotCommand({QStringLiteral("tree"), QStringLiteral("--world"), fixture("tiny-iter1.json"), QStringLiteral("--select"),
                                 QStringLiteral("9"), QStringLiteral("--out"), dir.filePath(QStringLiteral("t.pdf"))},
                                out2, err2),
                 1);
        err2.flush();
        QVERIFY2(e2.contains(QStringLiteral("iteration 9")), qPrintable(e2));
    }

    // A project's frontier under its imagined valuation: a version without a
    // stored value is valued over the completions the figure's label names
    // (as `replay --project --no-store` values it), not over the revealed history.
    void projectFrontierUsesTheProjectsValuation()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("imagined.dreamrsi"));
        {
            QList<DiscoveryTree> trees;
            for (int i = 0; i < 2; ++i) {
                SynthParams p;
                p.seed = quint64(31 + i);
                p.width = 5;
                p.depth = 5;
                trees.append(SynthWorld::generate(p));
            }
            auto writer = ProjectWriter::create(path, ProjectInfo{});
            QVERIFY2(writer.ok(), qPrintable(writer.error));
            QVERIFY((*writer.value)->importTrees(trees).ok());
            ReplayConfig config;
            config.workers = 3;
            config.betas = {0.5};
            config.valuation = Valuation::Imagined;
            config.completions = 2;
            QVERIFY((*writer.value)->setReplayConfig(config).ok());
            PolicyVersion v;
            v.name = QStringLiteral("mine");
            v.code = ProjectPolicies::builtinVersions().first().code;
            QVERIFY((*writer.value)->addPolicyVersion(v).ok());
        }
        const QString csvPath = dir.filePath(QStringLiteral("frontier.csv"));
        QString o, e;
        QTextStream outStream(&o), errStream(&e);
        const int rc = runPlotCommand({QStringLiteral("frontier"), QStringLiteral("--project"), path, QStringLiteral("--versions"),
                                       QStringLiteral("mine"), QStringLiteral("--data"), csvPath, QStringLiteral("--out"),
                                       dir.filePath(QStringLiteral("frontier.svg"))},
                                      outStream, errStream);
        outStream.flush();
        errStream.flush();
        QVERIFY2(rc == 0, qPrintable(e));
        QVERIFY2(e.contains(QStringLiteral("imagined C 2")), qPrintable(e));

        ProjectReplayRequest request;
        request.project = path;
        request.policy = QStringLiteral("mine");
        request.noStore = true;
        const Result<ProjectReplayOutcome> expected = ProjectReplay::run(request);
        QVERIFY2(expected.ok(), qPrintable(expected.error));
        QCOMPARE(expected.value->result.worlds.size(), qsizetype(2 * 2));
        QHash<QString, double> value; // world → value at β 0.5, as replay --project has it
        for (const SweepResult &w : expected.value->result.worlds)
            value.insert(w.world, w.value.value_or(-1.0));

        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size() - 1, qsizetype(2 * 2)); // one β, four completions
        QSet<QString> drawn;
        for (const QString &line : lines.mid(1)) {
            const QStringList f = line.split(QLatin1Char(','));
            drawn.insert(f.at(1));
            QVERIFY2(f.at(1).contains(QStringLiteral("imagined")), qPrintable(line));
            QVERIFY2(value.contains(f.at(1)), qPrintable(line));
            QCOMPARE(f.at(10).toDouble(), value.value(f.at(1))); // the CSV round-trips doubles

        }
        QCOMPARE(drawn.size(), qsizetype(4));
    }

    // --data writes the numbers behind each figure kind as CSV with a header
    // naming the columns, one row per plotted point.
    void commandWritesTheDataBehindEachFigure_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("header");
        QTest::addRow("frontier") << QStringLiteral("frontier")
                                  << QStringLiteral("version,world,beta,calls,rounds,best_score,attainment,on_staircase,"
                                                    "world_hypervolume,world_penalty,world_value,error");
        QTest::addRow("anytime") << QStringLiteral("anytime") << QStringLiteral("series,calls,best_so_far_attainment");
        QTest::addRow("tree") << QStringLiteral("tree") << QStringLiteral("world,id,branch,attempt,seq,score,fail_class");
    }
    void commandWritesTheDataBehindEachFigure()
    {
        QFETCH(QString, kind);
        QFETCH(QString, header);
        QTemporaryDir dir;
        const QString csvPath = dir.filePath(kind + QStringLiteral(".csv"));
        QString o, e;
        QTextStream outStream(&o), errStream(&e);
        const int rc = runPlotCommand({kind, QStringLiteral("--world"), fixture("tiny-iter1.json"), QStringLiteral("--versions"),
                                       QStringLiteral("builtin:portfolio,builtin:parallel_refine"), QStringLiteral("--data"), csvPath,
                                       QStringLiteral("--out"), dir.filePath(kind + QStringLiteral(".svg"))},
                                      outStream, errStream);
        outStream.flush();
        errStream.flush();
        QVERIFY2(rc == 0, qPrintable(e));
        QVERIFY2(o.contains(csvPath), qPrintable(o));
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(lines.size() > 1);
        QCOMPARE(lines.first().trimmed(), header);
        const qsizetype columns = header.count(QLatin1Char(',')) + 1;
        auto parsed = TreeJson::readFile(fixture("tiny-iter1.json"));
        QVERIFY(parsed.ok());
        for (const QString &line : lines.mid(1))
            QVERIFY2(line.count(QLatin1Char(',')) + 1 >= columns, qPrintable(line));
        if (kind == QLatin1String("tree")) {
            QCOMPARE(lines.size() - 1, qsizetype(parsed.tree->cellCount()));
        } else if (kind == QLatin1String("frontier")) {
            // Two versions, the default five β each, in the one world.
            QCOMPARE(lines.size() - 1, qsizetype(2 * 5));
            QVERIFY(lines.at(1).startsWith(QStringLiteral("builtin:portfolio,")));
            // Every episode's point is either on the staircase (1) or not (0).
            for (const QString &line : lines.mid(1)) {
                const QString flag = line.split(QLatin1Char(',')).value(7);
                QVERIFY2(flag == QLatin1String("0") || flag == QLatin1String("1"), qPrintable(line));
            }
        } else {
            QVERIFY(lines.at(1).startsWith(QStringLiteral("builtin:portfolio")));
        }
        // An unwritable data path is an error naming it.
        QString e2;
        QTextStream err2(&e2), out2(&o);
        const QString bad = dir.filePath(QStringLiteral("missing/folder/data.csv"));
        QCOMPARE(runPlotCommand({kind, QStringLiteral("--world"), fixture("tiny-iter1.json"), QStringLiteral("--data"), bad,
                                 QStringLiteral("--out"), dir.filePath(QStringLiteral("again.svg"))},
                                out2, err2),
                 1);
        err2.flush();
        QVERIFY2(e2.contains(QStringLiteral("data.csv")), qPrintable(e2));
    }

    void figureTableFormats()
    {
        FigureTable t;
        t.header = {QStringLiteral("Version"), QStringLiteral("Value")};
        t.rows = {{QStringLiteral("a_b, c"), QStringLiteral("0.5")}};
        QCOMPARE(t.toCsv(), QStringLiteral("Version,Value\n\"a_b, c\",0.5\n"));
        QVERIFY(t.toLatex().contains(QStringLiteral("a\\_b, c & 0.5 \\\\")));
        QCOMPARE(t.toText(), QStringLiteral("Version  Value\na_b, c   0.5\n"));
    }

    void exportDialogPresetsAndPreview()
    {
        ExportDialog dialog(QStringLiteral("Frontiers"));
        QCustomPlot plot;
        populate(&plot, QStringLiteral("frontier"));
        dialog.setPreview(FigureLayout::painterFor(&plot));
        const auto presets = ExportDialog::presets();
        QCOMPARE(presets.size(), 3);
        const QList<QSizeF> expected{{85, 60}, {175, 90}, {160, 90}};
        for (int i = 0; i < presets.size(); ++i) {
            dialog.selectPreset(i);
            QCOMPARE(dialog.options().sizeMm, expected.at(i));
            const QImage preview = dialog.previewImage();
            QVERIFY(!preview.isNull());
            // Rendered at the chosen size (at the dialog's screen resolution).
            const QSize px = FigureExport::pixelSize(expected.at(i), int(std::lround(FigureExport::logicalDpi() * dialog.devicePixelRatioF())));
            QCOMPARE(preview.size(), px);
        }
        QCOMPARE(std::abs(expected.at(2).width() / expected.at(2).height() - 16.0 / 9.0) < 1e-9, true);
    }


    // The export preview at the dialog's default size, painted as into the
    // image it is rendered in (at FigureExport::logicalDpi(), text measured
    // as drawn): no two texts overlap — tick labels, axis titles, legend,
    // β labels (several β at one point share a label) — and none leaves
    // the page. tst_figures_dpi72 runs it on a 72 DPI screen, where text
    // painted at 96 DPI came out larger than measured and ran together.
    void exportPreviewTextApart_data()
    {
        QTest::addColumn<QString>("kind");
        for (const char *kind : {"frontier", "frontier-crowded", "frontier-mean", "anytime", "progress", "simulation", "tree",
                                 "world-model-3", "world-model-6"})
            QTest::newRow(kind) << QString::fromLatin1(kind);
    }

    void exportPreviewTextApart()
    {
        QFETCH(QString, kind);
        ExportDialog dialog(QStringLiteral("Figure"));
        QCustomPlot plot;
        TreeRenderer renderer;
        FigureExport::Painter paint;
        if (kind == QLatin1String("tree")) {
            renderer.setTree(m_worlds.first().tree);
            paint = [&renderer](QPainter &p, const QRectF &area) { renderer.paintFigure(p, area); };
        } else if (kind.startsWith(QLatin1String("world-model"))) {
            // First scores by direction: the directions' names are the x labels.
            QJsonArray strata;
            const QStringList names{QStringLiteral("*"), QStringLiteral("direction:hexagonal rows along the border"),
                                    QStringLiteral("direction:greedy placement from the centre outwards"),
                                    QStringLiteral("direction:random restarts"), QStringLiteral("direction:local polish of the best"),
                                    QStringLiteral("direction:shrink and regrow")};
            for (int i = 0; i < kind.mid(12).toInt(); ++i)
                strata.append(QJsonObject{{QStringLiteral("stratum"), names.at(i)},
                                          {QStringLiteral("first"), QJsonArray{0.5 + 0.01 * i, 0.6, 0.55}}});
            WorldModelPlot::populate(&plot, QJsonObject{{QStringLiteral("strata"), strata}, {QStringLiteral("cap"), 0.7}},
                                     WorldModelPlot::Panel::FirstScores, false);
            paint = FigureLayout::painterFor(&plot);
        } else {
            populate(&plot, kind);
            paint = FigureLayout::painterFor(&plot);
        }
        dialog.setPreview(paint);
        QVERIFY(!dialog.previewImage().isNull());
        const QSizeF logical = FigureExport::logicalSize(dialog.options().sizeMm);
        TextRecorder page(logical.toSize(), int(FigureExport::logicalDpi()));
        {
            QCPPainter painter(&page);
            paint(painter, QRectF(QPointF(0, 0), logical));
        }
        const QList<TextRecorder::Text> texts = page.texts();
        int numbers = 0;
        for (const TextRecorder::Text &t : texts) {
            bool isNumber = false;
            t.text.toDouble(&isNumber);
            numbers += isNumber ? 1 : 0;
            QVERIFY2(QRectF(QPointF(0, 0), logical).adjusted(-1, -1, 1, 1).contains(t.rect),
                     qPrintable(QStringLiteral("'%1' off the page").arg(t.text)));
        }
        // The tick labels were seen (the world model's x labels are names).
        QVERIFY2(numbers >= (kind == QLatin1String("tree") || kind.startsWith(QLatin1String("world-model")) ? 2 : 6),
                 qPrintable(QString::number(numbers)));
        const QString collision = TextRecorder::firstCollision(texts);
        QVERIFY2(collision.isEmpty(), qPrintable(collision));
    }
};

QTEST_MAIN(TestFigures)
#include "tst_figures.moc"
