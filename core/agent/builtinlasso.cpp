#include "builtinlasso.h"

#include "builtinrandom.h"

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

const char *const programTemplate = R"CPP(@HEADER@
@FLAGS@
// Lasso path: written by the built-in agent.
//
// Cyclic coordinate descent with warm starts along the path. Every few sweeps
// the residual and all correlations are recomputed exactly and the duality
// gap is taken; the path point is accepted only when the gap (an upper bound
// on the distance to the optimal objective) is below kTolerance, so every
// variant below is exact to that bound whatever shortcuts it takes:
//   kScreen      strong rule: start each lambda with the features that can
//                enter (|x_j'r|/n >= 2*lambda - previous lambda) and add any
//                feature that violates the optimality conditions at a check;
//   kActiveSet   after each sweep, extra sweeps over the nonzero features only;
//   kCovariance  keep q = X'r/n instead of r, updated with lazily computed
//                Gram columns (cheap when n is large compared with the support).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

constexpr bool kScreen = @SCREEN@;
constexpr bool kActiveSet = @ACTIVE@;
constexpr bool kCovariance = @COVARIANCE@;
constexpr int kGapEvery = @GAP_EVERY@;
constexpr int kInnerSweeps = @INNER@;
constexpr double kTolerance = @TOLERANCE@;

bool readAll(void *data, size_t bytes)
{
    return std::fread(data, 1, bytes, stdin) == bytes;
}

double dot(const double *a, const double *b, int n)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for (; i < n; ++i)
        s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

void axpy(double alpha, const double *x, double *y, int n)
{
    for (int i = 0; i < n; ++i)
        y[i] += alpha * x[i];
}

double soft(double z, double t)
{
    return z > t ? z - t : z < -t ? z + t : 0.0;
}

} // namespace

int main()
{
    std::int32_t header[3];
    if (!readAll(header, sizeof header))
        return 1;
    const int n = header[0], p = header[1], k = header[2];
    if (n <= 0 || p <= 0 || k <= 0)
        return 1;
    std::vector<double> rows(size_t(n) * p), y(n), lambdas(k);
    if (!readAll(rows.data(), sizeof(double) * rows.size()) || !readAll(y.data(), sizeof(double) * n)
        || !readAll(lambdas.data(), sizeof(double) * k))
        return 1;
    std::vector<double> X(size_t(n) * p); // column-major
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < p; ++j)
            X[size_t(j) * n + i] = rows[size_t(i) * p + j];
    rows = std::vector<double>();
    auto col = [&](int j) { return X.data() + size_t(j) * n; };

    std::vector<double> colSq(p), w(p, 0.0), r(y), corr(p), out(size_t(p) * k, 0.0);
    for (int j = 0; j < p; ++j) {
        colSq[j] = dot(col(j), col(j), n) / n;
        corr[j] = dot(col(j), r.data(), n) / n;
    }
    const double yy = dot(y.data(), y.data(), n);
    const double tolerance = std::max(kTolerance, 1e-14 * yy / n);
    std::vector<std::vector<double>> gram(kCovariance ? p : 0);
    std::vector<double> &q = corr; // covariance mode keeps X'r/n up to date
    std::vector<int> work, active;
    std::vector<char> inWork(p, 0);
    double previous = 0.0;
    for (int j = 0; j < p; ++j)
        previous = std::max(previous, std::abs(corr[j]));

    auto update = [&](int j, double lambda) {
        const double rho = (kCovariance ? q[j] : dot(col(j), r.data(), n) / n) + colSq[j] * w[j];
        const double fresh = soft(rho, lambda) / colSq[j];
        const double delta = fresh - w[j];
        if (delta == 0.0)
            return 0.0;
        w[j] = fresh;
        if (kCovariance) {
            std::vector<double> &g = gram[j];
            if (g.empty()) {
                g.resize(p);
                for (int m = 0; m < p; ++m)
                    g[m] = dot(col(m), col(j), n) / n;
            }
            axpy(-delta, g.data(), q.data(), p);
        } else {
            axpy(-delta, col(j), r.data(), n);
        }
        return std::abs(delta) * std::sqrt(colSq[j]);
    };

    for (int l = 0; l < k; ++l) {
        const double lambda = lambdas[l];
        work.clear();
        std::fill(inWork.begin(), inWork.end(), 0);
        for (int j = 0; j < p; ++j) {
            if (colSq[j] == 0.0)
                continue;
            if (!kScreen || w[j] != 0.0 || std::abs(corr[j]) >= 2.0 * lambda - previous) {
                work.push_back(j);
                inWork[j] = 1;
            }
        }
        for (int round = 0; round < 20000; ++round) {
            for (int sweep = 0; sweep < kGapEvery; ++sweep) {
                for (const int j : work)
                    update(j, lambda);
                if (kActiveSet) {
                    active.clear();
                    for (const int j : work)
                        if (w[j] != 0.0)
                            active.push_back(j);
                    for (int inner = 0; inner < kInnerSweeps; ++inner) {
                        double biggest = 0.0;
                        for (const int j : active)
                            biggest = std::max(biggest, update(j, lambda));
                        if (biggest < 1e-13)
                            break;
                    }
                }
            }
            // The certificate: exact residual, correlations and duality gap.
            r = y;
            double l1 = 0.0;
            for (int j = 0; j < p; ++j) {
                if (w[j] != 0.0) {
                    axpy(-w[j], col(j), r.data(), n);
                    l1 += std::abs(w[j]);
                }
            }
            double biggest = 0.0;
            for (int j = 0; j < p; ++j) {
                corr[j] = dot(col(j), r.data(), n) / n;
                biggest = std::max(biggest, std::abs(corr[j]));
            }
            const double rr = dot(r.data(), r.data(), n);
            const double primal = rr / (2.0 * n) + lambda * l1;
            const double s = biggest > lambda ? lambda / biggest : 1.0;
            double shifted = 0.0;
            for (int i = 0; i < n; ++i) {
                const double v = y[i] - s * r[i];
                shifted += v * v;
            }
            const double dual = (yy - shifted) / (2.0 * n);
            if (primal - dual <= tolerance)
                break;
            if (kScreen) {
                for (int j = 0; j < p; ++j) {
                    if (!inWork[j] && colSq[j] != 0.0 && std::abs(corr[j]) > lambda) {
                        work.push_back(j);
                        inWork[j] = 1;
                    }
                }
            }
        }
        std::copy(w.begin(), w.end(), out.begin() + size_t(l) * p);
        previous = lambda;
    }
    std::fwrite(out.data(), sizeof(double), out.size(), stdout);
    return 0;
}
)CPP";

const QStringList flagSets{QStringLiteral("none"), QStringLiteral("unroll"), QStringLiteral("reassociate")};

QString flagLine(const QString &flags)
{
    if (flags == QLatin1String("unroll"))
        return QStringLiteral("// dreamrsi-flags: -funroll-loops");
    if (flags == QLatin1String("reassociate"))
        return QStringLiteral("// dreamrsi-flags: -fno-math-errno -fno-signed-zeros -fno-trapping-math -fassociative-math");
    return QStringLiteral("// (no extra compiler flags)");
}

BuiltinParams fresh(const QString &direction)
{
    BuiltinParams p;
    p.setInteger(QStringLiteral("screen"), 0);
    p.setInteger(QStringLiteral("active"), 0);
    p.setInteger(QStringLiteral("covariance"), 0);
    p.setInteger(QStringLiteral("gap_every"), 5);
    p.setInteger(QStringLiteral("inner"), 20);
    p.setNumber(QStringLiteral("tolerance"), 1e-10);
    p.set(QStringLiteral("flags"), QStringLiteral("none"));
    if (direction == QLatin1String("strong-rules")) {
        p.setInteger(QStringLiteral("screen"), 1);
    } else if (direction == QLatin1String("active-set")) {
        p.setInteger(QStringLiteral("active"), 1);
        p.setInteger(QStringLiteral("gap_every"), 2);
    } else if (direction == QLatin1String("covariance-updates")) {
        p.setInteger(QStringLiteral("covariance"), 1);
        p.setInteger(QStringLiteral("active"), 1);
        p.setInteger(QStringLiteral("gap_every"), 3);
    } else if (direction == QLatin1String("screen-and-active")) {
        p.setInteger(QStringLiteral("screen"), 1);
        p.setInteger(QStringLiteral("active"), 1);
        p.setInteger(QStringLiteral("gap_every"), 2);
    } else if (direction == QLatin1String("vector-math")) {
        p.set(QStringLiteral("flags"), QStringLiteral("reassociate"));
    }
    return p;
}

} // namespace

QString BuiltinLasso::task() const
{
    return QStringLiteral("lasso_path");
}

QStringList BuiltinLasso::directions() const
{
    return {QStringLiteral("strong-rules"), QStringLiteral("active-set"), QStringLiteral("covariance-updates"),
            QStringLiteral("screen-and-active"), QStringLiteral("vector-math")};
}

QString BuiltinLasso::describe(const QString &direction) const
{
    if (direction == QLatin1String("active-set"))
        return QStringLiteral("after every full sweep, sweep the nonzero coefficients until they settle");
    if (direction == QLatin1String("covariance-updates"))
        return QStringLiteral("update the correlations X'r/n with cached Gram columns instead of the residual");
    if (direction == QLatin1String("screen-and-active"))
        return QStringLiteral("strong-rule screening and active-set sweeps together");
    if (direction == QLatin1String("vector-math"))
        return QStringLiteral("let the compiler reassociate sums so the dot products vectorise");
    return QStringLiteral("sequential strong rules: sweep only the features that can enter, check the rest at "
                          "every gap check");
}

BuiltinDraft BuiltinLasso::draft(const BuiltinStep &step, BuiltinRandom &random) const
{
    BuiltinDraft d;
    BuiltinParams &p = d.params;
    if (step.parentParams && step.parentParams->text(QStringLiteral("task")) == task()) {
        p = *step.parentParams;
        if (parentFailed(step)) {
            const QString error = step.context->parentError;
            if (error.contains(QLatin1String("compil"), Qt::CaseInsensitive) || error.contains(QLatin1String("flag"))) {
                p.set(QStringLiteral("flags"), QStringLiteral("none"));
                d.notes << QStringLiteral("The parent did not build (%1): the extra compiler flags are dropped.")
                               .arg(error.left(200));
            } else {
                p.setNumber(QStringLiteral("tolerance"), std::max(1e-13, p.number(QStringLiteral("tolerance"), 1e-10) * 0.01));
                p.setInteger(QStringLiteral("gap_every"), 1);
                p.setInteger(QStringLiteral("screen"), 0);
                p.setInteger(QStringLiteral("covariance"), 0);
                d.notes << QStringLiteral("The parent failed (%1): back to plain sweeps with a gap check after every "
                                          "sweep and a 100× tighter gap.")
                               .arg(error.isEmpty() ? QStringLiteral("no score") : error.left(200));
            }
        } else {
            const int which = random.range(0, 4);
            QString change;
            if (which == 0) {
                p.setInteger(QStringLiteral("screen"), 1 - p.integer(QStringLiteral("screen"), 0));
                change = QStringLiteral("toggles strong-rule screening");
            } else if (which == 1) {
                p.setInteger(QStringLiteral("active"), 1 - p.integer(QStringLiteral("active"), 0));
                change = QStringLiteral("toggles the active-set inner sweeps");
            } else if (which == 2) {
                p.setInteger(QStringLiteral("gap_every"), random.range(1, 8));
                p.setInteger(QStringLiteral("inner"), random.range(5, 60));
                change = QStringLiteral("moves how often the gap is checked and how long the inner sweeps run");
            } else if (which == 3) {
                p.set(QStringLiteral("flags"), random.pick(flagSets));
                change = QStringLiteral("tries another set of compiler flags");
            } else {
                p.setInteger(QStringLiteral("covariance"), 1 - p.integer(QStringLiteral("covariance"), 0));
                change = QStringLiteral("toggles covariance updates");
            }
            if (p.changedFrom(*step.parentParams).isEmpty()) {
                p.setInteger(QStringLiteral("gap_every"), p.integer(QStringLiteral("gap_every"), 5) % 8 + 1);
                change += QStringLiteral(" (no change there, so the gap-check interval moves instead)");
            }
            d.notes << QStringLiteral("The parent ran at score %1; this attempt keeps its solver and %2, to see "
                                      "whether the time drops.")
                           .arg(QString::number(step.context->parentScore.value_or(0.0), 'g', 6), change);
        }
    } else {
        p = fresh(step.direction);
        d.notes << QStringLiteral("A solver variant for this branch: %1. The duality-gap certificate (gap below "
                                  "%2) keeps it exact whatever it skips.")
                       .arg(describe(step.direction), p.text(QStringLiteral("tolerance")));
    }
    p.setNumber(QStringLiteral("tolerance"), std::clamp(p.number(QStringLiteral("tolerance"), 1e-10), 1e-13, 1e-8));
    p.setInteger(QStringLiteral("gap_every"), std::clamp(p.integer(QStringLiteral("gap_every"), 5), 1, 20));
    p.setInteger(QStringLiteral("inner"), std::clamp(p.integer(QStringLiteral("inner"), 20), 1, 200));
    stamp(p, step, random);

    auto flag = [&](const char *key) { return p.integer(QLatin1String(key), 0) != 0 ? QStringLiteral("true") : QStringLiteral("false"); };
    d.program = QString::fromUtf8(programTemplate);
    d.program.replace(QStringLiteral("@HEADER@"), p.header(QStringLiteral("//")));
    d.program.replace(QStringLiteral("@FLAGS@"), flagLine(p.text(QStringLiteral("flags"))));
    d.program.replace(QStringLiteral("@SCREEN@"), flag("screen"));
    d.program.replace(QStringLiteral("@ACTIVE@"), flag("active"));
    d.program.replace(QStringLiteral("@COVARIANCE@"), flag("covariance"));
    d.program.replace(QStringLiteral("@GAP_EVERY@"), QString::number(p.integer(QStringLiteral("gap_every"), 5)));
    d.program.replace(QStringLiteral("@INNER@"), QString::number(p.integer(QStringLiteral("inner"), 20)));
    d.program.replace(QStringLiteral("@TOLERANCE@"), QString::number(p.number(QStringLiteral("tolerance"), 1e-10), 'e', 3));
    return d;
}

} // namespace dreamrsi
