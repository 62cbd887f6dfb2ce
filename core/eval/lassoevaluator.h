#pragma once

#include "lassoproblem.h"
#include "taskevaluator.h"

#include <QHash>

#include <Eigen/Dense>

#include <optional>

namespace dreamrsi {

/// lasso_path: a C++17 candidate solves the Lasso regularization path over a
/// suite of problems (wire protocol and suite in docs/evaluators.md#lasso-regularization-path); score =
/// 1 / geometric mean of the per-problem milliseconds.
///
/// The candidate is built with `g++ -O3 -march=native -std=c++17 -fopenmp`
/// and Eigen on the include path, plus the flags of a source line
/// `// dreamrsi-flags: …` (only -f…, -m…, -O…, -D…, -W… tokens), cached by a
/// hash of source, compiler and flags. It runs with one thread
/// (candidateEnvironment()). Correctness on one seed (every coefficient
/// finite, objective at most `gap_tolerance` above the reference's at every
/// λ), then timing on `timing_seeds` fresh seeds, minimum kept.
///
/// The reference is the benchmark's oracle, scikit-learn's `lasso_path` at its
/// defaults (LassoSolver::solveLikeScikitLearn), unless `reference` asks for
/// the exactly converged one; `metrics.reference` names the one used and a
/// correctness failure names it too.
///
/// Options: `suite` ("full" default, or "quick"), `problems` (array of
/// {"n", "p", "generator"}, overrides suite), `seed` (default 0),
/// `timing_seeds` (default 3), `gap_tolerance` (default 1e-6), `reference`
/// ("sklearn-default" default, or "exact"), `run_time_limit_s` (per run,
/// default 60), `compile_time_limit_s` (default 180).
class LassoEvaluator final : public TaskEvaluator
{
public:
    enum class Reference {
        /// scikit-learn `lasso_path` defaults: cyclic CD, tol 1e-4, max_iter 1000.
        ScikitLearnDefault,
        /// Coordinate descent to a certified duality gap of 1e-11.
        Exact,
    };

    QString name() const override;
    QString summary() const override;
    EvaluationResult evaluate(const EvaluationContext &context) const override;

    /// "sklearn-default" or "exact" (the `reference` option's values).
    static QString referenceName(Reference reference);
    /// nullopt for any other name.
    static std::optional<Reference> parseReference(const QString &name);
    /// The variables that keep the candidate to one thread (OpenMP, which
    /// Eigen's parallel code uses too, and the BLAS libraries), all "1".
    static QHash<QString, QString> candidateEnvironment();

    /// Decodes the candidate's stdout (p·n_lambda float64, column-major).
    /// A failure naming the sizes when the size is wrong.
    static Result<Eigen::MatrixXd> decode(const QByteArray &output, int p, int nLambda);
    /// Correctness of a decoded path against the reference path: empty when
    /// every coefficient is finite and every objective excess ≤ tolerance,
    /// else the reason, naming the λ index, the excess and `reference`.
    /// `*worstGap` receives the largest objective excess.
    static QString check(const LassoProblem &problem, const Eigen::MatrixXd &candidate,
                         const Eigen::VectorXd &referenceObjectives, double tolerance, double *worstGap,
                         Reference reference = Reference::ScikitLearnDefault);
    /// The reference objectives of (spec, seed), memoised for the process.
    static Eigen::VectorXd referenceObjectives(const LassoProblem &problem,
                                               Reference reference = Reference::ScikitLearnDefault);
    /// Compile flags requested by the source's `// dreamrsi-flags:` line;
    /// a failure naming the token when one is not allowed.
    static Result<QStringList> requestedFlags(const QByteArray &source);
};

} // namespace dreamrsi
