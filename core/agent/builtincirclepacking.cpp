#include "builtincirclepacking.h"
#include "builtintemplates.h"

#include "builtinrandom.h"
#include "eval/circlepackingevaluator.h"

#include <algorithm>

namespace dreamrsi {

namespace {

// The program. @HEADER@, @PARAMS@ and @WARM@ are filled in by draft().
// The program, in a file of its own language: core/agent/templates/circle_packing.py.in.
const QString &packingTemplate()
{
    static const QString text = BuiltinTemplates::load(QStringLiteral("circle_packing.py.in"));
    return text;
}

const QStringList packingInits{QStringLiteral("hex"), QStringLiteral("grid"), QStringLiteral("ring"), QStringLiteral("random")};

BuiltinParams freshPacking(const QString &direction)
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

QString packingWarmLiteral(const QJsonValue &output, QString *note)
{
    if (output.isUndefined())
        return QStringLiteral("None");
    const Result<QList<CirclePackingEvaluator::Circle>> parsed = CirclePackingEvaluator::parse(output);
    const std::optional<QList<CirclePackingEvaluator::Circle>> &circles = parsed.value;
    if (!circles || circles->size() != 26) {
        *note = QStringLiteral("the parent's output could not be read back (%1)")
                    .arg(parsed.error.isEmpty() ? QStringLiteral("wrong count") : parsed.error);
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
                p.set(QStringLiteral("init"), random.pick(packingInits));
            p.setNumber(QStringLiteral("kick"), std::clamp(random.jitter(p.number(QStringLiteral("kick"), 0.05), 2.0), 0.01, 0.1));
            if (random.chance(0.3))
                p.setInteger(QStringLiteral("hop_stage"), random.range(0, 2));
            d.notes << QStringLiteral("The parent scored %1; its packing is carried over as the warm start and kept "
                                      "as a candidate, and the search spends more of its budget on hops around it.")
                           .arg(QString::number(step.context->parentScore.value_or(0.0), 'f', 6));
        }
    } else {
        p = freshPacking(step.direction);
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
    const QString warm = packingWarmLiteral(step.parentOutput, &note);
    if (!note.isEmpty())
        d.notes << QStringLiteral("No warm start: %1.").arg(note);
    else if (warm == QLatin1String("None") && !step.parentOutputNote.isEmpty())
        d.notes << QStringLiteral("No warm start: %1.").arg(step.parentOutputNote);
    else if (warm != QLatin1String("None") && step.context->attempt == 0)
        d.notes << QStringLiteral("The starting program's packing is kept as a candidate, so the result cannot be worse.");

    d.program = packingTemplate();
    d.program.replace(QStringLiteral("@HEADER@"), p.header(QStringLiteral("#")));
    d.program.replace(QStringLiteral("@PARAMS@"), p.pythonDict());
    d.program.replace(QStringLiteral("@WARM@"), warm);
    return d;
}

} // namespace dreamrsi
