// The Progress extraction (core/project/projectprogress): calls add up
// across iterations in order, the best so far only rises and only counts
// finite scores, each iteration is marked where it starts, and two runs
// (a Dream-RSI run and its fixed baseline) give two independent curves.
#include "progresstestdata.h"
#include "project/projectprogress.h"

#include <QtTest>

#include <limits>

using namespace dreamrsi;
using namespace dreamrsi::progresstest;

namespace {
constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
constexpr double Inf = std::numeric_limits<double>::infinity();
} // namespace

class TestProgress : public QObject
{
    Q_OBJECT

private slots:
    void cumulativeCallsAcrossIterations()
    {
        const QList<IterationData> its{iteration(11, {1.0, std::nullopt, 3.0}), iteration(12, {2.0, 5.0}),
                                       iteration(13, {0.5, 4.0, 1.0, 2.0})};
        const ProgressCurve c = ProjectProgress::curveOf(QStringLiteral("dream"), its);
        QCOMPARE(c.label, QStringLiteral("dream"));
        QCOMPARE(int(c.totalCalls), 9);
        QVERIFY(c.best);
        QCOMPARE(*c.best, 5.0);
        // Improvements at calls 1, 3 and 5, then the best held to the last call.
        const QList<ProgressPoint> expected{{1, 1.0}, {3, 3.0}, {5, 5.0}, {9, 5.0}};
        QCOMPARE(c.points, expected);
        QCOMPARE(c.marks.size(), 3);
        QCOMPARE(c.marks.at(0).index, 1);
        QCOMPARE(int(c.marks.at(0).iteration), 11);
        QCOMPARE(int(c.marks.at(0).startCalls), 0);
        QCOMPARE(int(c.marks.at(0).calls), 3);
        QCOMPARE(c.marks.at(0).bestAfter, std::optional<double>(3.0));
        QCOMPARE(c.marks.at(1).index, 2);
        QCOMPARE(int(c.marks.at(1).startCalls), 3);
        QCOMPARE(int(c.marks.at(1).calls), 2);
        QCOMPARE(c.marks.at(1).bestAfter, std::optional<double>(5.0));
        QCOMPARE(c.marks.at(2).index, 3);
        QCOMPARE(int(c.marks.at(2).iteration), 13);
        QCOMPARE(int(c.marks.at(2).startCalls), 5);
        QCOMPARE(int(c.marks.at(2).calls), 4);
        QCOMPARE(c.marks.at(2).bestAfter, std::optional<double>(5.0));
    }

    // Scores of different tasks are not comparable: one curve per task, calls
    // counted within the task, iterations without a task join the first one.
    void oneCurvePerTask()
    {
        IterationData a = iteration(1, {2.6, 2.63});
        a.info.task = QStringLiteral("circle_packing_26");
        IterationData b = iteration(2, {0.68});
        b.info.task = QStringLiteral("c3_autocorrelation");
        IterationData c = iteration(3, {2.64});
        c.info.task = QStringLiteral("circle_packing_26");
        IterationData untagged = iteration(4, {2.5});
        const QList<ProgressCurve> curves = ProjectProgress::curvesByTask(QStringLiteral("run"), {a, b, c, untagged});
        QCOMPARE(curves.size(), 2);
        QCOMPARE(curves.at(0).label, QStringLiteral("run — circle_packing_26"));
        QCOMPARE(curves.at(1).label, QStringLiteral("run — c3_autocorrelation"));
        QCOMPARE(int(curves.at(0).totalCalls), 4);
        QCOMPARE(curves.at(0).marks.size(), 3);
        QCOMPARE(*curves.at(0).best, 2.64);
        QCOMPARE(int(curves.at(1).totalCalls), 1);
        QCOMPARE(*curves.at(1).best, 0.68);
        // One task: the curve keeps the run's label.
        const QList<ProgressCurve> single = ProjectProgress::curvesByTask(QStringLiteral("run"), {a, c});
        QCOMPARE(single.size(), 1);
        QCOMPARE(single.first().label, QStringLiteral("run"));
    }

    void bestSoFarNeverFalls()
    {
        const QList<IterationData> its{iteration(1, {3.0, 1.0, 2.0, 3.0}), iteration(2, {-1.0, 3.5, 0.0})};
        const ProgressCurve c = ProjectProgress::curveOf(QStringLiteral("r"), its);
        for (qsizetype i = 1; i < c.points.size(); ++i) {
            QVERIFY(c.points.at(i).calls > c.points.at(i - 1).calls);
            QVERIFY(c.points.at(i).best >= c.points.at(i - 1).best);
        }
        // A tie does not make a new step: 3.0 first reached at call 1.
        const QList<ProgressPoint> expected{{1, 3.0}, {6, 3.5}, {7, 3.5}};
        QCOMPARE(c.points, expected);
    }

    void onlyFiniteScoresCount()
    {
        const QList<IterationData> its{iteration(1, {NaN, -Inf, Inf, std::nullopt, -2.0}), iteration(2, {NaN})};
        const ProgressCurve c = ProjectProgress::curveOf(QStringLiteral("r"), its);
        QCOMPARE(int(c.totalCalls), 6);
        QCOMPARE(c.best, std::optional<double>(-2.0));
        const QList<ProgressPoint> expected{{5, -2.0}, {6, -2.0}};
        QCOMPARE(c.points, expected);
        QCOMPARE(c.marks.at(0).bestAfter, std::optional<double>(-2.0));
    }

    void noScoreAtAll()
    {
        const QList<IterationData> its{iteration(1, {std::nullopt, std::nullopt}), iteration(2, {})};
        const ProgressCurve c = ProjectProgress::curveOf(QStringLiteral("r"), its);
        QCOMPARE(int(c.totalCalls), 2);
        QVERIFY(!c.best);
        QVERIFY(c.points.isEmpty());
        QCOMPARE(c.marks.size(), 2);
        QVERIFY(!c.marks.at(0).bestAfter);
        // An empty iteration (a round stopped before its first call) still has its mark.
        QCOMPARE(int(c.marks.at(1).startCalls), 2);
        QCOMPARE(int(c.marks.at(1).calls), 0);
        QVERIFY(ProjectProgress::curveOf(QStringLiteral("e"), {}).marks.isEmpty());
    }

    void cellsTakenInSeqOrder()
    {
        IterationData d = iteration(1, {1.0, 4.0, 2.0});
        std::reverse(d.cells.begin(), d.cells.end());
        const ProgressCurve c = ProjectProgress::curveOf(QStringLiteral("r"), {d});
        const QList<ProgressPoint> expected{{1, 1.0}, {2, 4.0}, {3, 4.0}};
        QCOMPARE(c.points, expected);
    }

    void twoRuns()
    {
        // Same budgets (3 calls an iteration): the dreaming run improves
        // after its first dream, the fixed baseline stays where it was.
        const QList<IterationData> dream{iteration(1, {1.0, 2.0, 1.5}), iteration(2, {2.5, 3.0, 2.0}),
                                         iteration(3, {4.0, 3.0, 3.5})};
        const QList<IterationData> fixed{iteration(1, {1.0, 2.0, 1.5}), iteration(2, {1.0, 1.8, 2.0}),
                                         iteration(3, {2.1, 1.0, 0.5})};
        const ProgressCurve a = ProjectProgress::curveOf(QStringLiteral("Dream-RSI"), dream);
        const ProgressCurve b = ProjectProgress::curveOf(QStringLiteral("Fixed"), fixed);
        QCOMPARE(a.totalCalls, b.totalCalls);
        QCOMPARE(*a.best, 4.0);
        QCOMPARE(*b.best, 2.1);
        for (qsizetype i = 0; i < a.marks.size(); ++i) {
            QCOMPARE(a.marks.at(i).startCalls, b.marks.at(i).startCalls);
            QCOMPARE(a.marks.at(i).startCalls, qint64(3 * i));
        }
        const QList<ProgressPoint> ea{{1, 1.0}, {2, 2.0}, {4, 2.5}, {5, 3.0}, {7, 4.0}, {9, 4.0}};
        const QList<ProgressPoint> eb{{1, 1.0}, {2, 2.0}, {7, 2.1}, {9, 2.1}};
        QCOMPARE(a.points, ea);
        QCOMPARE(b.points, eb);
    }
};

QTEST_GUILESS_MAIN(TestProgress)
#include "tst_progress.moc"
