#include "builtinlasso.h"
#include "builtintemplates.h"

#include "builtinrandom.h"

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

// The program, in a file of its own language: core/agent/templates/lasso.cpp.in.
const QString &lassoTemplate()
{
    static const QString text = BuiltinTemplates::load(QStringLiteral("lasso.cpp.in"));
    return text;
}

const QStringList flagSets{QStringLiteral("none"), QStringLiteral("unroll"), QStringLiteral("reassociate")};

QString flagLine(const QString &flags)
{
    if (flags == QLatin1String("unroll"))
        return QStringLiteral("// dreamrsi-flags: -funroll-loops");
    if (flags == QLatin1String("reassociate"))
        return QStringLiteral("// dreamrsi-flags: -fno-math-errno -fno-signed-zeros -fno-trapping-math -fassociative-math");
    return QStringLiteral("// (no extra compiler flags)");
}

BuiltinParams freshLasso(const QString &direction)
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
        p = freshLasso(step.direction);
        d.notes << QStringLiteral("A solver variant for this branch: %1. The duality-gap certificate (gap below "
                                  "%2) keeps it exact whatever it skips.")
                       .arg(describe(step.direction), p.text(QStringLiteral("tolerance")));
    }
    p.setNumber(QStringLiteral("tolerance"), std::clamp(p.number(QStringLiteral("tolerance"), 1e-10), 1e-13, 1e-8));
    p.setInteger(QStringLiteral("gap_every"), std::clamp(p.integer(QStringLiteral("gap_every"), 5), 1, 20));
    p.setInteger(QStringLiteral("inner"), std::clamp(p.integer(QStringLiteral("inner"), 20), 1, 200));
    stamp(p, step, random);

    auto flag = [&](const char *key) { return p.integer(QLatin1String(key), 0) != 0 ? QStringLiteral("true") : QStringLiteral("false"); };
    d.program = lassoTemplate();
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
