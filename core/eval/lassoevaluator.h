#pragma once

#include "lassoproblem.h"
#include "taskevaluator.h"

#include <Eigen/Dense>

namespace dreamrsi {

/// lasso_path: a C++17 candidate solves the Lasso regularization path over a
/// suite of problems (wire protocol and suite in tasks.md); score =
/// 1 / geometric mean of the per-problem milliseconds.
///
/// The candidate is built with `g++ -O3 -march=native -std=c++17 -fopenmp`
/// and Eigen on the include path, plus the flags of a source line
/// `// dreamrsi-flags: …` (only -f…, -m…, -O…, -D…, -W… tokens), cached by a
/// hash of source, compiler and flags. Correctness on one seed (every
/// coefficient finite, objective within `gap_tolerance` of the reference at
/// every λ), then timing on `timing_seeds` fresh seeds, minimum kept.
///
/// Options: `suite` ("full" default, or "quick"), `problems` (array of
/// {"n", "p", "generator"}, overrides suite), `seed` (default 0),
/// `timing_seeds` (default 3), `gap_tolerance` (default 1e-6),
/// `run_time_limit_s` (per run, default 60), `compile_time_limit_s` (default 180).
class LassoEvaluator final : public TaskEvaluator
{
public:
    QString name() const override;
    QString summary() const override;
    EvaluationResult evaluate(const EvaluationContext &context) const override;

    /// Decodes the candidate's stdout (p·n_lambda float64, column-major).
    /// nullopt with `*error` set when the size is wrong.
    static std::optional<Eigen::MatrixXd> decode(const QByteArray &output, int p, int nLambda, QString *error);
    /// Correctness of a decoded path against the reference path: empty when
    /// every coefficient is finite and every objective gap ≤ tolerance, else
    /// the reason. `*worstGap` receives the largest objective excess.
    static QString check(const LassoProblem &problem, const Eigen::MatrixXd &candidate,
                         const Eigen::VectorXd &referenceObjectives, double tolerance, double *worstGap);
    /// The reference objectives of (spec, seed), memoised for the process.
    static Eigen::VectorXd referenceObjectives(const LassoProblem &problem);
    /// Compile flags requested by the source's `// dreamrsi-flags:` line;
    /// nullopt with `*error` set when a token is not allowed.
    static std::optional<QStringList> requestedFlags(const QByteArray &source, QString *error);
};

} // namespace dreamrsi
