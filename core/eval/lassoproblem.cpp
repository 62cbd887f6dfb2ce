#include "lassoproblem.h"

#include <QByteArray>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace dreamrsi {

namespace {

/// std::mt19937_64 is fully specified by the standard, so its raw output is
/// portable; the uniform and normal transforms are our own for the same reason.
class Random
{
public:
    explicit Random(quint64 seed)
        : m_engine(seed)
    {
    }
    double uniform() { return double(m_engine() >> 11) * 0x1.0p-53; }
    double normal()
    {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        double u = 0.0;
        while (u <= 0.0)
            u = uniform();
        const double v = uniform();
        const double radius = std::sqrt(-2.0 * std::log(u));
        const double angle = 2.0 * M_PI * v;
        m_spare = radius * std::sin(angle);
        m_hasSpare = true;
        return radius * std::cos(angle);
    }
    /// Uniform integer in [0, bound).
    int below(int bound) { return int(uniform() * bound) % bound; }
    /// `count` distinct indices of [0, bound), sorted.
    std::vector<int> choose(int bound, int count)
    {
        std::vector<int> all(static_cast<size_t>(bound));
        std::iota(all.begin(), all.end(), 0);
        for (int i = 0; i < count; ++i)
            std::swap(all[size_t(i)], all[size_t(i + below(bound - i))]);
        all.resize(size_t(count));
        std::sort(all.begin(), all.end());
        return all;
    }

private:
    std::mt19937_64 m_engine;
    double m_spare = 0.0;
    bool m_hasSpare = false;
};

quint64 mix(quint64 seed, const LassoProblem::Spec &spec)
{
    quint64 h = seed * 0x9E3779B97F4A7C15ULL;
    h ^= quint64(spec.n) * 0xBF58476D1CE4E5B9ULL;
    h ^= quint64(spec.p) * 0x94D049BB133111EBULL;
    for (QChar c : spec.generator)
        h = (h ^ c.unicode()) * 0x100000001B3ULL;
    return h;
}

} // namespace

QString LassoProblem::Spec::label() const
{
    return QStringLiteral("n=%1 p=%2 %3").arg(n).arg(p).arg(generator);
}

QList<LassoProblem::Spec> LassoProblem::fullSuite()
{
    const QString g = QStringLiteral("gaussian");
    const QString s = QStringLiteral("sparse");
    return {{200, 100, g},   {200, 500, g},   {500, 1000, g},  {200, 2000, g},
            {50, 3000, g},   {2000, 500, g},  {100, 5000, g},  {1000, 500, s},
            {500, 1000, s},  {500, 1000, QStringLiteral("dense_sol")},
            {500, 30, g},    {1000, 50, g},   {2000, 3000, s},
            {500, 200, QStringLiteral("corr_low")},  {500, 500, QStringLiteral("corr_high")},
            {200, 1000, QStringLiteral("corr_low")}, {1000, 1000, QStringLiteral("corr_high")}};
}

QList<LassoProblem::Spec> LassoProblem::quickSuite()
{
    return {{200, 100, QStringLiteral("gaussian")},
            {500, 30, QStringLiteral("gaussian")},
            {500, 200, QStringLiteral("corr_low")},
            {1000, 500, QStringLiteral("sparse")}};
}

bool LassoProblem::isKnownGenerator(const QString &generator)
{
    static const char *const known[] = {"gaussian", "sparse", "dense_sol", "corr_low", "corr_high"};
    for (const char *k : known) {
        if (generator == QLatin1String(k))
            return true;
    }
    return false;
}

LassoProblem LassoProblem::generate(const Spec &spec, quint64 seed)
{
    LassoProblem problem;
    problem.spec = spec;
    problem.seed = seed;
    const int n = spec.n;
    const int p = spec.p;
    Random random(mix(seed, spec));
    Eigen::MatrixXd &X = problem.X;
    X.resize(n, p);
    int nnz = std::max(1, p / 20);
    double scale = 1.0;
    if (spec.generator == QLatin1String("sparse")) {
        X.setZero();
        const int perRow = std::min(20, p);
        for (int i = 0; i < n; ++i) {
            for (int j : random.choose(p, perRow))
                X(i, j) = random.normal();
        }
        for (int j = 0; j < p; ++j) {
            const double mean = X.col(j).mean();
            const double sd = std::sqrt((X.col(j).array() - mean).square().sum() / n);
            if (sd > 0.0)
                X.col(j) /= sd;
        }
        nnz = std::max(1, p / 100);
        scale = 2.0;
    } else if (spec.generator == QLatin1String("corr_low") || spec.generator == QLatin1String("corr_high")) {
        const double rho = spec.generator == QLatin1String("corr_low") ? 0.5 : 0.9;
        const double innovation = std::sqrt(1.0 - rho * rho);
        // AR(1) rows: covariance ρ^|j−k| (Toeplitz).
        for (int i = 0; i < n; ++i) {
            double previous = random.normal();
            X(i, 0) = previous;
            for (int j = 1; j < p; ++j) {
                previous = rho * previous + innovation * random.normal();
                X(i, j) = previous;
            }
        }
    } else {
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < p; ++j)
                X(i, j) = random.normal();
        if (spec.generator == QLatin1String("dense_sol"))
            nnz = std::max(1, p / 5);
    }
    Eigen::VectorXd w = Eigen::VectorXd::Zero(p);
    for (int j : random.choose(p, std::min(nnz, p)))
        w(j) = scale * random.normal();
    Eigen::VectorXd noise(n);
    for (int i = 0; i < n; ++i)
        noise(i) = random.normal();
    problem.y = X * w + 0.1 * noise;

    // scikit-learn's grid (`_alpha_grid` with eps = 0.01, n_alphas = 50):
    // np.logspace(log10(0.01·λ_max), log10(λ_max), 50), largest first, computed
    // as numpy does (start + i·step, the last point set to the end exactly).
    const double lambdaMax = (X.transpose() * problem.y).cwiseAbs().maxCoeff() / n;
    const double start = std::log10(lambdaMax * 0.01);
    const double stop = std::log10(lambdaMax);
    const double step = (stop - start) / double(pathLength - 1);
    problem.lambdas.resize(pathLength);
    for (int i = 0; i < pathLength; ++i) {
        const double exponent = i == pathLength - 1 ? stop : double(i) * step + start;
        problem.lambdas(pathLength - 1 - i) = std::pow(10.0, exponent);
    }
    return problem;
}

QByteArray LassoProblem::encode() const
{
    const qint32 n = qint32(X.rows());
    const qint32 p = qint32(X.cols());
    const qint32 k = qint32(lambdas.size());
    QByteArray out;
    out.reserve(12 + 8 * (qsizetype(n) * p + n + k));
    out.append(reinterpret_cast<const char *>(&n), 4);
    out.append(reinterpret_cast<const char *>(&p), 4);
    out.append(reinterpret_cast<const char *>(&k), 4);
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rowMajor = X;
    out.append(reinterpret_cast<const char *>(rowMajor.data()), qsizetype(sizeof(double)) * n * p);
    out.append(reinterpret_cast<const char *>(y.data()), qsizetype(sizeof(double)) * n);
    out.append(reinterpret_cast<const char *>(lambdas.data()), qsizetype(sizeof(double)) * k);
    return out;
}

double LassoProblem::objective(const Eigen::VectorXd &w, double lambda) const
{
    const Eigen::VectorXd r = y - X * w;
    return r.squaredNorm() / (2.0 * double(X.rows())) + lambda * w.lpNorm<1>();
}

} // namespace dreamrsi
