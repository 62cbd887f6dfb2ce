#include "lassosolver.h"

#include <algorithm>
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

/// One λ of scikit-learn's coordinate descent, in its units.
struct CdOutcome
{
    double gap = 0.0; ///< ½‖r‖² + α‖w‖₁ units
    int sweeps = 0;
    bool converged = false;
};

/// sign(t)·max(|t| − α, 0) / d, as `enet_coordinate_descent` writes it.
double scikitShrink(double t, double alpha, double d)
{
    const double sign = t > 0.0 ? 1.0 : (t < 0.0 ? -1.0 : 0.0);
    return sign * std::max(std::abs(t) - alpha, 0.0) / d;
}

/// The duality gap that closes both variants, from ‖r‖², ‖Xᵀr‖∞ and the rest.
double scikitGap(double residualSq, double dualNorm, double alpha, double l1, double rDotY, double *scale)
{
    double gap = residualSq;
    *scale = 1.0;
    if (dualNorm > alpha) {
        *scale = alpha / dualNorm;
        gap = 0.5 * (residualSq + residualSq * *scale * *scale);
    }
    return gap + alpha * l1 - *scale * rDotY;
}

/// `enet_coordinate_descent` (dense X, no L2 term): updates `w` in place.
CdOutcome scikitDense(const Eigen::MatrixXd &X, const Eigen::VectorXd &y, const Eigen::VectorXd &colSq, double alpha,
                      double tol, int maxIter, Eigen::VectorXd &w)
{
    Eigen::VectorXd r = y - X * w;
    const double gapTolerance = tol * y.squaredNorm();
    CdOutcome out;
    out.gap = tol + 1.0;
    for (int sweep = 0; sweep < maxIter; ++sweep) {
        double largest = 0.0;
        double largestChange = 0.0;
        for (Eigen::Index j = 0; j < X.cols(); ++j) {
            if (colSq(j) == 0.0)
                continue;
            const double old = w(j);
            if (old != 0.0)
                r.noalias() += old * X.col(j);
            const double fresh = scikitShrink(X.col(j).dot(r), alpha, colSq(j));
            w(j) = fresh;
            if (fresh != 0.0)
                r.noalias() -= fresh * X.col(j);
            largestChange = std::max(largestChange, std::abs(fresh - old));
            largest = std::max(largest, std::abs(fresh));
        }
        if (largest == 0.0 || largestChange / largest < tol || sweep == maxIter - 1) {
            const double dualNorm = (X.transpose() * r).cwiseAbs().maxCoeff();
            double scale = 1.0;
            out.gap = scikitGap(r.squaredNorm(), dualNorm, alpha, w.lpNorm<1>(), r.dot(y), &scale);
            if (out.gap < gapTolerance) {
                out.sweeps = sweep + 1;
                out.converged = true;
                return out;
            }
        }
    }
    out.sweeps = maxIter;
    return out;
}

/// `enet_coordinate_descent_gram` (Q = XᵀX, q = Xᵀy, no L2 term).
CdOutcome scikitGram(const Eigen::MatrixXd &Q, const Eigen::VectorXd &q, double yy, double alpha, double tol,
                     int maxIter, Eigen::VectorXd &w)
{
    Eigen::VectorXd h = Q * w; // kept equal to Q·w
    const double gapTolerance = tol * yy;
    CdOutcome out;
    out.gap = tol + 1.0;
    for (int sweep = 0; sweep < maxIter; ++sweep) {
        double largest = 0.0;
        double largestChange = 0.0;
        for (Eigen::Index j = 0; j < Q.cols(); ++j) {
            if (Q(j, j) == 0.0)
                continue;
            const double old = w(j);
            if (old != 0.0)
                h.noalias() -= old * Q.col(j);
            const double fresh = scikitShrink(q(j) - h(j), alpha, Q(j, j));
            w(j) = fresh;
            if (fresh != 0.0)
                h.noalias() += fresh * Q.col(j);
            largestChange = std::max(largestChange, std::abs(fresh - old));
            largest = std::max(largest, std::abs(fresh));
        }
        if (largest == 0.0 || largestChange / largest < tol || sweep == maxIter - 1) {
            const double qw = w.dot(q);
            const double dualNorm = (q - h).cwiseAbs().maxCoeff();
            const double residualSq = yy + w.dot(h) - 2.0 * qw;
            double scale = 1.0;
            // rᵀy = ‖y‖² − qᵀw.
            out.gap = scikitGap(residualSq, dualNorm, alpha, w.lpNorm<1>(), yy - qw, &scale);
            if (out.gap < gapTolerance) {
                out.sweeps = sweep + 1;
                out.converged = true;
                return out;
            }
        }
    }
    out.sweeps = maxIter;
    return out;
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
    path.sweeps.resize(k);
    path.converged.resize(k);
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
        int outer = 0;
        for (; outer < 10'000; ++outer) {
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
        path.sweeps(l) = outer + (outer < 10'000 ? 1 : 0);
        path.converged(l) = gap <= gapTolerance;
    }
    return path;
}

LassoSolver::Path LassoSolver::solveLikeScikitLearn(const LassoProblem &problem, double tol, int maxIter)
{
    const Eigen::MatrixXd &X = problem.X;
    const Eigen::Index n = X.rows();
    const Eigen::Index p = X.cols();
    const Eigen::Index k = problem.lambdas.size();
    // precompute="auto": the Gram matrix when there are more samples than features.
    const bool gram = n > p;
    Eigen::MatrixXd Q;
    Eigen::VectorXd q;
    Eigen::VectorXd colSq;
    if (gram) {
        Eigen::MatrixXd lower = Eigen::MatrixXd::Zero(p, p);
        lower.selfadjointView<Eigen::Lower>().rankUpdate(X.transpose());
        Q = lower.selfadjointView<Eigen::Lower>(); // exactly symmetric, as BLAS syrk gives it
        q = X.transpose() * problem.y;
    } else {
        colSq = X.colwise().squaredNorm().transpose();
    }
    const double yy = problem.y.squaredNorm();

    Path path;
    path.coefficients.resize(p, k);
    path.objectives.resize(k);
    path.gaps.resize(k);
    path.sweeps.resize(k);
    path.converged.resize(k);
    Eigen::VectorXd w = Eigen::VectorXd::Zero(p);
    for (Eigen::Index l = 0; l < k; ++l) {
        const double lambda = problem.lambdas(l);
        const double alpha = lambda * double(n); // scikit-learn's cd works on n × the objective
        const CdOutcome outcome = gram ? scikitGram(Q, q, yy, alpha, tol, maxIter, w)
                                       : scikitDense(X, problem.y, colSq, alpha, tol, maxIter, w);
        path.coefficients.col(l) = w;
        path.objectives(l) = problem.objective(w, lambda);
        path.gaps(l) = outcome.gap / double(n);
        path.sweeps(l) = outcome.sweeps;
        path.converged(l) = outcome.converged;
    }
    return path;
}

} // namespace dreamrsi
