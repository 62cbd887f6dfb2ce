// Exactness of the math tasks (circle packing, C3, sums and differences), the
// score JSON, and end-to-end evaluation of real candidates and of each task's
// initial program.
#include "evaltestsupport.h"

#include "eval/autocorrelationevaluator.h"
#include "commands.h"
#include "eval/circlepackingevaluator.h"
#include "eval/evaluationresult.h"
#include "eval/evaluator.h"
#include "eval/sumsdifferencesevaluator.h"
#include "eval/taskevaluator.h"
#include "eval/taskregistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cmath>
#include <limits>

using namespace dreamrsi;
using Circle = CirclePackingEvaluator::Circle;

namespace {

/// 26 circles of radius 1/16 on the exact grid of centres (2i+1)/16: every
/// number and every distance is exact in binary, neighbours touch exactly.
QList<Circle> touchingGrid()
{
    QList<Circle> circles;
    for (int i = 0; i < 8 && circles.size() < 26; ++i)
        for (int j = 0; j < 8 && circles.size() < 26; ++j)
            circles.append({(2 * i + 1) / 16.0, (2 * j + 1) / 16.0, 1 / 16.0});
    return circles;
}

} // namespace

class TestEvalTasks : public QObject
{
    Q_OBJECT

private slots:
    void registryKnowsEveryTask();
    void packingValid();
    void packingOverlapRejectedAtTolerance();
    void packingRejections_data();
    void packingRejections();
    void packingParsesEveryShape();
    void c3ByHand_data();
    void c3ByHand();
    void c3Rejections_data();
    void c3Rejections();
    void sumsDifferencesByHand_data();
    void sumsDifferencesByHand();
    void sumsDifferencesRejections_data();
    void sumsDifferencesRejections();
    void scoreJsonRoundTrip();
    void endToEnd_data();
    void endToEnd();
    void evaluateCommand();
    void tasksCommand();
    void customTaskFolder();
};

void TestEvalTasks::registryKnowsEveryTask()
{
    const QStringList names = TaskRegistry::names();
    QCOMPARE(names.size(), 5);
    for (const QString &name : names) {
        const auto task = TaskRegistry::create(name);
        QVERIFY(task);
        QCOMPARE(task->name(), name);
        QVERIFY(!task->summary().isEmpty());
        const QString dir = TaskRegistry::taskDirectory(name);
        QVERIFY2(QFile::exists(dir + QStringLiteral("/problem.md")), qPrintable(name));
        QVERIFY2(!TaskRegistry::initialProgram(name).isEmpty(), qPrintable(name));
    }
    QVERIFY(!TaskRegistry::create(QStringLiteral("no_such_task")));
}

void TestEvalTasks::packingValid()
{
    const EvaluationResult r = CirclePackingEvaluator::score(touchingGrid(), 26, 0.0);
    QVERIFY2(r.isSuccess(), qPrintable(r.error.value_or(QString())));
    QVERIFY(r.valid);
    QCOMPARE(*r.score, 26.0 / 16.0);
    QCOMPARE(r.metrics.value(QStringLiteral("sum_radii")).toDouble(), 1.625);
    QCOMPARE(r.metrics.value(QStringLiteral("min_slack")).toDouble(), 0.0);
}

void TestEvalTasks::packingOverlapRejectedAtTolerance()
{
    QList<Circle> circles = touchingGrid();
    // Circle 1 sits right above circle 0 (centres 1/16 and 3/16 apart by 1/8):
    // move it down by 3e-7, so the pair overlaps by 3e-7.
    circles[1].y -= 3e-7;
    const EvaluationResult strict = CirclePackingEvaluator::score(circles, 26, 1e-7);
    QCOMPARE(strict.failClass, QStringLiteral("correctness"));
    QVERIFY(!strict.valid);
    QVERIFY(!strict.score);
    QVERIFY2(strict.error->contains(QStringLiteral("circles 0 and 1 overlap by 3e-07")), qPrintable(*strict.error));
    QCOMPARE(CirclePackingEvaluator::score(circles, 26, 0.0).failClass, QStringLiteral("correctness"));
    // A loose tolerance admits it: the reason the default is strict.
    QVERIFY(CirclePackingEvaluator::score(circles, 26, 1e-6).isSuccess());
}

void TestEvalTasks::packingRejections_data()
{
    QTest::addColumn<int>("index");
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("y");
    QTest::addColumn<double>("r");
    QTest::addColumn<QString>("reason");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("NaN radius") << 5 << 5 / 16.0 << 11 / 16.0 << nan << QStringLiteral("not finite");
    QTest::newRow("infinite x") << 5 << std::numeric_limits<double>::infinity() << 0.5 << 0.0 << QStringLiteral("not finite");
    QTest::newRow("negative radius") << 25 << 15 / 16.0 << 15 / 16.0 << -0.01 << QStringLiteral("negative radius");
    QTest::newRow("leaves the square") << 25 << 15 / 16.0 << 0.99 << 1 / 16.0 << QStringLiteral("leaves the unit square");
}

void TestEvalTasks::packingRejections()
{
    QFETCH(int, index);
    QFETCH(double, x);
    QFETCH(double, y);
    QFETCH(double, r);
    QFETCH(QString, reason);
    QList<Circle> circles = touchingGrid();
    circles[index] = {x, y, r};
    const EvaluationResult result = CirclePackingEvaluator::score(circles, 26, 0.0);
    QCOMPARE(result.failClass, QStringLiteral("correctness"));
    QVERIFY2(result.error->contains(reason), qPrintable(*result.error));
}

void TestEvalTasks::packingParsesEveryShape()
{
    const auto triples = CirclePackingEvaluator::parse(
        QJsonDocument::fromJson(R"({"circles": [[0.5, 0.5, 0.25]]})").object()).value;
    QVERIFY(triples && triples->size() == 1 && triples->first().r == 0.25);
    const auto split = CirclePackingEvaluator::parse(
        QJsonDocument::fromJson(R"({"centers": [[0.5, 0.5], [0.1, 0.1]], "radii": [0.2, 0.05]})").object()).value;
    QVERIFY(split && split->size() == 2 && split->at(1).x == 0.1);
    const auto pair = CirclePackingEvaluator::parse(QJsonDocument::fromJson(R"([[0.5, 0.5]])").array());
    QVERIFY(!pair);
    QVERIFY(pair.error.contains(QStringLiteral("circle 0")));
    const EvaluationResult wrongCount = CirclePackingEvaluator::score(touchingGrid().mid(0, 25), 26, 0.0);
    QVERIFY(wrongCount.error->contains(QStringLiteral("expected 26 circles, got 25")));
}

void TestEvalTasks::c3ByHand_data()
{
    QTest::addColumn<QList<double>>("heights");
    QTest::addColumn<double>("c3");
    // [1, 1]: b = [1, 2, 1], max 2, Σa = 2: C3 = 2·2·2 / 4 = 2.
    QTest::newRow("two equal steps") << QList<double>{1, 1} << 2.0;
    // [1, 2, 1]: b = [1, 4, 6, 4, 1], max 6, Σa = 4: C3 = 2·3·6 / 16 = 2.25.
    QTest::newRow("tent") << QList<double>{1, 2, 1} << 2.25;
    // [1, -1, 2]: b = [1, -2, 5, -4, 4], max|b| = 5, Σa = 2: C3 = 2·3·5 / 4 = 7.5.
    QTest::newRow("negative step") << QList<double>{1, -1, 2} << 7.5;
    // [2, -3]: b = [4, -12, 9]; max|b| = 12 (|max b| would be 9), Σa = -1: C3 = 2·2·12 / 1 = 48.
    QTest::newRow("max of absolute values") << QList<double>{2, -3} << 48.0;
    // A single step: b = [a²], C3 = 2·1·a²/a² = 2.
    QTest::newRow("single step") << QList<double>{0.5} << 2.0;
}

void TestEvalTasks::c3ByHand()
{
    QFETCH(QList<double>, heights);
    QFETCH(double, c3);
    const EvaluationResult r = AutocorrelationEvaluator::score(std::vector<double>(heights.cbegin(), heights.cend()));
    QVERIFY2(r.isSuccess(), qPrintable(r.error.value_or(QString())));
    QCOMPARE(r.metrics.value(QStringLiteral("C3")).toDouble(), c3);
    QCOMPARE(*r.score, 1.0 / c3);
}

void TestEvalTasks::c3Rejections_data()
{
    QTest::addColumn<QList<double>>("heights");
    QTest::addColumn<QString>("reason");
    QTest::newRow("empty") << QList<double>{} << QStringLiteral("no heights");
    QTest::newRow("NaN") << QList<double>{1, std::numeric_limits<double>::quiet_NaN()} << QStringLiteral("not finite");
    QTest::newRow("huge") << QList<double>{1, 2e10} << QStringLiteral("exceeds 1e10");
    QTest::newRow("zero integral") << QList<double>{1, -1} << QStringLiteral("too close to 0");
    // (Σa·0.5/n)² = (1e-4·0.5/2)² = 6.25e-10 < 1e-9.
    QTest::newRow("tiny integral") << QList<double>{1, -1 + 1e-4} << QStringLiteral("too close to 0");
}

void TestEvalTasks::c3Rejections()
{
    QFETCH(QList<double>, heights);
    QFETCH(QString, reason);
    const EvaluationResult r = AutocorrelationEvaluator::score(std::vector<double>(heights.cbegin(), heights.cend()));
    QCOMPARE(r.failClass, QStringLiteral("correctness"));
    QVERIFY2(r.error->contains(reason), qPrintable(*r.error));
}

void TestEvalTasks::sumsDifferencesByHand_data()
{
    QTest::addColumn<QList<double>>("set");
    QTest::addColumn<int>("size");
    QTest::addColumn<int>("sums");
    QTest::addColumn<int>("differences");
    // {0, 1, 3}: A+A = {0,1,2,3,4,6}, A−A = {−3,…,3}.
    QTest::newRow("0 1 3") << QList<double>{0, 1, 3} << 3 << 6 << 7;
    // Duplicates and integral floats are merged: still {0, 1, 3}.
    QTest::newRow("duplicates") << QList<double>{3, 0, 1, 3.0, 1 + 1e-12} << 3 << 6 << 7;
    // {0, 1}: A+A = {0,1,2}, A−A = {−1,0,1}: C = 1.
    QTest::newRow("pair") << QList<double>{0, 1} << 2 << 3 << 3;
    // Conway's MSTD set: 26 sums, 25 differences.
    QTest::newRow("Conway") << QList<double>{0, 2, 3, 4, 7, 11, 12, 14} << 8 << 26 << 25;
    // An arithmetic progression of 4: 7 sums, 7 differences.
    QTest::newRow("progression") << QList<double>{-10, -5, 0, 5} << 4 << 7 << 7;
}

void TestEvalTasks::sumsDifferencesByHand()
{
    QFETCH(QList<double>, set);
    QFETCH(int, size);
    QFETCH(int, sums);
    QFETCH(int, differences);
    const EvaluationResult r = SumsDifferencesEvaluator::score(std::vector<double>(set.cbegin(), set.cend()));
    QVERIFY2(r.isSuccess(), qPrintable(r.error.value_or(QString())));
    QCOMPARE(r.metrics.value(QStringLiteral("size")).toInt(), size);
    QCOMPARE(r.metrics.value(QStringLiteral("sums")).toInt(), sums);
    QCOMPARE(r.metrics.value(QStringLiteral("differences")).toInt(), differences);
    const double expected = std::log(double(sums) / size) / std::log(double(differences) / size);
    QCOMPARE(*r.score, expected);
}

void TestEvalTasks::sumsDifferencesRejections_data()
{
    QTest::addColumn<QList<double>>("set");
    QTest::addColumn<QString>("reason");
    QTest::newRow("one element") << QList<double>{4, 4, 4} << QStringLiteral("at least 2");
    QTest::newRow("not an integer") << QList<double>{0, 0.5} << QStringLiteral("not an integer");
    QTest::newRow("out of range") << QList<double>{0, 1e6 + 1} << QStringLiteral("outside");
    QTest::newRow("just past 1e6") << QList<double>{0, 1, 1e6 + 1e-10} << QStringLiteral("outside");
    QTest::newRow("just past -1e6") << QList<double>{0, 1, -1e6 - 1e-10} << QStringLiteral("outside");
    QList<double> big;
    for (int i = 0; i < 513; ++i)
        big << i * i;
    QTest::newRow("513 elements") << big << QStringLiteral("at most 512");
    QTest::newRow("NaN") << QList<double>{0, std::numeric_limits<double>::quiet_NaN()} << QStringLiteral("not finite");
}

void TestEvalTasks::sumsDifferencesRejections()
{
    QFETCH(QList<double>, set);
    QFETCH(QString, reason);
    const EvaluationResult r = SumsDifferencesEvaluator::score(std::vector<double>(set.cbegin(), set.cend()));
    QCOMPARE(r.failClass, QStringLiteral("correctness"));
    QVERIFY2(r.error->contains(reason), qPrintable(*r.error));
}

void TestEvalTasks::scoreJsonRoundTrip()
{
    EvaluationResult r = EvaluationResult::success(1.5, {{QStringLiteral("C3"), 0.6667}});
    r.nValid = 4;
    r.nTotal = 5;
    const QJsonObject json = r.toJson();
    QCOMPARE(json.keys().size(), 7);
    QCOMPARE(json.value(QStringLiteral("fail_class")).toString(), QStringLiteral("ok"));
    QVERIFY(json.value(QStringLiteral("error")).isNull());
    const Result<EvaluationResult> back = EvaluationResult::fromJson(json);
    QVERIFY2(back, qPrintable(back.error));
    QCOMPARE(back.value->toJson(), json);
    const EvaluationResult failed = EvaluationResult::failure("timeout", QStringLiteral("too slow"));
    QVERIFY(failed.toJson().value(QStringLiteral("score")).isNull());
    QCOMPARE(EvaluationResult::fromJson(failed.toJson()).value->failClass, QStringLiteral("timeout"));
    const Result<EvaluationResult> fractional = EvaluationResult::fromJson(QJsonObject{{QStringLiteral("n_valid"), 1.5}});
    QVERIFY(!fractional);
    QVERIFY(fractional.error.contains(QStringLiteral("n_valid")));
    const EvaluationResult empty = EvaluationResult::fromEvaluatorOutput("\n\n");
    QCOMPARE(empty.failClass, QStringLiteral("env"));
}

void TestEvalTasks::endToEnd_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("candidate");
    QTest::addColumn<double>("score");
    QTest::addColumn<QString>("metric");
    QTest::addColumn<double>("metricValue");
    // Python, C++ and each task's initial program, through the sandbox.
    QTest::newRow("packing grid (Python)") << QStringLiteral("circle_packing_26")
                                           << evaltest::dataPath(QStringLiteral("candidates/packing_grid.py"))
                                           << 25 * 0.0999999 + (std::sqrt(2.0) * 0.1 - 0.1) * 0.999
                                           << QStringLiteral("n") << 26.0;
    QTest::newRow("C3 tent (C++)") << QStringLiteral("c3_autocorrelation")
                                   << evaltest::dataPath(QStringLiteral("candidates/c3_steps.cpp")) << 1 / 2.25
                                   << QStringLiteral("C3") << 2.25;
    QTest::newRow("sums {0,1,3} (Python)") << QStringLiteral("sums_differences")
                                           << evaltest::dataPath(QStringLiteral("candidates/sums_small.py"))
                                           << std::log(2.0) / std::log(7.0 / 3.0) << QStringLiteral("sums") << 6.0;
    QTest::newRow("initial packing") << QStringLiteral("circle_packing_26") << QString() << -1.0 << QStringLiteral("n") << 26.0;
    QTest::newRow("initial C3") << QStringLiteral("c3_autocorrelation") << QString() << 0.5 << QStringLiteral("C3") << 2.0;
    QTest::newRow("initial sums") << QStringLiteral("sums_differences") << QString()
                                  << std::log(26.0 / 8) / std::log(25.0 / 8) << QStringLiteral("size") << 8.0;
}

void TestEvalTasks::endToEnd()
{
    QFETCH(QString, task);
    QFETCH(QString, candidate);
    QFETCH(double, score);
    QFETCH(QString, metric);
    QFETCH(double, metricValue);
    EvaluationRequest request;
    request.task = task;
    request.candidatePath = candidate.isEmpty() ? TaskRegistry::initialProgram(task) : candidate;
    const EvaluationResult r = Evaluator::evaluate(request);
    QVERIFY2(r.isSuccess(), qPrintable(r.error.value_or(QString())));
    QVERIFY(r.valid);
    if (score >= 0)
        QVERIFY2(std::abs(*r.score - score) <= 1e-12 * std::abs(score),
                 qPrintable(QStringLiteral("%1 vs %2").arg(*r.score, 0, 'g', 17).arg(score, 0, 'g', 17)));
    else
        QVERIFY(*r.score > 0.0);
    QCOMPARE(r.metrics.value(metric).toDouble(), metricValue);
}

void TestEvalTasks::evaluateCommand()
{
    QString outText;
    QString errText;
    QTextStream out(&outText);
    QTextStream err(&errText);
    const int rc = runEvaluateCommand({QStringLiteral("--task"), QStringLiteral("c3_autocorrelation"),
                                       evaltest::dataPath(QStringLiteral("candidates/c3_steps.cpp"))},
                                      out, err);
    out.flush();
    QCOMPARE(rc, 0);
    const QJsonObject json = QJsonDocument::fromJson(outText.section(QLatin1Char('\n'), 0, 0).toUtf8()).object();
    QCOMPARE(json.value(QStringLiteral("fail_class")).toString(), QStringLiteral("ok"));
    QCOMPARE(json.value(QStringLiteral("score")).toDouble(), 1 / 2.25);
    QVERIFY(outText.contains(QStringLiteral("C3: 2.25")));

    outText.clear();
    const int failed = runEvaluateCommand({QStringLiteral("--task"), QStringLiteral("circle_packing_26"),
                                           evaltest::dataPath(QStringLiteral("hostile/not_json.py")), QStringLiteral("--json")},
                                          out, err);
    out.flush();
    QCOMPARE(failed, 1);
    QCOMPARE(QJsonDocument::fromJson(outText.toUtf8()).object().value(QStringLiteral("fail_class")).toString(),
             QStringLiteral("correctness"));

    outText.clear();
    const int custom = runEvaluateCommand({QStringLiteral("--command"), QStringLiteral("echo '{\"score\": 3}'")}, out, err);
    out.flush();
    QCOMPARE(custom, 0);
    QVERIFY(outText.startsWith(QStringLiteral("{\"error\":null")));

    for (const QStringList &bad : {QStringList{QStringLiteral("--task"), QStringLiteral("nope"), QStringLiteral("x.py")},
                                   QStringList{QStringLiteral("--task"), QStringLiteral("circle_packing_26")},
                                   QStringList{QStringLiteral("--task"), QStringLiteral("circle_packing_26"), QStringLiteral("/no/such.py")},
                                   QStringList{QStringLiteral("--option"), QStringLiteral("novalue")},
                                   QStringList{}}) {
        errText.clear();
        QCOMPARE(runEvaluateCommand(bad, out, err), 2);
        err.flush();
        QVERIFY(!errText.isEmpty());
    }
}

void TestEvalTasks::tasksCommand()
{
    QString outText;
    QString errText;
    QTextStream out(&outText);
    QTextStream err(&errText);
    QCOMPARE(runTasksCommand({}, out, err), 0);
    out.flush();
    for (const QString &name : TaskRegistry::names())
        QVERIFY2(outText.contains(name), qPrintable(name));
    QVERIFY(outText.contains(QStringLiteral("initial program: initial.py")));
}

void TestEvalTasks::customTaskFolder()
{
    EvaluationRequest request;
    request.task = evaltest::dataPath(QStringLiteral("customtask"));
    request.candidatePath = evaltest::dataPath(QStringLiteral("customtask/initial.py"));
    const EvaluationResult r = Evaluator::evaluate(request);
    QVERIFY2(r.isSuccess(), qPrintable(r.error.value_or(QString())));
    QCOMPARE(*r.score, 1 / (1 + std::abs(3.0 - M_PI)));
    QCOMPARE(r.metrics.value(QStringLiteral("value")).toDouble(), 3.0);

    request.task = evaltest::dataPath(QStringLiteral("candidates"));
    const EvaluationResult noSpec = Evaluator::evaluate(request);
    QCOMPARE(noSpec.failClass, QStringLiteral("env"));
    QVERIFY2(noSpec.error->contains(QStringLiteral("task.json")), qPrintable(*noSpec.error));
}

QTEST_GUILESS_MAIN(TestEvalTasks)
#include "tst_evaltasks.moc"
