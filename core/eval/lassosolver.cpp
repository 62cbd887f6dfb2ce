#include "lassosolver.h"

#include <cmath>
#include <vector>

namespace dreamrsi {

namespace {

double softThreshold(double value, double threshold)
{
    if (value > threshold)
        return value - threshold;
    if (value < -threshold)
        return value + threshold;
    return 0.0;
}

} // namespace

double LassoSolver::dualityGap(const LassoProblem &problem, const Eigen::VectorXd &w, double lambda)
{
    const Eigen::MatrixXd &X = problem.X;
    const double n = double(X.rows());
    const Eigen::VectorXd r = problem.y - X * w;
    const double primal = r.squaredNorm() / (2.0 * n) + lambda * w.lpNorm<1>();
    // Dual point θ = s·r, scaled so that ‖Xᵀθ‖∞ ≤ nλ.
    const double correlation = (X.transpose() * r).cwiseAbs().maxCoeff();
    const double s = correlation > n * lambda ? n * lambda / correlation : 1.0;
    const double dual = (problem.y.squaredNorm() - (problem.y - s * r).squaredNorm()) / (2.0 * n);
    return primal - dual;
}

LassoSolver::Path LassoSolver::solve(const LassoProblem &problem, double gapTolerance)
{
    const Eigen::MatrixXd &X = problem.X;
    const Eigen::Index n = X.rows();
    const Eigen::Index p = X.cols();
    const Eigen::Index k = problem.lambdas.size();
    const double invN = 1.0 / double(n);
    Eigen::VectorXd colSq(p);
    for (Eigen::Index j = 0; j < p; ++j)
        colSq(j) = X.col(j).squaredNorm() * invN;

    Path path;
    path.coefficients.resize(p, k);
    path.objectives.resize(k);
    path.gaps.resize(k);
    Eigen::VectorXd w = Eigen::VectorXd::Zero(p);
    Eigen::VectorXd r = problem.y;

    auto update = [&](Eigen::Index j, double lambda) {
        if (colSq(j) == 0.0)
            return 0.0;
        const double old = w(j);
        const double rho = X.col(j).dot(r) * invN + colSq(j) * old;
        const double fresh = softThreshold(rho, lambda) / colSq(j);
        const double delta = fresh - old;
        if (delta != 0.0) {
            r.noalias() -= delta * X.col(j);
            w(j) = fresh;
        }
        return std::abs(delta) * std::sqrt(colSq(j));
    };

    std::vector<Eigen::Index> active;
    for (Eigen::Index l = 0; l < k; ++l) {
        const double lambda = problem.lambdas(l);
        double gap = 0.0;
        for (int round = 0; round < 10'000; ++round) {
            double biggest = 0.0;
            for (Eigen::Index j = 0; j < p; ++j)
                biggest = std::max(biggest, update(j, lambda));
            active.clear();
            for (Eigen::Index j = 0; j < p; ++j) {
                if (w(j) != 0.0)
                    active.push_back(j);
            }
            for (int inner = 0; inner < 10'000 && biggest > 1e-13; ++inner) {
                biggest = 0.0;
                for (Eigen::Index j : active)
                    biggest = std::max(biggest, update(j, lambda));
            }
            r = problem.y - X * w; // no drift from incremental updates
            gap = dualityGap(problem, w, lambda);
            if (gap <= gapTolerance)
                break;
        }
        path.coefficients.col(l) = w;
        path.objectives(l) = problem.objective(w, lambda);
        path.gaps(l) = gap;
    }
    return path;
}

} // namespace dreamrsi
