#include "builtinsumsdifferences.h"
#include "builtintemplates.h"

#include "builtinrandom.h"
#include "eval/sumsdifferencesevaluator.h"

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

// The program, in a file of its own language: core/agent/templates/sums_differences.py.in.
const QString &sumsTemplate()
{
    static const QString text = BuiltinTemplates::load(QStringLiteral("sums_differences.py.in"));
    return text;
}

BuiltinParams freshSums(const QString &direction)
{
    BuiltinParams p;
    p.set(QStringLiteral("init"), QStringLiteral("tensor"));
    p.setInteger(QStringLiteral("stride"), 29);
    p.setInteger(QStringLiteral("span"), 440);
    p.setInteger(QStringLiteral("moves"), 12000);
    p.setNumber(QStringLiteral("t0"), 0.0005);
    p.setNumber(QStringLiteral("t1"), 5e-6);
    p.setNumber(QStringLiteral("p_add"), 0.3);
    p.setNumber(QStringLiteral("p_remove"), 0.3);
    p.setInteger(QStringLiteral("shift"), 2);
    if (direction == QLatin1String("folded-tensor")) {
        p.setInteger(QStringLiteral("stride"), 23);
    } else if (direction == QLatin1String("shift-moves")) {
        p.setInteger(QStringLiteral("stride"), 25);
        p.setNumber(QStringLiteral("p_add"), 0.1);
        p.setNumber(QStringLiteral("p_remove"), 0.1);
        p.setInteger(QStringLiteral("shift"), 4);
    } else if (direction == QLatin1String("wide-fold")) {
        p.setInteger(QStringLiteral("stride"), 26);
        p.setNumber(QStringLiteral("t0"), 0.001);
    } else if (direction == QLatin1String("greedy")) {
        p.setInteger(QStringLiteral("stride"), 24);
        p.setNumber(QStringLiteral("t0"), 1e-6);
        p.setNumber(QStringLiteral("t1"), 1e-8);
    }
    return p;
}

QString sumsWarmLiteral(const QJsonValue &output, QString *note, int *spanNeeded)
{
    if (output.isUndefined())
        return QStringLiteral("None");
    const Result<std::vector<double>> parsed = SumsDifferencesEvaluator::parse(output);
    const std::optional<std::vector<double>> &elements = parsed.value;
    if (!elements || elements->size() < 2) {
        *note = QStringLiteral("the parent's set could not be read back (%1)")
                    .arg(parsed.error.isEmpty() ? QStringLiteral("fewer than 2 elements") : parsed.error);
        return QStringLiteral("None");
    }
    std::vector<qint64> values;
    for (const double v : *elements)
        values.push_back(qint64(std::llround(v)));
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    if (values.back() - values.front() > 20000) {
        *note = QStringLiteral("the parent's set spans %1 integers, too wide for this search")
                    .arg(values.back() - values.front());
        return QStringLiteral("None");
    }
    *spanNeeded = int(values.back() - values.front()) + 1;
    QStringList parts;
    for (const qint64 v : values)
        parts << QString::number(v);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace

QString BuiltinSumsDifferences::task() const
{
    return QStringLiteral("sums_differences");
}

QStringList BuiltinSumsDifferences::directions() const
{
    return {QStringLiteral("tensor-anneal"), QStringLiteral("folded-tensor"), QStringLiteral("shift-moves"),
            QStringLiteral("wide-fold"), QStringLiteral("greedy")};
}

QString BuiltinSumsDifferences::describe(const QString &direction) const
{
    if (direction == QLatin1String("folded-tensor"))
        return QStringLiteral("Conway's set times itself with stride 23, so the copies overlap and the sums and "
                              "differences fold into a new structure, then anneal");
    if (direction == QLatin1String("shift-moves"))
        return QStringLiteral("a folded product (stride 25) reshaped mostly by shifting elements by up to 4");
    if (direction == QLatin1String("wide-fold"))
        return QStringLiteral("a lightly folded product (stride 26) annealed hotter, so it can reorganise");
    if (direction == QLatin1String("greedy"))
        return QStringLiteral("a folded product (stride 24) improved by moves that never lower C(A): a pure local search");
    return QStringLiteral("anneal the 64-element product of Conway's set with itself (stride 29: same ratio as "
                          "Conway's, far more room for local moves)");
}

std::optional<BuiltinScale> BuiltinSumsDifferences::scale() const
{
    // Conway's set scores log(26/8)/log(25/8) = 1.0344; the best published set 1.1448868597.
    return BuiltinScale{1.0344, 1.1448868597};
}

BuiltinProfile BuiltinSumsDifferences::profile(const QString &direction) const
{
    // {ceiling, step, first, failRate}. The annealing itself stalls near a
    // fifth of this gap, and one of its moves can gain a few percent of it, so
    // a first attempt aims low; folding the product is what pays, an unfolded
    // or greedy walk soon stalls.
    if (direction == QLatin1String("folded-tensor"))
        return {0.30, 0.35, 0.08, 0.24};
    if (direction == QLatin1String("shift-moves"))
        return {0.22, 0.30, 0.12, 0.22};
    if (direction == QLatin1String("wide-fold"))
        return {0.40, 0.30, 0.06, 0.26};
    if (direction == QLatin1String("greedy"))
        return {0.12, 0.40, 0.20, 0.18};
    return {0.10, 0.30, 0.25, 0.20}; // tensor-anneal
}

QList<BuiltinDefect> BuiltinSumsDifferences::defects() const
{
    using K = BuiltinDefect::Kind;
    return {
        {K::Invalid, QStringLiteral("result = [int(v) + low for v in best_set]"),
         QStringLiteral("result = [int(v) / 2 + low for v in best_set]"),
         QStringLiteral("a halving left over from a scaled variant makes the elements half-integers")},
        {K::Crash, QStringLiteral("S = np.zeros(2 * L, dtype=np.int32)"),
         QStringLiteral("S = np.zeros(L, dtype=np.int32)"),
         QStringLiteral("the sum counts are sized for A, not A+A, so an index runs out of range")},
        {K::Timeout, QStringLiteral("for it in range(moves):\n    if best >= TARGET:\n        break\n"),
         QStringLiteral("it = 0\nwhile it < moves:\n"),
         QStringLiteral(
             "the move loop became a while loop that neither counts its moves nor stops at the target: "
             "it never ends")},
    };
}

BuiltinDraft BuiltinSumsDifferences::draft(const BuiltinStep &step, BuiltinRandom &random) const
{
    BuiltinDraft d;
    BuiltinParams &p = d.params;
    const bool failed = parentFailed(step);
    QString note;
    int spanNeeded = 0;
    const QString warm = sumsWarmLiteral(step.parentOutput, &note, &spanNeeded);
    const bool haveWarm = warm != QLatin1String("None");
    if (step.parentParams && step.parentParams->text(QStringLiteral("task")) == task()) {
        p = *step.parentParams;
        if (failed) {
            p.setInteger(QStringLiteral("moves"), 6000);
            p.setInteger(QStringLiteral("span"), std::min(p.integer(QStringLiteral("span"), 440), 440));
            d.notes << QStringLiteral("The parent failed (%1): half the moves and a bounded window.")
                           .arg(step.context->parentError.isEmpty() ? QStringLiteral("no score")
                                                                    : step.context->parentError.left(200));
        } else {
            p.setNumber(QStringLiteral("t0"), std::clamp(random.jitter(p.number(QStringLiteral("t0"), 5e-4), 2.0), 1e-7, 5e-3));
            p.setNumber(QStringLiteral("t1"), std::min(p.number(QStringLiteral("t0"), 5e-4) * 0.01, p.number(QStringLiteral("t1"), 5e-6)));
            const double add = std::clamp(p.number(QStringLiteral("p_add"), 0.3) + 0.15 * (2 * random.uniform() - 1), 0.05, 0.6);
            const double remove = std::clamp(p.number(QStringLiteral("p_remove"), 0.3) + 0.15 * (2 * random.uniform() - 1), 0.05, 0.6);
            p.setNumber(QStringLiteral("p_add"), add);
            p.setNumber(QStringLiteral("p_remove"), std::min(remove, 0.95 - add));
            p.setInteger(QStringLiteral("shift"), random.range(1, 5));
            p.setInteger(QStringLiteral("moves"), std::clamp(int(random.jitter(p.integer(QStringLiteral("moves"), 12000), 1.6)), 8000, 24000));
            d.notes << QStringLiteral("The parent reached C(A) = %1; this attempt continues the walk from its set, "
                                      "at a new temperature, with a new mix of add/remove/shift moves.")
                           .arg(QString::number(step.context->parentScore.value_or(0.0), 'f', 6));
        }
    } else {
        p = freshSums(step.direction);
        d.notes << QStringLiteral("A fresh search for this branch: %1.").arg(describe(step.direction));
    }
    if (haveWarm && !failed && step.context->attempt > 0)
        p.set(QStringLiteral("init"), QStringLiteral("parent"));
    if (haveWarm)
        p.setInteger(QStringLiteral("span"), std::max(p.integer(QStringLiteral("span"), 440), spanNeeded + 16));
    p.set(QStringLiteral("target"), step.target ? exact(*step.target) : QStringLiteral("inf"));
    stamp(p, step, random);

    if (!note.isEmpty())
        d.notes << QStringLiteral("No warm start: %1.").arg(note);
    else if (!haveWarm && !step.parentOutputNote.isEmpty())
        d.notes << QStringLiteral("No warm start: %1.").arg(step.parentOutputNote);

    d.program = sumsTemplate();
    d.program.replace(QStringLiteral("@HEADER@"), p.header(QStringLiteral("#")));
    d.program.replace(QStringLiteral("@PARAMS@"), p.pythonDict());
    d.program.replace(QStringLiteral("@WARM@"), warm);
    return d;
}

} // namespace dreamrsi
