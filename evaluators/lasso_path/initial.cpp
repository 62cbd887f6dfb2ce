// Initial program for lasso_path: cyclic coordinate descent with warm starts
// along the path, a residual kept up to date, and a duality-gap stop (gap
// below 5e-7, so the objective is within 5e-7 of the optimum).
#include <Eigen/Dense>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

static bool readAll(void *data, size_t bytes)
{
    return std::fread(data, 1, bytes, stdin) == bytes;
}

int main()
{
    std::int32_t header[3];
    if (!readAll(header, sizeof header))
        return 1;
    const int n = header[0], p = header[1], k = header[2];
    RowMatrix rows(n, p);
    Eigen::VectorXd y(n), lambdas(k);
    if (!readAll(rows.data(), sizeof(double) * size_t(n) * p) || !readAll(y.data(), sizeof(double) * n)
        || !readAll(lambdas.data(), sizeof(double) * k))
        return 1;
    const Matrix X = rows;

    Eigen::VectorXd colSq(p);
    for (int j = 0; j < p; ++j)
        colSq(j) = X.col(j).squaredNorm() / n;
    Eigen::VectorXd w = Eigen::VectorXd::Zero(p);
    Eigen::VectorXd r = y;
    Matrix out(p, k);

    for (int l = 0; l < k; ++l) {
        const double lambda = lambdas(l);
        for (int sweep = 0; sweep < 100000; ++sweep) {
            for (int j = 0; j < p; ++j) {
                if (colSq(j) == 0.0)
                    continue;
                const double rho = X.col(j).dot(r) / n + colSq(j) * w(j);
                const double fresh = (rho > lambda ? rho - lambda : rho < -lambda ? rho + lambda : 0.0) / colSq(j);
                if (fresh != w(j)) {
                    r.noalias() -= (fresh - w(j)) * X.col(j);
                    w(j) = fresh;
                }
            }
            if (sweep % 5 != 4)
                continue;
            // Duality gap of the current point.
            r = y - X * w;
            const double primal = r.squaredNorm() / (2.0 * n) + lambda * w.lpNorm<1>();
            const double corr = (X.transpose() * r).cwiseAbs().maxCoeff();
            const double s = corr > n * lambda ? n * lambda / corr : 1.0;
            const double dual = (y.squaredNorm() - (y - s * r).squaredNorm()) / (2.0 * n);
            if (primal - dual < 5e-7) // within 5e-7 of the optimum: inside the 1e-6 the task allows
                break;
        }
        out.col(l) = w;
    }
    std::fwrite(out.data(), sizeof(double), size_t(p) * k, stdout);
    return 0;
}
