#pragma once

#include <QList>
#include <QString>

#include <Eigen/Dense>

namespace dreamrsi {

/// One Lasso path instance of docs/evaluators.md#lasso-regularization-path: y = Xw* + 0.1·ε and a 50-value
/// geometric λ path from λ_max = max|Xᵀy|/n down to 0.01·λ_max, the grid
/// scikit-learn's `lasso_path(eps=0.01, n_alphas=50)` uses (same formula, so
/// equal to it up to the last bits of libm's pow/log10).
///
/// Generation is deterministic for a (spec, seed) pair on every platform (own
/// generator and normal transform, no std:: distributions).
struct LassoProblem
{
    /// Generator names: "gaussian", "sparse", "dense_sol", "corr_low", "corr_high".
    struct Spec
    {
        int n = 0;
        int p = 0;
        QString generator;
        QString label() const; ///< "n=200 p=100 gaussian"
    };

    Spec spec;
    quint64 seed = 0;
    Eigen::MatrixXd X; ///< n × p
    Eigen::VectorXd y; ///< n
    Eigen::VectorXd lambdas; ///< n_lambda, decreasing

    static constexpr int pathLength = 50;

    /// The 17 problems of docs/evaluators.md (Lasso), in its order.
    static QList<Spec> fullSuite();
    /// The documented quick subset (see evaluators/lasso_path/problem.md).
    static QList<Spec> quickSuite();
    static bool isKnownGenerator(const QString &generator);

    static LassoProblem generate(const Spec &spec, quint64 seed);

    /// The wire protocol's stdin: int32 n, int32 p, int32 n_lambda, then
    /// float64 X (row-major), y, λ path; native (little-endian) byte order.
    QByteArray encode() const;
    /// (1/(2n))‖y − Xw‖² + λ‖w‖₁.
    double objective(const Eigen::VectorXd &w, double lambda) const;
};

} // namespace dreamrsi
