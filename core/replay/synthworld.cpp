#include "synthworld.h"

#include "model/splitmix64.h"

#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

/// SplitMix64: small, fast, and the same on every platform.
using SplitMix = SplitMix64;

double roundTo6(double x)
{
    return std::round(x * 1e6) / 1e6;
}

} // namespace

QStringList SynthWorld::regimes()
{
    return {QStringLiteral("steady"), QStringLiteral("plateau"), QStringLiteral("needle"), QStringLiteral("noisy")};
}

QStringList SynthWorld::studyRegimes()
{
    return {QStringLiteral("directions"), QStringLiteral("late"), QStringLiteral("flat"), QStringLiteral("deep")};
}

QString SynthWorld::validate(const SynthParams &p)
{
    if (p.width < 1 || p.width > 10000)
        return QStringLiteral("width must be in 1..10000 (got %1)").arg(p.width);
    if (p.depth < 1 || p.depth > 10000)
        return QStringLiteral("depth must be in 1..10000 (got %1)").arg(p.depth);
    if (!(p.failRate >= 0.0 && p.failRate <= 1.0))
        return QStringLiteral("fail-rate must be in [0, 1] (got %1)").arg(p.failRate);
    if (!regimes().contains(p.regime) && !studyRegimes().contains(p.regime))
        return QStringLiteral("unknown regime '%1' (known: %2)").arg(p.regime, (regimes() + studyRegimes()).join(QStringLiteral(", ")));
    if (p.maxParallelism < 1)
        return QStringLiteral("max parallelism must be ≥ 1 (got %1)").arg(p.maxParallelism);
    return {};
}

namespace {

/// The study regimes (see the header): a direction per branch, drawn per
/// world; what it is worth is fixed by the regime.
QList<Cell> studyCells(const SynthParams &p, SplitMix &rng)
{
    const QString failClasses[] = {QStringLiteral("compile"), QStringLiteral("runtime"), QStringLiteral("correctness"),
                                   QStringLiteral("resource"), QStringLiteral("timeout")};
    QList<Cell> cells;
    for (int b = 0; b < p.width; ++b) {
        const int low = std::max(1, (p.depth + 1) / 2);
        const int length = low + rng.below(p.depth - low + 1);
        const int direction = rng.below(8);
        const bool strongDirection = direction == 2 || direction == 5;
        double current = 0.0, step = 0.0;
        int lateFrom = 0;
        bool climbs = false;
        if (p.regime == QLatin1String("directions")) {
            current = strongDirection ? 1.25 + 0.15 * rng.uniform() : 0.8 + 0.25 * rng.uniform();
            step = strongDirection ? 0.05 + 0.05 * rng.uniform() : 0.004 * rng.uniform();
        } else if (p.regime == QLatin1String("late") || p.regime == QLatin1String("deep")) {
            // The same draws for both; deep's gains start one attempt later
            // (4 to 6), past where a shallow first deployment stops.
            current = 0.9 + 0.2 * rng.uniform();
            step = 0.08 + 0.08 * rng.uniform();
            lateFrom = (p.regime == QLatin1String("deep") ? 4 : 3) + rng.below(3);
            climbs = rng.uniform() < 0.5;
        } else { // flat
            current = 0.7 + 0.6 * rng.uniform();
        }
        const double first = current;
        for (int a = 0; a < length; ++a) {
            Cell c;
            c.id = QStringLiteral("b%1a%2").arg(b).arg(a);
            c.branch = b;
            c.attempt = a;
            c.seq = qint64(a) * p.width + b;
            c.tags = {QStringLiteral("direction:d%1").arg(direction), QStringLiteral("regime:") + p.regime};
            const double failDraw = rng.uniform();
            const double noise = rng.uniform() - 0.5;
            const int failPick = rng.below(5);
            if (a > 0 && failDraw < p.failRate) {
                c.evaluated = true;
                c.valid = false;
                c.failClass = failClasses[failPick];
                c.error = c.failClass + QStringLiteral(" failure in the candidate");
                c.nValid = 0;
                c.nTotal = 5;
                cells.append(c);
                continue;
            }
            double score = current;
            if (a > 0) {
                if (p.regime == QLatin1String("directions")) {
                    current += step * (1.0 + 0.5 * noise);
                    score = current;
                } else if (lateFrom > 0) { // late and deep
                    if (climbs && a >= lateFrom)
                        current += step * (1.0 + 0.5 * noise);
                    score = a >= lateFrom && climbs ? current : first - 0.01 * a + 0.01 * noise;
                } else {
                    score = first - 0.02 - 0.03 * std::abs(noise);
                }
            }
            c.score = roundTo6(score + 0.005 * noise);
            c.evaluated = true;
            c.valid = true;
            c.failClass = QStringLiteral("ok");
            c.nValid = 5;
            c.nTotal = 5;
            cells.append(c);
        }
    }
    return cells;
}

} // namespace

DiscoveryTree SynthWorld::generate(const SynthParams &p)
{
    SplitMix rng(p.seed * 0x2545F4914F6CDD1Dull + 0x1234567ull);
    const QString failClasses[] = {QStringLiteral("compile"), QStringLiteral("runtime"), QStringLiteral("correctness"),
                                   QStringLiteral("resource"), QStringLiteral("timeout")};
    const double baseline = 1.0;
    const bool study = studyRegimes().contains(p.regime);
    QList<Cell> cells = study ? studyCells(p, rng) : QList<Cell>();
    for (int b = 0; !study && b < p.width; ++b) {
        const int low = std::max(1, (p.depth + 1) / 2);
        const int length = low + rng.below(p.depth - low + 1);
        const bool strong = rng.uniform() < 0.1;
        double quality = 0.6 + 0.8 * rng.uniform();
        if (p.regime == QLatin1String("needle"))
            quality = strong ? 1.6 + 0.6 * rng.uniform() : 0.5 + 0.3 * rng.uniform();
        const int envFrom = rng.uniform() < 0.05 ? rng.below(length) : -1;
        double step = 0.04 + 0.08 * rng.uniform();
        double current = quality;
        for (int a = 0; a < length; ++a) {
            Cell c;
            c.id = QStringLiteral("b%1a%2").arg(b).arg(a);
            c.branch = b;
            c.attempt = a;
            c.seq = qint64(a) * p.width + b;
            c.tags = {QStringLiteral("direction:d%1").arg(b % 5), QStringLiteral("regime:") + p.regime};
            const double failDraw = rng.uniform();
            const double noise = rng.uniform() - 0.5;
            const int failPick = rng.below(5);
            if (envFrom >= 0 && a >= envFrom) {
                c.evaluated = false;
                c.failClass = QStringLiteral("env");
                c.error = QStringLiteral("dependency missing on the evaluation host");
            } else if (failDraw < p.failRate) {
                c.evaluated = true;
                c.valid = false;
                c.failClass = failClasses[failPick];
                c.error = c.failClass + QStringLiteral(" failure in the candidate");
                c.nValid = 0;
                c.nTotal = 5;
            } else {
                if (p.regime == QLatin1String("steady")) {
                    current += step * (1.0 + 0.5 * noise);
                } else if (p.regime == QLatin1String("plateau")) {
                    current += step;
                    step *= 0.5;
                } else if (p.regime == QLatin1String("needle")) {
                    current += strong ? step * (1.0 + noise) : 0.01 * noise;
                } else { // noisy
                    current = quality + 0.6 * noise;
                }
                const double score = roundTo6(current + 0.02 * noise);
                c.score = score;
                c.evaluated = true;
                c.valid = true;
                c.failClass = QStringLiteral("ok");
                c.nValid = 5;
                c.nTotal = 5;
            }
            cells.append(c);
        }
    }
    TreeMeta meta;
    meta.task = QStringLiteral("synthetic-") + p.regime;
    meta.iteration = qint64(p.seed);
    meta.baselineScore = baseline;
    meta.maxParallelism = p.maxParallelism;
    meta.grid = GridShape{p.width, p.depth - 1};
    meta.payload.insert(QLatin1String("synthetic"),
                        QJsonObject{{QLatin1String("regime"), p.regime},
                                    {QLatin1String("seed"), QString::number(p.seed)},
                                    {QLatin1String("fail_rate"), p.failRate},
                                    {QLatin1String("width"), p.width},
                                    {QLatin1String("depth"), p.depth}});
    std::sort(cells.begin(), cells.end(), [](const Cell &x, const Cell &y) { return x.seq < y.seq; });
    TreeError error;
    std::optional<DiscoveryTree> tree = DiscoveryTree::build(meta, cells, &error);
    Q_ASSERT_X(tree, "SynthWorld::generate", qPrintable(error.message));
    return tree ? *tree : DiscoveryTree();
}

} // namespace dreamrsi
