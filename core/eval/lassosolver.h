#pragma once

#include "lassoproblem.h"

#include <Eigen/Dense>

namespace dreamrsi {

/// The reference Lasso path solver: cyclic coordinate descent with warm
/// starts along the path, active-set passes, and a duality-gap stopping rule.
///
/// Minimises (1/(2n))‖y − Xw‖² + λ‖w‖₁ at each λ of the path to a duality gap
/// of at most `gapTolerance` (absolute, in objective units), so that the
/// objective it reports is within that of the true optimum.
class LassoSolver
{
public:
    struct Path
    {
        Eigen::MatrixXd coefficients; ///< p × n_lambda, column k at λ_k
        Eigen::VectorXd objectives;   ///< primal objective at each λ
        Eigen::VectorXd gaps;         ///< certified duality gap at each λ
    };

    static Path solve(const LassoProblem &problem, double gapTolerance = 1e-11);
    /// Duality gap of `w` at λ (for the objective above; ≥ 0 up to rounding).
    static double dualityGap(const LassoProblem &problem, const Eigen::VectorXd &w, double lambda);
};

} // namespace dreamrsi
