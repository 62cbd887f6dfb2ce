#include "builtinautocorrelation.h"
#include "builtintemplates.h"

#include "builtinrandom.h"
#include "eval/autocorrelationevaluator.h"

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

// The program, in a file of its own language: core/agent/templates/autocorrelation.py.in.
const QString &autocorrelationTemplate()
{
    static const QString text = BuiltinTemplates::load(QStringLiteral("autocorrelation.py.in"));
    return text;
}

const QStringList inits{QStringLiteral("random"), QStringLiteral("lobes"), QStringLiteral("flat")};

BuiltinParams freshAutocorrelation(const QString &direction)
{
    BuiltinParams p;
    p.set(QStringLiteral("init"), QStringLiteral("random"));
    p.setInteger(QStringLiteral("n"), 300);
    p.setNumber(QStringLiteral("pmin"), 8);
    p.setNumber(QStringLiteral("pmax"), 512);
    p.setInteger(QStringLiteral("stages"), 7);
    p.setInteger(QStringLiteral("lbfgs"), 200);
    p.setInteger(QStringLiteral("polish"), 2000);
    p.setNumber(QStringLiteral("step"), 0.02);
    if (direction == QLatin1String("negative-lobes")) {
        p.set(QStringLiteral("init"), QStringLiteral("lobes"));
        p.setInteger(QStringLiteral("n"), 240);
    } else if (direction == QLatin1String("hill-climb")) {
        p.set(QStringLiteral("init"), QStringLiteral("flat"));
        p.setInteger(QStringLiteral("stages"), 3);
        p.setNumber(QStringLiteral("pmax"), 64);
        p.setInteger(QStringLiteral("polish"), 6000);
        p.setInteger(QStringLiteral("n"), 200);
        p.setNumber(QStringLiteral("step"), 0.05);
    } else if (direction == QLatin1String("coarse-to-fine")) {
        p.setInteger(QStringLiteral("n"), 120);
        p.setInteger(QStringLiteral("stages"), 8);
        p.setNumber(QStringLiteral("pmax"), 1024);
    }
    return p;
}

QString autocorrelationWarmLiteral(const QJsonValue &output, QString *note)
{
    if (output.isUndefined())
        return QStringLiteral("None");
    const Result<std::vector<double>> parsed = AutocorrelationEvaluator::parse(output);
    const std::optional<std::vector<double>> &heights = parsed.value;
    if (!heights || heights->empty() || heights->size() > 5000) {
        *note = QStringLiteral("the parent's heights could not be read back (%1)")
                    .arg(parsed.error.isEmpty() ? QStringLiteral("empty or too long") : parsed.error);
        return QStringLiteral("None");
    }
    QStringList values;
    for (const double h : *heights)
        values << QString::number(h, 'g', 17);
    return QLatin1Char('[') + values.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace

QString BuiltinAutocorrelation::task() const
{
    return QStringLiteral("c3_autocorrelation");
}

QStringList BuiltinAutocorrelation::directions() const
{
    return {QStringLiteral("smooth-minimax"), QStringLiteral("negative-lobes"), QStringLiteral("hill-climb"),
            QStringLiteral("coarse-to-fine")};
}

QString BuiltinAutocorrelation::describe(const QString &direction) const
{
    if (direction == QLatin1String("negative-lobes"))
        return QStringLiteral("start from a profile with dips (cosine lobes) so the optimiser begins with cancellation "
                              "in the middle of the convolution");
    if (direction == QLatin1String("hill-climb"))
        return QStringLiteral("a short smooth phase and a long exact local search over single step heights");
    if (direction == QLatin1String("coarse-to-fine"))
        return QStringLiteral("optimise a coarse step function first; refinements resample the parent onto finer grids");
    return QStringLiteral("random heights, then a p-norm minimax schedule from p = 8 to 512 with L-BFGS-B");
}

std::optional<BuiltinScale> BuiltinAutocorrelation::scale() const
{
    // Score = 1/C3: the constant initial program has C3 = 2 (score 0.5), the
    // best published construction C3 = 1.4536754656 (score 0.6879).
    return BuiltinScale{0.5, 1.0 / 1.4536754656};
}

BuiltinProfile BuiltinAutocorrelation::profile(const QString &direction) const
{
    // {ceiling, step, first, failRate}: cancellation (negative lobes) goes
    // furthest, a pure local search least.
    if (direction == QLatin1String("negative-lobes"))
        return {0.95, 0.28, 0.40, 0.26};
    if (direction == QLatin1String("hill-climb"))
        return {0.65, 0.35, 0.55, 0.18};
    if (direction == QLatin1String("coarse-to-fine"))
        return {0.80, 0.30, 0.40, 0.22};
    return {0.88, 0.32, 0.45, 0.24}; // smooth-minimax
}

QList<BuiltinDefect> BuiltinAutocorrelation::defects() const
{
    using K = BuiltinDefect::Kind;
    return {
        {K::Invalid, QStringLiteral("print(json.dumps({\"heights\": [float(v) for v in a]}))"),
         QStringLiteral("print(json.dumps({\"heights\": [float(v) for v in a - np.mean(a)]}))"),
         QStringLiteral("the heights are centred before printing, so they sum to zero")},
        {K::Crash, QStringLiteral("    return f, 2.0 * np.correlate(w, a, \"valid\") - 2.0 / s\n"),
         QStringLiteral("    return f, 2.0 * np.correlate(w, a, \"valid\") - 2.0 / total_sum\n"),
         QStringLiteral("the gradient uses a name that was never defined (a NameError)")},
        {K::Timeout, QStringLiteral("for it in range(int(P[\"polish\"])):\n"),
         QStringLiteral("while value > 0.0:\n"),
         QStringLiteral("the local search loops until C3 reaches zero, which it never does")},
    };
}

BuiltinDraft BuiltinAutocorrelation::draft(const BuiltinStep &step, BuiltinRandom &random) const
{
    BuiltinDraft d;
    BuiltinParams &p = d.params;
    const bool failed = parentFailed(step);
    const bool haveWarm = !step.parentOutput.isUndefined();
    if (step.parentParams && step.parentParams->text(QStringLiteral("task")) == task()) {
        p = *step.parentParams;
        if (failed) {
            p.setInteger(QStringLiteral("n"), std::min(p.integer(QStringLiteral("n"), 300), 200));
            p.setInteger(QStringLiteral("polish"), 1000);
            p.setInteger(QStringLiteral("lbfgs"), 150);
            if (!haveWarm)
                p.set(QStringLiteral("init"), QStringLiteral("random"));
            d.notes << QStringLiteral("The parent failed (%1): fewer steps and shorter phases, so the run is cheap "
                                      "and safe.")
                           .arg(step.context->parentError.isEmpty() ? QStringLiteral("no score")
                                                                    : step.context->parentError.left(200));
        } else {
            const int parentN = p.integer(QStringLiteral("n"), 300);
            int n = parentN;
            if (step.direction == QLatin1String("coarse-to-fine") || random.chance(0.25))
                n = std::min(480, int(std::lround(parentN * (1.2 + 0.4 * random.uniform()))));
            p.setInteger(QStringLiteral("n"), n);
            p.set(QStringLiteral("init"), haveWarm ? QStringLiteral("parent") : random.pick(inits));
            // The parent is already near a minimax point: begin the p schedule higher.
            p.setNumber(QStringLiteral("pmin"), std::clamp(random.jitter(64.0, 2.0), 16.0, 256.0));
            p.setNumber(QStringLiteral("pmax"), std::clamp(random.jitter(p.number(QStringLiteral("pmax"), 512), 2.0), 128.0, 2048.0));
            p.setInteger(QStringLiteral("stages"), random.range(3, 6));
            p.setNumber(QStringLiteral("step"), std::clamp(random.jitter(p.number(QStringLiteral("step"), 0.02), 2.0), 0.002, 0.1));
            p.setInteger(QStringLiteral("polish"), std::clamp(int(random.jitter(p.integer(QStringLiteral("polish"), 2000), 1.5)), 500, 6000));
            d.notes << QStringLiteral("The parent reached score %1 (C3 %2); this attempt starts from its heights%3, "
                                      "begins the p-norm schedule higher and moves the local-search step.")
                           .arg(QString::number(step.context->parentScore.value_or(0.0), 'f', 6),
                                QString::number(1.0 / std::max(1e-12, step.context->parentScore.value_or(1.0)), 'f', 6),
                                n != parentN ? QStringLiteral(" resampled from %1 to %2 steps").arg(parentN).arg(n)
                                             : QString());
        }
    } else {
        p = freshAutocorrelation(step.direction);
        d.notes << QStringLiteral("A fresh search for this branch: %1.").arg(describe(step.direction));
    }
    // Cost grows with n² per evaluation: keep a run to a few seconds.
    const int n = p.integer(QStringLiteral("n"), 300);
    p.setInteger(QStringLiteral("lbfgs"), std::min(p.integer(QStringLiteral("lbfgs"), 200), int(60000 / std::max(n, 1))));
    p.set(QStringLiteral("target"), step.target ? exact(*step.target) : QStringLiteral("inf"));
    stamp(p, step, random);

    QString note;
    const QString warm = autocorrelationWarmLiteral(step.parentOutput, &note);
    if (!note.isEmpty())
        d.notes << QStringLiteral("No warm start: %1.").arg(note);
    else if (warm == QLatin1String("None") && !step.parentOutputNote.isEmpty())
        d.notes << QStringLiteral("No warm start: %1.").arg(step.parentOutputNote);
    else if (warm != QLatin1String("None"))
        d.notes << QStringLiteral("The parent's step function is kept as a candidate, so the result cannot be worse.");

    d.program = autocorrelationTemplate();
    d.program.replace(QStringLiteral("@HEADER@"), p.header(QStringLiteral("#")));
    d.program.replace(QStringLiteral("@PARAMS@"), p.pythonDict());
    d.program.replace(QStringLiteral("@WARM@"), warm);
    return d;
}

} // namespace dreamrsi
