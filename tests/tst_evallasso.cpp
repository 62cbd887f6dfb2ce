// lasso_path: the reference solver, the problem generators and the wire
// protocol, and the evaluator's verdicts on real candidates (kept to small
// problems and the quick suite so the suite stays fast on two cores).
#include "evaltestsupport.h"

#include "eval/evaluator.h"
#include "eval/lassoevaluator.h"
#include "eval/lassoproblem.h"
#include "eval/lassosolver.h"
#include "eval/taskregistry.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>

using namespace dreamrsi;

class TestEvalLasso : public QObject
{
    Q_OBJECT

private:
    /// The test candidate with a flags line prepended, written to the temp dir.
    QString variant(const QString &name, const QString &flags);
    EvaluationResult evaluateSmall(const QString &candidate, int timingSeeds = 1, const QString &reference = {});

    QTemporaryDir m_dir;

private slots:
    void suites();
    void generatorIsDeterministic();
    void wireProtocolLayout();
    void referenceSolverIsOptimal_data();
    void referenceSolverIsOptimal();
    void scikitLearnOracleStopsAsItDoes_data();
    void scikitLearnOracleStopsAsItDoes();
    void referenceNames();
    void decodeAndCheck();
    void flagsAreFiltered();
    void correctCandidateAccepted();
    void slowCandidateAcceptedWithLowerScore();
    void worseObjectiveRejected();
    void slightlyWorseObjectiveAccepted();
    void wrongOutputSizeRejected();
    void defaultReferenceIsScikitLearns();
    void unknownReferenceRejected();
    void unsolvedLambdaRejected();
    void candidateRunsWithOneThread();
    void quickSuiteEndToEnd();
    void initialProgramIsValid();
};

QString TestEvalLasso::variant(const QString &name, const QString &flags)
{
    QFile base(evaltest::dataPath(QStringLiteral("candidates/lasso_cd.cpp")));
    if (!base.open(QIODevice::ReadOnly))
        return {};
    const QString path = m_dir.path() + QLatin1Char('/') + name + QStringLiteral(".cpp");
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return {};
    if (!flags.isEmpty())
        out.write(QStringLiteral("// dreamrsi-flags: %1\n").arg(flags).toUtf8());
    out.write(base.readAll());
    return path;
}

EvaluationResult TestEvalLasso::evaluateSmall(const QString &candidate, int timingSeeds, const QString &reference)
{
    EvaluationRequest request;
    request.task = QStringLiteral("lasso_path");
    request.candidatePath = candidate;
    request.options = {
        {QStringLiteral("problems"),
         QJsonArray{QJsonObject{{QStringLiteral("n"), 60}, {QStringLiteral("p"), 40}, {QStringLiteral("generator"), QStringLiteral("gaussian")}},
                    QJsonObject{{QStringLiteral("n"), 80}, {QStringLiteral("p"), 30}, {QStringLiteral("generator"), QStringLiteral("corr_high")}}}},
        {QStringLiteral("timing_seeds"), timingSeeds}};
    if (!reference.isEmpty())
        request.options.insert(QStringLiteral("reference"), reference);
    return Evaluator::evaluate(request);
}

void TestEvalLasso::suites()
{
    const QList<LassoProblem::Spec> full = LassoProblem::fullSuite();
    QCOMPARE(full.size(), 17);
    QCOMPARE(full.first().label(), QStringLiteral("n=200 p=100 gaussian"));
    QCOMPARE(full.at(12).label(), QStringLiteral("n=2000 p=3000 sparse"));
    QCOMPARE(full.last().label(), QStringLiteral("n=1000 p=1000 corr_high"));
    // The quick suite is a subset of the full one.
    for (const LassoProblem::Spec &q : LassoProblem::quickSuite()) {
        QVERIFY(std::any_of(full.cbegin(), full.cend(), [&](const LassoProblem::Spec &f) { return f.label() == q.label(); }));
    }
}

void TestEvalLasso::generatorIsDeterministic()
{
    const LassoProblem::Spec spec{30, 50, QStringLiteral("sparse")};
    const LassoProblem a = LassoProblem::generate(spec, 7);
    const LassoProblem b = LassoProblem::generate(spec, 7);
    const LassoProblem c = LassoProblem::generate(spec, 8);
    QVERIFY(a.X == b.X && a.y == b.y && a.lambdas == b.lambdas);
    QVERIFY(a.X != c.X);
    // Sparse rows: at most 20 nonzeros each.
    for (int i = 0; i < a.X.rows(); ++i)
        QVERIFY((a.X.row(i).array() != 0.0).count() <= 20);
    // λ path: 50 values from max|Xᵀy|/n down to 1 % of it.
    QCOMPARE(a.lambdas.size(), 50);
    QCOMPARE(a.lambdas(0), (a.X.transpose() * a.y).cwiseAbs().maxCoeff() / 30.0);
    QVERIFY(std::abs(a.lambdas(49) / a.lambdas(0) - 0.01) < 1e-12);
    // Correlated rows: neighbouring columns correlate near ρ = 0.9.
    const LassoProblem corr = LassoProblem::generate({4000, 3, QStringLiteral("corr_high")}, 1);
    const double rho = corr.X.col(0).dot(corr.X.col(1)) / std::sqrt(corr.X.col(0).squaredNorm() * corr.X.col(1).squaredNorm());
    QVERIFY2(std::abs(rho - 0.9) < 0.02, qPrintable(QString::number(rho)));
}

void TestEvalLasso::wireProtocolLayout()
{
    const LassoProblem problem = LassoProblem::generate({3, 2, QStringLiteral("gaussian")}, 1);
    const QByteArray bytes = problem.encode();
    QCOMPARE(bytes.size(), 12 + 8 * (3 * 2 + 3 + 50));
    qint32 header[3];
    std::memcpy(header, bytes.constData(), 12);
    QCOMPARE(header[0], 3);
    QCOMPARE(header[1], 2);
    QCOMPARE(header[2], 50);
    double x01 = 0;
    std::memcpy(&x01, bytes.constData() + 12 + 8, 8); // row-major: X(0, 1) second
    QCOMPARE(x01, problem.X(0, 1));
    double y0 = 0;
    std::memcpy(&y0, bytes.constData() + 12 + 8 * 6, 8);
    QCOMPARE(y0, problem.y(0));
}

void TestEvalLasso::referenceSolverIsOptimal_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("p");
    QTest::addColumn<QString>("generator");
    QTest::newRow("gaussian p > n") << 40 << 120 << QStringLiteral("gaussian");
    QTest::newRow("corr_high") << 100 << 60 << QStringLiteral("corr_high");
    QTest::newRow("sparse") << 120 << 200 << QStringLiteral("sparse");
    QTest::newRow("dense_sol") << 100 << 50 << QStringLiteral("dense_sol");
}

void TestEvalLasso::referenceSolverIsOptimal()
{
    QFETCH(int, n);
    QFETCH(int, p);
    QFETCH(QString, generator);
    const LassoProblem problem = LassoProblem::generate({n, p, generator}, 3);
    const LassoSolver::Path path = LassoSolver::solve(problem);
    QCOMPARE(path.coefficients.rows(), p);
    QCOMPARE(path.coefficients.cols(), 50);
    // At λ_max the solution is 0.
    QVERIFY(path.coefficients.col(0).isZero());
    for (int k = 0; k < 50; ++k) {
        QVERIFY(path.gaps(k) <= 1e-11);
        const Eigen::VectorXd w = path.coefficients.col(k);
        QCOMPARE(LassoSolver::dualityGap(problem, w, problem.lambdas(k)), path.gaps(k));
        // KKT: |X_jᵀr|/n ≤ λ everywhere, = λ·sign(w_j) on the support.
        const Eigen::VectorXd g = problem.X.transpose() * (problem.y - problem.X * w) / double(n);
        const double lambda = problem.lambdas(k);
        for (int j = 0; j < p; ++j) {
            QVERIFY(std::abs(g(j)) <= lambda * (1 + 1e-5) + 1e-9);
            if (w(j) != 0.0)
                QVERIFY(std::abs(g(j) - lambda * (w(j) > 0 ? 1 : -1)) <= 1e-5 * lambda + 1e-9);
        }
    }
}

void TestEvalLasso::scikitLearnOracleStopsAsItDoes_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("p");
    QTest::addColumn<QString>("generator");
    QTest::newRow("dense sweeps (n ≤ p)") << 60 << 300 << QStringLiteral("gaussian");
    QTest::newRow("Gram sweeps (n > p)") << 200 << 40 << QStringLiteral("corr_high");
}

void TestEvalLasso::scikitLearnOracleStopsAsItDoes()
{
    QFETCH(int, n);
    QFETCH(int, p);
    QFETCH(QString, generator);
    const LassoProblem problem = LassoProblem::generate({n, p, generator}, 4);
    const LassoSolver::Path oracle = LassoSolver::solveLikeScikitLearn(problem);
    const LassoSolver::Path exact = LassoSolver::solve(problem);
    QCOMPARE(oracle.coefficients.cols(), 50);
    QVERIFY(oracle.coefficients.col(0).isZero());
    // Its stopping rule: duality gap < tol·‖y‖² in scikit-learn's units (n × ours).
    const double bound = 1e-4 * problem.y.squaredNorm() / double(n);
    for (int k = 0; k < 50; ++k) {
        QVERIFY(oracle.converged(k));
        QVERIFY(oracle.sweeps(k) >= 1 && oracle.sweeps(k) <= 1000);
        QVERIFY2(oracle.gaps(k) < bound, qPrintable(QString::number(k)));
        const double certified = LassoSolver::dualityGap(problem, oracle.coefficients.col(k), problem.lambdas(k));
        QVERIFY(certified < bound * (1 + 1e-9));
        // Never below the optimum (which `exact` is within 1e-11 of); above it by at most its certified gap.
        QVERIFY(oracle.objectives(k) >= exact.objectives(k) - 1e-11);
        QVERIFY(oracle.objectives(k) - exact.objectives(k) <= certified + 1e-12);
    }
    // It stops early (that is what the benchmark judges against): somewhere it is measurably above the optimum.
    QVERIFY((oracle.objectives - exact.objectives).maxCoeff() > 1e-9);
    // One sweep limit: a single sweep per λ leaves it unconverged and says so.
    const LassoSolver::Path capped = LassoSolver::solveLikeScikitLearn(problem, 1e-4, 1);
    QVERIFY(capped.sweeps.maxCoeff() == 1);
    QVERIFY(!capped.converged.all());
}

void TestEvalLasso::referenceNames()
{
    using R = LassoEvaluator::Reference;
    QCOMPARE(LassoEvaluator::referenceName(R::ScikitLearnDefault), QStringLiteral("sklearn-default"));
    QCOMPARE(LassoEvaluator::referenceName(R::Exact), QStringLiteral("exact"));
    QVERIFY(LassoEvaluator::parseReference(QStringLiteral("exact")) == R::Exact);
    QVERIFY(LassoEvaluator::parseReference(QStringLiteral("sklearn-default")) == R::ScikitLearnDefault);
    QVERIFY(!LassoEvaluator::parseReference(QStringLiteral("sklearn")));
    const QHash<QString, QString> env = LassoEvaluator::candidateEnvironment();
    for (const char *name : {"OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"})
        QCOMPARE(env.value(QLatin1String(name)), QStringLiteral("1"));
}

void TestEvalLasso::decodeAndCheck()
{
    const LassoProblem problem = LassoProblem::generate({50, 20, QStringLiteral("gaussian")}, 2);
    const LassoSolver::Path path = LassoSolver::solve(problem);
    const QByteArray bytes(reinterpret_cast<const char *>(path.coefficients.data()), 20 * 50 * 8);
    const Result<Eigen::MatrixXd> decoded = LassoEvaluator::decode(bytes, 20, 50);
    QVERIFY2(decoded, qPrintable(decoded.error));
    const Eigen::MatrixXd *w = &*decoded.value;
    QVERIFY(*w == path.coefficients);
    const Result<Eigen::MatrixXd> short8 = LassoEvaluator::decode(bytes.left(bytes.size() - 8), 20, 50);
    QVERIFY(!short8);
    QVERIFY(short8.error.contains(QStringLiteral("expected exactly 8000 bytes")));
    double worst = 0;
    QVERIFY(LassoEvaluator::check(problem, *w, path.objectives, 1e-6, &worst).isEmpty());
    Eigen::MatrixXd bad = *w;
    bad(3, 10) = std::numeric_limits<double>::quiet_NaN();
    QVERIFY(LassoEvaluator::check(problem, bad, path.objectives, 1e-6, &worst).contains(QStringLiteral("not finite")));
    // All zeros is far from optimal below λ_max.
    const QString why = LassoEvaluator::check(problem, Eigen::MatrixXd::Zero(20, 50), path.objectives, 1e-6, &worst);
    QVERIFY2(why.contains(QStringLiteral("at λ index 1")), qPrintable(why));
    QVERIFY2(why.contains(QStringLiteral("reference sklearn-default")), qPrintable(why));
    QVERIFY2(why.contains(QStringLiteral("every coefficient at this λ is 0")), qPrintable(why));
    const QString exactWhy = LassoEvaluator::check(problem, Eigen::MatrixXd::Zero(20, 50), path.objectives, 1e-6, &worst,
                                                   LassoEvaluator::Reference::Exact);
    QVERIFY2(exactWhy.contains(QStringLiteral("reference exact: coordinate descent to a duality gap of 1e-11")),
             qPrintable(exactWhy));
}

void TestEvalLasso::flagsAreFiltered()
{
    const Result<QStringList> ok = LassoEvaluator::requestedFlags("// dreamrsi-flags: -funroll-loops -DFAST=1 -mavx2\nint main(){}");
    QVERIFY2(ok, qPrintable(ok.error));
    QCOMPARE(*ok.value, (QStringList{QStringLiteral("-funroll-loops"), QStringLiteral("-DFAST=1"), QStringLiteral("-mavx2")}));
    const Result<QStringList> output = LassoEvaluator::requestedFlags("// dreamrsi-flags: -o /etc/passwd\n");
    QVERIFY(!output);
    QVERIFY(output.error.contains(QStringLiteral("'-o'")));
    QVERIFY(!LassoEvaluator::requestedFlags("// dreamrsi-flags: -fplugin=x;rm\n"));
}

void TestEvalLasso::correctCandidateAccepted()
{
    const EvaluationResult r = evaluateSmall(variant(QStringLiteral("fast"), {}));
    QVERIFY2(r.isSuccess(), qPrintable(r.error.value_or(QString())));
    QCOMPARE(r.nValid.value_or(-1), 2);
    QCOMPARE(r.nTotal.value_or(-1), 2);
    QVERIFY(r.metrics.value(QStringLiteral("max_objective_excess")).toDouble() < 1e-9);
    const double geomean = r.metrics.value(QStringLiteral("geomean_ms")).toDouble();
    QVERIFY(geomean > 0);
    QCOMPARE(*r.score, 1.0 / geomean);
}

void TestEvalLasso::slowCandidateAcceptedWithLowerScore()
{
    const EvaluationResult slow = evaluateSmall(variant(QStringLiteral("slow"), QStringLiteral("-DDREAMRSI_SLOW")));
    QVERIFY2(slow.isSuccess(), qPrintable(slow.error.value_or(QString())));
    // Every timed run sleeps 150 ms: the minimum over seeds cannot hide it.
    const QJsonObject ms = slow.metrics.value(QStringLiteral("problem_ms")).toObject();
    for (auto it = ms.constBegin(); it != ms.constEnd(); ++it)
        QVERIFY2(it.value().toDouble() >= 150.0, qPrintable(it.key()));
    QVERIFY(*slow.score <= 1.0 / 150.0);
}

void TestEvalLasso::worseObjectiveRejected()
{
    // Exactly 1e-5 above the optimum: too much for the exact reference.
    const EvaluationResult r = evaluateSmall(variant(QStringLiteral("worse"), QStringLiteral("-DDREAMRSI_WORSE=1e-5")), 1,
                                             QStringLiteral("exact"));
    QCOMPARE(r.failClass, QStringLiteral("correctness"));
    QCOMPARE(r.metrics.value(QStringLiteral("reference")).toString(), QStringLiteral("exact"));
    QVERIFY2(r.error->contains(QStringLiteral("reference exact")), qPrintable(*r.error));
    QVERIFY(!r.valid);
    QVERIFY(!r.score);
    QVERIFY2(r.error->contains(QStringLiteral("exceeds the reference by 1e-05")), qPrintable(*r.error));
    QCOMPARE(r.nValid.value_or(-1), 0);
}

void TestEvalLasso::slightlyWorseObjectiveAccepted()
{
    // 1e-7 worse than the optimum is inside the 1e-6 gap the task allows.
    const EvaluationResult r = evaluateSmall(variant(QStringLiteral("close"), QStringLiteral("-DDREAMRSI_WORSE=1e-7")), 1,
                                             QStringLiteral("exact"));
    QVERIFY2(r.isSuccess(), qPrintable(r.error.value_or(QString())));
    const double excess = r.metrics.value(QStringLiteral("max_objective_excess")).toDouble();
    QVERIFY2(std::abs(excess - 1e-7) < 1e-9, qPrintable(QString::number(excess)));
}

void TestEvalLasso::wrongOutputSizeRejected()
{
    const EvaluationResult r = evaluateSmall(variant(QStringLiteral("short"), QStringLiteral("-DDREAMRSI_SHORT")));
    QCOMPARE(r.failClass, QStringLiteral("correctness"));
    QVERIFY2(r.error->contains(QStringLiteral("expected exactly 16000 bytes")), qPrintable(*r.error));
}

void TestEvalLasso::defaultReferenceIsScikitLearns()
{
    const QString candidate = variant(QStringLiteral("fast"), {});
    const EvaluationResult byDefault = evaluateSmall(candidate);
    const EvaluationResult exact = evaluateSmall(candidate, 1, QStringLiteral("exact"));
    QVERIFY2(byDefault.isSuccess(), qPrintable(byDefault.error.value_or(QString())));
    QVERIFY2(exact.isSuccess(), qPrintable(exact.error.value_or(QString())));
    QCOMPARE(byDefault.metrics.value(QStringLiteral("reference")).toString(), QStringLiteral("sklearn-default"));
    QCOMPARE(exact.metrics.value(QStringLiteral("reference")).toString(), QStringLiteral("exact"));
    QCOMPARE(byDefault.metrics.value(QStringLiteral("threads")).toInt(), 1);
    // The oracle stops early, so a converged candidate is at least as far below it.
    const double againstOracle = byDefault.metrics.value(QStringLiteral("max_objective_excess")).toDouble();
    const double againstExact = exact.metrics.value(QStringLiteral("max_objective_excess")).toDouble();
    QVERIFY2(againstOracle <= againstExact + 1e-15, qPrintable(QStringLiteral("%1 vs %2").arg(againstOracle).arg(againstExact)));
    // The two references' objectives differ where the oracle stopped early.
    const LassoProblem problem = LassoProblem::generate({80, 30, QStringLiteral("corr_high")}, 0);
    const Eigen::VectorXd oracle = LassoEvaluator::referenceObjectives(problem);
    const Eigen::VectorXd converged = LassoEvaluator::referenceObjectives(problem, LassoEvaluator::Reference::Exact);
    QVERIFY((oracle - converged).minCoeff() >= -1e-11);
    QVERIFY(oracle == LassoSolver::solveLikeScikitLearn(problem).objectives);
    QVERIFY(converged == LassoSolver::solve(problem).objectives);
}

void TestEvalLasso::unknownReferenceRejected()
{
    const EvaluationResult r = evaluateSmall(variant(QStringLiteral("fast"), {}), 1, QStringLiteral("glmnet"));
    QCOMPARE(r.failClass, QStringLiteral("env"));
    QVERIFY2(r.error->contains(QStringLiteral("unknown reference 'glmnet' (sklearn-default or exact)")), qPrintable(*r.error));
}

void TestEvalLasso::unsolvedLambdaRejected()
{
    // λ index 30 is skipped: the previous λ's coefficients are written there.
    const EvaluationResult r = evaluateSmall(variant(QStringLiteral("unsolved"), QStringLiteral("-DDREAMRSI_UNSOLVED=30")));
    QCOMPARE(r.failClass, QStringLiteral("correctness"));
    QVERIFY(!r.valid);
    QCOMPARE(r.metrics.value(QStringLiteral("reference")).toString(), QStringLiteral("sklearn-default"));
    const QString error = r.error.value_or(QString());
    for (const QString &part : {QStringLiteral("n=60 p=40 gaussian: at λ index 30 (λ="), QStringLiteral("exceeds the reference by"),
                                QStringLiteral("reference sklearn-default: scikit-learn lasso_path's defaults"),
                                QStringLiteral("the coefficients are those of λ index 29 unchanged, so it looks unsolved")})
        QVERIFY2(error.contains(part), qPrintable(error));
}

void TestEvalLasso::candidateRunsWithOneThread()
{
    const EvaluationResult r = evaluateSmall(variant(QStringLiteral("onethread"), QStringLiteral("-DDREAMRSI_ONE_THREAD")));
    QVERIFY2(r.isSuccess(), qPrintable(r.error.value_or(QString())));
}

void TestEvalLasso::quickSuiteEndToEnd()
{
    EvaluationRequest request;
    request.task = QStringLiteral("lasso_path");
    request.candidatePath = variant(QStringLiteral("fast"), {});
    request.options = {{QStringLiteral("suite"), QStringLiteral("quick")}, {QStringLiteral("timing_seeds"), 1}};
    const EvaluationResult r = Evaluator::evaluate(request);
    QVERIFY2(r.isSuccess(), qPrintable(r.error.value_or(QString())));
    QCOMPARE(r.nTotal.value_or(-1), 4);
    QCOMPARE(r.metrics.value(QStringLiteral("problem_ms")).toObject().size(), 4);
}

void TestEvalLasso::initialProgramIsValid()
{
    const EvaluationResult r = evaluateSmall(TaskRegistry::initialProgram(QStringLiteral("lasso_path")));
    QVERIFY2(r.isSuccess(), qPrintable(r.error.value_or(QString())));
}

QTEST_GUILESS_MAIN(TestEvalLasso)
#include "tst_evallasso.moc"
