// A plain C++17 Lasso path candidate for the tests (no Eigen, so it builds in
// a second): coordinate descent to a duality gap of 1e-13, warm starts.
// Variants, chosen by a macro (the tests add a `// dreamrsi-flags: -D…` line):
//   DREAMRSI_SLOW         correct, but sleeps 150 ms first
//   DREAMRSI_WORSE=t      correct solution, then one coefficient per λ moved so
//                         that the objective is exactly t worse
//   DREAMRSI_SHORT        writes one coefficient too few
//   DREAMRSI_UNSOLVED=k   skips λ index k: writes the coefficients of λ index
//                         k−1 there (and warm-starts λ index k+1 from them)
//   DREAMRSI_ONE_THREAD   exits 3 unless the environment holds it to one
//                         thread (OMP_NUM_THREADS, OMP_THREAD_LIMIT,
//                         OPENBLAS_NUM_THREADS, MKL_NUM_THREADS all "1")
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

int main()
{
#ifdef DREAMRSI_ONE_THREAD
    for (const char *name : {"OMP_NUM_THREADS", "OMP_THREAD_LIMIT", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"}) {
        const char *value = std::getenv(name);
        if (!value || std::strcmp(value, "1") != 0) {
            std::fprintf(stderr, "%s is %s, not 1\n", name, value ? value : "unset");
            return 3;
        }
    }
#endif
#ifdef DREAMRSI_SLOW
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
#endif
    std::int32_t h[3];
    if (std::fread(h, 4, 3, stdin) != 3)
        return 1;
    const int n = h[0], p = h[1], k = h[2];
    std::vector<double> rows(size_t(n) * p), y(n), lambdas(k);
    if (std::fread(rows.data(), 8, rows.size(), stdin) != rows.size() || std::fread(y.data(), 8, n, stdin) != size_t(n)
        || std::fread(lambdas.data(), 8, k, stdin) != size_t(k))
        return 1;
    std::vector<double> X(size_t(n) * p); // column-major copy
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < p; ++j)
            X[size_t(j) * n + i] = rows[size_t(i) * p + j];
    auto col = [&](int j) { return X.data() + size_t(j) * n; };
    std::vector<double> colSq(p), w(p, 0.0), r(y), out(size_t(p) * k);
    for (int j = 0; j < p; ++j) {
        double s = 0;
        for (int i = 0; i < n; ++i)
            s += col(j)[i] * col(j)[i];
        colSq[j] = s / n;
    }
    auto dot = [&](int j, const std::vector<double> &v) {
        double s = 0;
        for (int i = 0; i < n; ++i)
            s += col(j)[i] * v[i];
        return s;
    };
    double yy = 0;
    for (double v : y)
        yy += v * v;
    for (int l = 0; l < k; ++l) {
        const double lambda = lambdas[l];
#ifdef DREAMRSI_UNSOLVED
        const int sweeps = l == DREAMRSI_UNSOLVED ? 0 : 200000;
#else
        const int sweeps = 200000;
#endif
        for (int sweep = 0; sweep < sweeps; ++sweep) {
            for (int j = 0; j < p; ++j) {
                if (colSq[j] == 0)
                    continue;
                const double rho = dot(j, r) / n + colSq[j] * w[j];
                const double fresh = (rho > lambda ? rho - lambda : rho < -lambda ? rho + lambda : 0.0) / colSq[j];
                const double d = fresh - w[j];
                if (d != 0) {
                    for (int i = 0; i < n; ++i)
                        r[i] -= d * col(j)[i];
                    w[j] = fresh;
                }
            }
            // Duality gap, from a fresh residual.
            for (int i = 0; i < n; ++i)
                r[i] = y[i];
            for (int j = 0; j < p; ++j)
                if (w[j] != 0)
                    for (int i = 0; i < n; ++i)
                        r[i] -= w[j] * col(j)[i];
            double rr = 0, l1 = 0, corr = 0, ry = 0;
            for (int i = 0; i < n; ++i) {
                rr += r[i] * r[i];
                ry += r[i] * y[i];
            }
            for (int j = 0; j < p; ++j) {
                l1 += std::fabs(w[j]);
                corr = std::fmax(corr, std::fabs(dot(j, r)));
            }
            const double s = corr > n * lambda ? n * lambda / corr : 1.0;
            const double primal = rr / (2.0 * n) + lambda * l1;
            const double dual = (yy - (yy - 2 * s * ry + s * s * rr)) / (2.0 * n);
            if (primal - dual < 1e-13)
                break;
        }
        for (int j = 0; j < p; ++j)
            out[size_t(l) * p + j] = w[j];
#ifdef DREAMRSI_WORSE
        {
            // Move coefficient j by δ ≥ 0 (j with w_j ≥ 0): the objective grows by
            // (λ + g)·δ + a·δ², g = −X_jᵀr/n, a = ‖X_j‖²/(2n). Solve for DREAMRSI_WORSE.
            int j = 0;
            while (j < p && w[j] < 0)
                ++j;
            const double g = -dot(j, r) / n;
            const double a = colSq[j] / 2.0;
            const double b = lambda + g;
            const double t = DREAMRSI_WORSE;
            const double delta = 2.0 * t / (b + std::sqrt(b * b + 4.0 * a * t));
            out[size_t(l) * p + j] += delta;
        }
#endif
    }
#ifdef DREAMRSI_SHORT
    out.pop_back();
#endif
    std::fwrite(out.data(), 8, out.size(), stdout);
    return 0;
}
