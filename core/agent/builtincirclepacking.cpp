#include "builtincirclepacking.h"

#include "builtinrandom.h"
#include "eval/circlepackingevaluator.h"

#include <algorithm>

namespace dreamrsi {

namespace {

// The program. @HEADER@, @PARAMS@ and @WARM@ are filled in by draft().
const char *const programTemplate = R"PY(@HEADER@
"""Circle packing (26 circles): written by the built-in agent.

Each start is pushed towards a large radius sum with a quadratic penalty on
overlaps and walls (L-BFGS-B, penalty weight raised stage by stage), then
polished with SLSQP under the exact constraints. Hops take the best packing
so far, move its smallest circles into the widest gaps, kick every centre by
a random offset and optimise again. WARM,
when set, is the parent's packing: it is kept as a candidate, so the result
is never worse than the parent's. Every candidate goes through an exact
repair (walls, then pairwise shrinking) before it is compared. TARGET bounds
what this one change may gain: a better packing is scaled down to it (a
smaller radius never breaks a constraint).
"""
import json
import math

import numpy as np
from scipy.optimize import minimize

P = @PARAMS@
WARM = @WARM@
TARGET = float(P.get("target", math.inf))

N = 26
rng = np.random.default_rng(int(P["seed"]))
IU, JU = np.triu_indices(N, 1)
PAIRS = np.arange(len(IU))
EYE = np.eye(N)
ZERO = np.zeros((N, N))
WALL_JAC = np.block([[EYE, ZERO, -EYE], [-EYE, ZERO, -EYE], [ZERO, EYE, -EYE], [ZERO, -EYE, -EYE]])
BOUNDS = [(0.0, 1.0)] * (2 * N) + [(0.0, 0.5)] * N


def split(z):
    return z[:N], z[N:2 * N], z[2 * N:]


def penalty(z, mu):
    x, y, r = split(z)
    dx = x[IU] - x[JU]
    dy = y[IU] - y[JU]
    d = np.sqrt(dx * dx + dy * dy) + 1e-12
    ov = np.maximum(r[IU] + r[JU] - d, 0.0)
    w = [np.maximum(r - x, 0.0), np.maximum(x + r - 1.0, 0.0), np.maximum(r - y, 0.0), np.maximum(y + r - 1.0, 0.0)]
    f = -r.sum() + mu * (np.dot(ov, ov) + sum(np.dot(v, v) for v in w))
    c = 2.0 * mu * ov
    gx = np.zeros(N)
    gy = np.zeros(N)
    gr = -np.ones(N)
    np.add.at(gx, IU, -c * dx / d)
    np.add.at(gx, JU, c * dx / d)
    np.add.at(gy, IU, -c * dy / d)
    np.add.at(gy, JU, c * dy / d)
    np.add.at(gr, IU, c)
    np.add.at(gr, JU, c)
    gr += 2.0 * mu * (w[0] + w[1] + w[2] + w[3])
    gx += 2.0 * mu * (w[1] - w[0])
    gy += 2.0 * mu * (w[3] - w[2])
    return f, np.concatenate([gx, gy, gr])


def constraints(z):
    x, y, r = split(z)
    dx = x[IU] - x[JU]
    dy = y[IU] - y[JU]
    s = r[IU] + r[JU]
    return np.concatenate([x - r, 1.0 - x - r, y - r, 1.0 - y - r, dx * dx + dy * dy - s * s])


def constraints_jac(z):
    x, y, r = split(z)
    dx = x[IU] - x[JU]
    dy = y[IU] - y[JU]
    s = r[IU] + r[JU]
    J = np.zeros((len(IU), 3 * N))
    J[PAIRS, IU] = 2 * dx
    J[PAIRS, JU] = -2 * dx
    J[PAIRS, N + IU] = 2 * dy
    J[PAIRS, N + JU] = -2 * dy
    J[PAIRS, 2 * N + IU] = -2 * s
    J[PAIRS, 2 * N + JU] = -2 * s
    return np.vstack([WALL_JAC, J])


def optimise(x, y, r, first_stage):
    z = np.concatenate([x, y, r])
    for k in range(first_stage, int(P["stages"])):
        mu = float(P["mu0"]) * float(P["mu_growth"]) ** k
        z = minimize(penalty, z, args=(mu,), jac=True, method="L-BFGS-B", bounds=BOUNDS,
                     options={"maxiter": int(P["lbfgs"])}).x
    if int(P["polish"]) > 0:
        res = minimize(lambda v: -np.sum(v[2 * N:]), z, method="SLSQP",
                       jac=lambda v: np.concatenate([np.zeros(2 * N), -np.ones(N)]),
                       constraints=[{"type": "ineq", "fun": constraints, "jac": constraints_jac}],
                       bounds=BOUNDS, options={"maxiter": int(P["polish"]), "ftol": 1e-12})
        if np.all(np.isfinite(res.x)):
            z = res.x
    return split(z)


def valid(xs, ys, rs):
    for i in range(N):
        if not (rs[i] >= 0.0 and xs[i] - rs[i] >= 0.0 and 1.0 - rs[i] - xs[i] >= 0.0
                and ys[i] - rs[i] >= 0.0 and 1.0 - rs[i] - ys[i] >= 0.0):
            return False
        for j in range(i + 1, N):
            if math.hypot(xs[i] - xs[j], ys[i] - ys[j]) - (rs[i] + rs[j]) < 1e-15:
                return False
    return True


def repair(x, y, r):
    xs, ys, rs = [float(v) for v in x], [float(v) for v in y], [float(v) for v in r]
    if all(math.isfinite(v) for v in xs + ys + rs) and valid(xs, ys, rs):
        return xs, ys, rs
    xs = [min(max(float(v), 0.0), 1.0) for v in x]
    ys = [min(max(float(v), 0.0), 1.0) for v in y]
    rs = [max(0.0, min(float(r[i]), xs[i], 1.0 - xs[i], ys[i], 1.0 - ys[i])) * (1.0 - 1e-12) for i in range(N)]
    for _ in range(200):
        changed = False
        for i in range(N):
            for j in range(i + 1, N):
                d = math.hypot(xs[i] - xs[j], ys[i] - ys[j])
                if rs[i] + rs[j] > d * (1.0 - 1e-13):
                    f = d / (rs[i] + rs[j]) * (1.0 - 1e-12)
                    rs[i] *= f
                    rs[j] *= f
                    changed = True
        if not changed:
            break
    return xs, ys, rs


def start(kind):
    if kind == "hex":
        rows = [[5, 5, 6, 5, 5], [6, 5, 6, 5, 4], [5, 6, 5, 6, 4], [4, 5, 4, 5, 4, 4], [6, 5, 5, 5, 5]]
        pattern = rows[int(rng.integers(len(rows)))]
        pts = []
        for k, count in enumerate(pattern):
            shift = 0.15 / count if k % 2 else 0.0
            for i in range(count):
                pts.append(((i + 0.5) / count + shift, (k + 0.5) / len(pattern)))
        pts = np.array(pts[:N])
    elif kind == "grid":
        g = (np.arange(5) + 0.5) / 5
        pts = np.array([(a, b) for a in g for b in g] + [tuple(rng.uniform(0.1, 0.9, 2))])
    elif kind == "ring":
        a0 = rng.uniform(0, 2 * math.pi)
        pts = [(0.5, 0.5)]
        pts += [(0.5 + 0.24 * math.cos(a0 + 2 * math.pi * k / 8), 0.5 + 0.24 * math.sin(a0 + 2 * math.pi * k / 8))
                for k in range(8)]
        pts += [(0.5 + 0.42 * math.cos(a0 + 2 * math.pi * k / 17), 0.5 + 0.42 * math.sin(a0 + 2 * math.pi * k / 17))
                for k in range(17)]
        pts = np.array(pts)
    else:
        pts = rng.uniform(0.05, 0.95, (N, 2))
    pts = np.clip(pts + rng.normal(0.0, float(P["jitter"]), pts.shape), 0.02, 0.98)
    return pts[:, 0], pts[:, 1], np.full(N, 0.02)


best = None


def consider(x, y, r):
    global best
    cand = repair(x, y, r)
    if best is None or sum(cand[2]) > sum(best[2]):
        best = cand


if WARM is not None and len(WARM) == N:
    w = np.array(WARM, dtype=float)
    if np.all(np.isfinite(w)):
        consider(w[:, 0], w[:, 1], w[:, 2])
for _ in range(int(P["starts"])):
    consider(*optimise(*start(P["init"]), 0))
for _ in range(int(P["hops"])):
    x, y, r = (np.array(v, dtype=float) for v in best)
    for i in np.argsort(r)[:int(P["hop_k"])]:
        # Move a small circle to the widest gap among random probe points.
        keep = np.arange(N) != i
        probes = rng.uniform(0.02, 0.98, (200, 2))
        room = np.min(np.hypot(probes[:, None, 0] - x[keep], probes[:, None, 1] - y[keep]) - r[keep], axis=1)
        room = np.minimum(room, np.min(np.minimum(probes, 1.0 - probes), axis=1))
        x[i], y[i] = probes[int(np.argmax(room))]
        r[i] = max(0.0, float(np.max(room)))
    x = np.clip(x + rng.normal(0.0, float(P["kick"]), N), 0.0, 1.0)
    y = np.clip(y + rng.normal(0.0, float(P["kick"]), N), 0.0, 1.0)
    consider(*optimise(x, y, r * 0.9, int(P["hop_stage"])))

total = sum(best[2])
if total > TARGET:
    shrink = TARGET / total
    best = (best[0], best[1], [v * shrink for v in best[2]])

print(json.dumps({"circles": [[a, b, c] for a, b, c in zip(*best)]}))
)PY";

const QStringList inits{QStringLiteral("hex"), QStringLiteral("grid"), QStringLiteral("ring"), QStringLiteral("random")};

BuiltinParams fresh(const QString &direction)
{
    BuiltinParams p;
    p.set(QStringLiteral("init"), QStringLiteral("hex"));
    p.setInteger(QStringLiteral("starts"), 3);
    p.setInteger(QStringLiteral("hops"), 2);
    p.setInteger(QStringLiteral("hop_k"), 2);
    p.setInteger(QStringLiteral("hop_stage"), 0);
    p.setNumber(QStringLiteral("kick"), 0.05);
    p.setNumber(QStringLiteral("jitter"), 0.03);
    p.setNumber(QStringLiteral("mu0"), 10);
    p.setNumber(QStringLiteral("mu_growth"), 10);
    p.setInteger(QStringLiteral("stages"), 6);
    p.setInteger(QStringLiteral("lbfgs"), 300);
    p.setInteger(QStringLiteral("polish"), 60);
    if (direction == QLatin1String("grid-jitter")) {
        p.set(QStringLiteral("init"), QStringLiteral("grid"));
        p.setNumber(QStringLiteral("jitter"), 0.04);
    } else if (direction == QLatin1String("ring-layout")) {
        p.set(QStringLiteral("init"), QStringLiteral("ring"));
    } else if (direction == QLatin1String("random-multistart")) {
        p.set(QStringLiteral("init"), QStringLiteral("random"));
        p.setInteger(QStringLiteral("starts"), 5);
        p.setInteger(QStringLiteral("hops"), 0);
    } else if (direction == QLatin1String("basin-hopping")) {
        p.setInteger(QStringLiteral("starts"), 1);
        p.setInteger(QStringLiteral("hops"), 5);
        p.setInteger(QStringLiteral("hop_k"), 3);
    }
    return p;
}

QString warmLiteral(const QJsonValue &output, QString *note)
{
    if (output.isUndefined())
        return QStringLiteral("None");
    QString error;
    const auto circles = CirclePackingEvaluator::parse(output, &error);
    if (!circles || circles->size() != 26) {
        *note = QStringLiteral("the parent's output could not be read back (%1)")
                    .arg(error.isEmpty() ? QStringLiteral("wrong count") : error);
        return QStringLiteral("None");
    }
    QStringList rows;
    for (const auto &c : *circles)
        rows << QStringLiteral("[%1, %2, %3]").arg(QString::number(c.x, 'g', 17), QString::number(c.y, 'g', 17),
                                                   QString::number(c.r, 'g', 17));
    return QLatin1Char('[') + rows.join(QStringLiteral(",\n        ")) + QLatin1Char(']');
}

} // namespace

QString BuiltinCirclePacking::task() const
{
    return QStringLiteral("circle_packing_26");
}

QStringList BuiltinCirclePacking::directions() const
{
    return {QStringLiteral("hex-rows"), QStringLiteral("grid-jitter"), QStringLiteral("ring-layout"),
            QStringLiteral("random-multistart"), QStringLiteral("basin-hopping")};
}

QString BuiltinCirclePacking::describe(const QString &direction) const
{
    if (direction == QLatin1String("grid-jitter"))
        return QStringLiteral("start from a jittered 5×5 grid plus one extra circle and let the penalty method open it up");
    if (direction == QLatin1String("ring-layout"))
        return QStringLiteral("start from a centre circle with rings of 8 and 17 around it at a random rotation");
    if (direction == QLatin1String("random-multistart"))
        return QStringLiteral("many independent random starts, no hops: breadth over depth");
    if (direction == QLatin1String("basin-hopping"))
        return QStringLiteral("few starts and many hops: move the smallest circles of the best packing and re-optimise");
    return QStringLiteral("start from staggered hexagonal rows (5–6 circles per row) and polish");
}

std::optional<BuiltinScale> BuiltinCirclePacking::scale() const
{
    // The initial ring layout scores 1.5440; the best published packing 2.6359830849.
    return BuiltinScale{1.5440, 2.6359830849};
}

BuiltinProfile BuiltinCirclePacking::profile(const QString &direction) const
{
    // {ceiling, step, first, failRate}: how far each start pattern carries.
    if (direction == QLatin1String("grid-jitter"))
        return {0.78, 0.30, 0.50, 0.20};
    if (direction == QLatin1String("ring-layout"))
        return {0.60, 0.30, 0.55, 0.18};
    if (direction == QLatin1String("random-multistart"))
        return {0.85, 0.22, 0.35, 0.28};
    if (direction == QLatin1String("basin-hopping"))
        return {0.97, 0.28, 0.40, 0.26};
    return {0.92, 0.35, 0.45, 0.22}; // hex-rows
}

QList<BuiltinDefect> BuiltinCirclePacking::defects() const
{
    using K = BuiltinDefect::Kind;
    return {
        {K::Invalid, QStringLiteral("[[a, b, c] for a, b, c in zip(*best)]"),
         QStringLiteral("[[a, b, c] for a, b, c in zip(*best)][1:]"),
         QStringLiteral("an off-by-one slice drops the first circle from the output (25 circles)")},
        {K::Invalid, QStringLiteral("[[a, b, c] for a, b, c in zip(*best)]"),
         QStringLiteral("[[a, b, 2 * c] for a, b, c in zip(*best)]"),
         QStringLiteral("the output gives diameters where the format wants radii, so circles overlap")},
        {K::Crash, QStringLiteral("    return z[:N], z[N:2 * N], z[2 * N:]\n"),
         QStringLiteral("    return z[:N], z[N:2 * N]\n"),
         QStringLiteral("split() returns two of the three arrays, so unpacking raises a ValueError")},
        {K::Timeout, QStringLiteral("    for k in range(first_stage, int(P[\"stages\"])):\n"),
         QStringLiteral("    k = first_stage\n    while k < int(P[\"stages\"]):\n"),
         QStringLiteral(
             "the penalty stages became a while loop whose counter is never advanced: it never ends")},
    };
}

BuiltinDraft BuiltinCirclePacking::draft(const BuiltinStep &step, BuiltinRandom &random) const
{
    BuiltinDraft d;
    BuiltinParams &p = d.params;
    const bool failed = parentFailed(step);
    if (step.parentParams && step.parentParams->text(QStringLiteral("task")) == task()) {
        p = *step.parentParams;
        if (failed) {
            p.setInteger(QStringLiteral("starts"), 2);
            p.setInteger(QStringLiteral("hops"), 1);
            p.setInteger(QStringLiteral("lbfgs"), 200);
            p.setInteger(QStringLiteral("polish"), 40);
            d.notes << QStringLiteral("The parent failed (%1), so this attempt falls back to a small, cheap run: "
                                      "2 starts, 1 hop, shorter optimiser runs.")
                           .arg(step.context->parentError.isEmpty() ? QStringLiteral("no score")
                                                                    : step.context->parentError.left(200));
        } else {
            // Exploit the parent's packing: more hops around it, one or two knobs moved.
            p.setInteger(QStringLiteral("hops"), std::clamp(p.integer(QStringLiteral("hops"), 2) + random.range(0, 2), 1, 6));
            p.setInteger(QStringLiteral("starts"), std::clamp(p.integer(QStringLiteral("starts"), 3) + random.range(-2, 0), 0, 5));
            p.setInteger(QStringLiteral("hop_k"), random.range(1, 4));
            p.setNumber(QStringLiteral("jitter"), std::clamp(random.jitter(p.number(QStringLiteral("jitter"), 0.03), 1.8), 0.005, 0.1));
            if (random.chance(0.3))
                p.set(QStringLiteral("init"), random.pick(inits));
            p.setNumber(QStringLiteral("kick"), std::clamp(random.jitter(p.number(QStringLiteral("kick"), 0.05), 2.0), 0.01, 0.1));
            if (random.chance(0.3))
                p.setInteger(QStringLiteral("hop_stage"), random.range(0, 2));
            d.notes << QStringLiteral("The parent scored %1; its packing is carried over as the warm start and kept "
                                      "as a candidate, and the search spends more of its budget on hops around it.")
                           .arg(QString::number(step.context->parentScore.value_or(0.0), 'f', 6));
        }
    } else {
        p = fresh(step.direction);
        d.notes << QStringLiteral("A fresh optimiser for this branch: %1.").arg(describe(step.direction));
    }
    // Keep the run to a few seconds: at most 3 optimisations in all (the
    // target, not the budget, bounds what one call gains).
    const int starts = std::clamp(p.integer(QStringLiteral("starts"), 3), 0, 3);
    p.setInteger(QStringLiteral("starts"), starts);
    p.setInteger(QStringLiteral("hops"), std::clamp(p.integer(QStringLiteral("hops"), 2), 0, 3 - starts));
    if (p.integer(QStringLiteral("starts"), 0) + p.integer(QStringLiteral("hops"), 0) == 0)
        p.setInteger(QStringLiteral("starts"), 1);
    if (step.target)
        p.set(QStringLiteral("target"), exact(*step.target));
    else
        p.set(QStringLiteral("target"), QStringLiteral("inf"));
    stamp(p, step, random);

    QString note;
    const QString warm = warmLiteral(step.parentOutput, &note);
    if (!note.isEmpty())
        d.notes << QStringLiteral("No warm start: %1.").arg(note);
    else if (warm == QLatin1String("None") && !step.parentOutputNote.isEmpty())
        d.notes << QStringLiteral("No warm start: %1.").arg(step.parentOutputNote);
    else if (warm != QLatin1String("None") && step.context->attempt == 0)
        d.notes << QStringLiteral("The starting program's packing is kept as a candidate, so the result cannot be worse.");

    d.program = QString::fromUtf8(programTemplate);
    d.program.replace(QStringLiteral("@HEADER@"), p.header(QStringLiteral("#")));
    d.program.replace(QStringLiteral("@PARAMS@"), p.pythonDict());
    d.program.replace(QStringLiteral("@WARM@"), warm);
    return d;
}

} // namespace dreamrsi
