#include "lassoevaluator.h"

#include "candidateprogram.h"
#include "evaluationcontext.h"
#include "failureclassifier.h"
#include "lassosolver.h"

#include "model/cell.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QMutex>
#include <QRegularExpression>

#include <cmath>
#include <cstring>
#include <limits>
#include <variant>

namespace dreamrsi {

QString LassoEvaluator::name() const
{
    return QStringLiteral("lasso_path");
}

QString LassoEvaluator::summary() const
{
    return QStringLiteral("Lasso regularization path in C++: objective within 1e-6 of scikit-learn's lasso_path, "
                          "score 1/geomean(ms)");
}

QString LassoEvaluator::referenceName(Reference reference)
{
    return reference == Reference::Exact ? QStringLiteral("exact") : QStringLiteral("sklearn-default");
}

std::optional<LassoEvaluator::Reference> LassoEvaluator::parseReference(const QString &name)
{
    for (Reference r : {Reference::ScikitLearnDefault, Reference::Exact}) {
        if (name == referenceName(r))
            return r;
    }
    return std::nullopt;
}

namespace {

QString referenceDescription(LassoEvaluator::Reference reference)
{
    if (reference == LassoEvaluator::Reference::Exact)
        return QStringLiteral("exact: coordinate descent to a duality gap of 1e-11");
    return QStringLiteral("sklearn-default: scikit-learn lasso_path's defaults, cyclic coordinate descent, "
                          "tol 1e-4, max_iter 1000");
}

} // namespace

QHash<QString, QString> LassoEvaluator::candidateEnvironment()
{
    const QString one = QStringLiteral("1");
    return {{QStringLiteral("OMP_NUM_THREADS"), one},      {QStringLiteral("OMP_THREAD_LIMIT"), one},
            {QStringLiteral("OPENBLAS_NUM_THREADS"), one}, {QStringLiteral("MKL_NUM_THREADS"), one},
            {QStringLiteral("GOTO_NUM_THREADS"), one},     {QStringLiteral("BLIS_NUM_THREADS"), one},
            {QStringLiteral("VECLIB_MAXIMUM_THREADS"), one}};
}

Result<QStringList> LassoEvaluator::requestedFlags(const QByteArray &source)
{
    static const QRegularExpression line(QStringLiteral("^\\s*//\\s*dreamrsi-flags:(.*)$"),
                                         QRegularExpression::MultilineOption);
    static const QRegularExpression allowed(QStringLiteral("^-(f|m|O|D|W)[A-Za-z0-9_=.,+-]*$"));
    QStringList flags;
    auto it = line.globalMatch(QString::fromUtf8(source));
    while (it.hasNext()) {
        const QStringList tokens = it.next().captured(1).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        for (const QString &token : tokens) {
            if (!allowed.match(token).hasMatch())
                return Result<QStringList>::failure(
                    QStringLiteral("compile flag '%1' is not allowed (only -f…, -m…, -O…, -D…, -W…)").arg(token));
            flags << token;
        }
    }
    return Result<QStringList>::success(flags);
}

Result<Eigen::MatrixXd> LassoEvaluator::decode(const QByteArray &output, int p, int nLambda)
{
    const qint64 expected = qint64(p) * nLambda * qint64(sizeof(double));
    if (output.size() != expected)
        return Result<Eigen::MatrixXd>::failure(QStringLiteral("expected exactly %1 bytes on stdout (%2×%3 float64), got %4")
                                                    .arg(expected)
                                                    .arg(p)
                                                    .arg(nLambda)
                                                    .arg(output.size()));
    Eigen::MatrixXd w(p, nLambda);
    std::memcpy(w.data(), output.constData(), size_t(expected)); // Eigen's default storage is column-major
    return Result<Eigen::MatrixXd>::success(std::move(w));
}

QString LassoEvaluator::check(const LassoProblem &problem, const Eigen::MatrixXd &candidate,
                              const Eigen::VectorXd &referenceObjectives, double tolerance, double *worstGap,
                              Reference reference)
{
    *worstGap = -std::numeric_limits<double>::infinity();
    for (Eigen::Index k = 0; k < candidate.cols(); ++k) {
        for (Eigen::Index j = 0; j < candidate.rows(); ++j) {
            if (!std::isfinite(candidate(j, k)))
                return QStringLiteral("coefficient %1 at λ index %2 is not finite").arg(j).arg(k);
        }
        const double gap = problem.objective(candidate.col(k), problem.lambdas(k)) - referenceObjectives(k);
        *worstGap = std::max(*worstGap, gap);
        if (gap <= tolerance)
            continue;
        QString why = QStringLiteral("at λ index %1 (λ=%2) the objective exceeds the reference by %3 (> %4; reference %5)")
                          .arg(k)
                          .arg(problem.lambdas(k), 0, 'g', 6)
                          .arg(gap, 0, 'g', 4)
                          .arg(tolerance, 0, 'g', 3)
                          .arg(referenceDescription(reference));
        // Say what an unsolved λ looks like, the usual cause of a large excess.
        if (candidate.col(k).isZero(0.0) && k > 0)
            why += QStringLiteral("; every coefficient at this λ is 0, so it looks unsolved");
        else if (k > 0 && candidate.col(k) == candidate.col(k - 1))
            why += QStringLiteral("; the coefficients are those of λ index %1 unchanged, so it looks unsolved").arg(k - 1);
        return why;
    }
    return {};
}

Eigen::VectorXd LassoEvaluator::referenceObjectives(const LassoProblem &problem, Reference reference)
{
    static QMutex mutex;
    static QHash<QString, Eigen::VectorXd> memo;
    const QString key = problem.spec.label() + QStringLiteral(" seed=%1 ").arg(problem.seed) + referenceName(reference);
    {
        QMutexLocker lock(&mutex);
        const auto it = memo.constFind(key);
        if (it != memo.cend())
            return *it;
    }
    const Eigen::VectorXd objectives = reference == Reference::Exact ? LassoSolver::solve(problem).objectives
                                                                     : LassoSolver::solveLikeScikitLearn(problem).objectives;
    QMutexLocker lock(&mutex);
    if (memo.size() > 256)
        memo.clear();
    memo.insert(key, objectives);
    return objectives;
}

namespace {

/// The problems to run: the options' "problems" list, else the suite the
/// option "suite" names (full or quick); a bad problem, an unknown suite or
/// no problems is the evaluation's failure.
std::variant<QList<LassoProblem::Spec>, EvaluationResult> readSuite(const EvaluationContext &context)
{
    QList<LassoProblem::Spec> suite;
    const QJsonValue problems = context.options().value(QStringLiteral("problems"));
    if (problems.isArray()) {
        for (const QJsonValue &v : problems.toArray()) {
            const LassoProblem::Spec spec{v[QStringLiteral("n")].toInt(), v[QStringLiteral("p")].toInt(),
                                          v[QStringLiteral("generator")].toString()};
            if (spec.n < 1 || spec.p < 1 || !LassoProblem::isKnownGenerator(spec.generator))
                return EvaluationResult::failure(FailClass::Env,
                                                 QStringLiteral("bad problem in options: %1").arg(spec.label()));
            suite << spec;
        }
    } else {
        const QString name = context.optionString(QStringLiteral("suite"), QStringLiteral("full"));
        if (name == QLatin1String("full"))
            suite = LassoProblem::fullSuite();
        else if (name == QLatin1String("quick"))
            suite = LassoProblem::quickSuite();
        else
            return EvaluationResult::failure(FailClass::Env,
                                             QStringLiteral("unknown suite '%1' (full or quick)").arg(name));
    }

    if (suite.isEmpty())
        return EvaluationResult::failure(FailClass::Env, QStringLiteral("the problem list is empty"));
    return suite;
}

/// One run of the candidate (built in the work directory) on one problem, its
/// input written to `input`: its output or its failure; `*ms` its wall time.
std::variant<Eigen::MatrixXd, EvaluationResult> runOn(const EvaluationContext &context, const QString &input,
                                                      double runLimit, const LassoProblem &problem, double *ms)
{
    QFile in(input);
    if (!in.open(QIODevice::WriteOnly | QIODevice::Truncate) || in.write(problem.encode()) < 0)
        return EvaluationResult::failure(FailClass::Env, QStringLiteral("cannot write the problem input"));
    in.close();
    SandboxRequest request;
    request.program = context.workDir() + QStringLiteral("/candidate");
    request.stdinFile = input;
    request.extraEnvironment = LassoEvaluator::candidateEnvironment();
    request.limits.wallMs = int(runLimit * 1000.0);
    request.limits.cpuSeconds = int(runLimit) * 8 + 1;
    request.limits.addressSpaceBytes = qint64(16) << 30;
    request.limits.outputBytes = qint64(problem.X.cols()) * problem.lambdas.size() * 8 * 2 + (1 << 20);
    request.timeProgram = true; // the candidate's own time, not the sandbox's start
    const SandboxResult run = context.run(request);
    *ms = run.programSeconds.value_or(run.wallSeconds) * 1000.0;
    if (auto failure = FailureClassifier::classify(run, FailureClassifier::Stage::Run,
                                                   QStringLiteral("the candidate on ") + problem.spec.label()))
        return *failure;
    Result<Eigen::MatrixXd> w =
        LassoEvaluator::decode(run.standardOutput, int(problem.X.cols()), int(problem.lambdas.size()));
    if (!w)
        return EvaluationResult::failure(FailClass::Correctness, problem.spec.label() + QStringLiteral(": ") + w.error);
    return std::move(*w.value);
}

} // namespace

EvaluationResult LassoEvaluator::evaluate(const EvaluationContext &context) const
{
    const QString path = context.candidatePath();
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly))
        return EvaluationResult::failure(FailClass::Agent, QStringLiteral("no candidate program at '%1'").arg(path));
    if (CandidateProgram::languageOf(path) != CandidateProgram::Language::Cpp)
        return EvaluationResult::failure(FailClass::Compile,
                                         QStringLiteral("lasso_path candidates are C++17 sources (*.cpp); got '%1'")
                                             .arg(QFileInfo(path).fileName()));
    const QByteArray source = file.readAll();

    // Suite.
    auto read = readSuite(context);
    if (auto *failure = std::get_if<EvaluationResult>(&read))
        return *failure;
    const QList<LassoProblem::Spec> suite = std::get<QList<LassoProblem::Spec>>(std::move(read));

    const QString referenceOption = context.optionString(QStringLiteral("reference"), referenceName(Reference::ScikitLearnDefault));
    const std::optional<Reference> reference = parseReference(referenceOption);
    if (!reference)
        return EvaluationResult::failure(FailClass::Env,
                                         QStringLiteral("unknown reference '%1' (sklearn-default or exact)").arg(referenceOption));

    // Build.
    const Result<QStringList> extra = requestedFlags(source);
    if (!extra)
        return EvaluationResult::failure(FailClass::Compile, extra.error);
    if (!QFile::copy(path, context.workDir() + QStringLiteral("/candidate.cpp")))
        return EvaluationResult::failure(FailClass::Env, QStringLiteral("cannot copy the candidate into the work directory"));
    QStringList flags{QStringLiteral("-O3"), QStringLiteral("-march=native"), QStringLiteral("-std=c++17"),
                      QStringLiteral("-fopenmp"), QStringLiteral("-I/usr/include/eigen3")};
    flags += *extra.value;
    if (auto failure = CandidateProgram::compileCpp(context, QStringLiteral("candidate.cpp"), QStringLiteral("candidate"),
                                                    flags, context.optionInt(QStringLiteral("compile_time_limit_s"), 180)))
        return *failure;

    const quint64 seed = quint64(context.optionInt(QStringLiteral("seed"), 0));
    const int timingSeeds = std::max(1, context.optionInt(QStringLiteral("timing_seeds"), 3));
    const double tolerance = context.optionDouble(QStringLiteral("gap_tolerance"), 1e-6);
    const double runLimit = context.optionDouble(QStringLiteral("run_time_limit_s"), 60.0);
    const QString input = context.workDir() + QStringLiteral("/input.bin");

    QJsonObject perProblem;
    QJsonArray gaps;
    double logSum = 0.0;
    double worstGap = -std::numeric_limits<double>::infinity();
    qint64 passed = 0;
    const qint64 total = suite.size();
    auto fail = [&](EvaluationResult r) {
        r.nValid = passed;
        r.nTotal = total;
        r.metrics.insert(QStringLiteral("problem_ms"), perProblem);
        r.metrics.insert(QStringLiteral("reference"), referenceName(*reference));
        return r;
    };
    for (const LassoProblem::Spec &spec : std::as_const(suite)) {
        if (context.isCancelled())
            return EvaluationResult::failure(FailClass::Env, QStringLiteral("cancelled"));
        double ms = 0.0;
        {
            const LassoProblem problem = LassoProblem::generate(spec, seed);
            auto out = runOn(context, input, runLimit, problem, &ms);
            if (auto *failure = std::get_if<EvaluationResult>(&out))
                return fail(*failure);
            double gap = 0.0;
            const QString why = check(problem, std::get<Eigen::MatrixXd>(out), referenceObjectives(problem, *reference),
                                      tolerance, &gap, *reference);
            if (!why.isEmpty())
                return fail(EvaluationResult::failure(FailClass::Correctness, spec.label() + QStringLiteral(": ") + why));
            worstGap = std::max(worstGap, gap);
            gaps.append(gap);
        }
        double best = std::numeric_limits<double>::infinity();
        for (int t = 1; t <= timingSeeds; ++t) {
            const LassoProblem problem = LassoProblem::generate(spec, seed + quint64(t));
            auto out = runOn(context, input, runLimit, problem, &ms);
            if (auto *failure = std::get_if<EvaluationResult>(&out))
                return fail(*failure);
            best = std::min(best, ms);
        }
        ++passed;
        perProblem.insert(spec.label(), best);
        logSum += std::log(best);
    }
    QFile::remove(input);
    const double geomean = std::exp(logSum / double(total));
    QJsonObject metrics{{QStringLiteral("geomean_ms"), geomean},
                        {QStringLiteral("problem_ms"), perProblem},
                        {QStringLiteral("max_objective_excess"), worstGap},
                        {QStringLiteral("reference"), referenceName(*reference)},
                        {QStringLiteral("threads"), 1},
                        {QStringLiteral("timing_seeds"), timingSeeds},
                        {QStringLiteral("problems"), double(total)}};
    EvaluationResult r = EvaluationResult::success(1.0 / geomean, metrics);
    r.nValid = passed;
    r.nTotal = total;
    return r;
}

} // namespace dreamrsi
