#include "optionvalues.h"

#include "policy/builtinpolicies.h"
#include "store/replaybounds.h"

#include <QCommandLineParser>
#include <QStringList>

#include <cmath>
#include <limits>

namespace dreamrsi::OptionValues {

Result<double> number(const QString &option, const QString &text, double low, double high)
{
    bool ok = false;
    const double x = text.trimmed().toDouble(&ok);
    if (ok && std::isfinite(x) && x >= low && x <= high)
        return Result<double>::success(x);
    const QString range = high == std::numeric_limits<double>::infinity()
                              ? QStringLiteral("≥ %1").arg(low)
                              : QStringLiteral("in [%1, %2]").arg(low).arg(high);
    return Result<double>::failure(QStringLiteral("%1 must be a number %2 (got '%3')").arg(option, range, text));
}

Result<ImaginationRule> imaginationRule(const QString &option, const QString &text)
{
    if (const std::optional<ImaginationRule> rule = imaginationRuleFromName(text.trimmed()))
        return Result<ImaginationRule>::success(*rule);
    return Result<ImaginationRule>::failure(
        QStringLiteral("%1 must be one of %2 (got '%3')").arg(option, imaginationRuleNames().join(QStringLiteral(", ")), text));
}

Result<ProbeSetting> probe(const QString &option, const QString &text)
{
    QString error;
    if (const std::optional<ProbeSetting> p = ProbeSetting::parse(option, text.trimmed(), &error))
        return Result<ProbeSetting>::success(*p);
    return Result<ProbeSetting>::failure(error);
}

Result<bool> onOff(const QString &option, const QString &text)
{
    if (text == QLatin1String("on") || text == QLatin1String("off"))
        return Result<bool>::success(text == QLatin1String("on"));
    return Result<bool>::failure(QStringLiteral("%1 takes on or off (got '%2')").arg(option, text));
}

QString unknownBuiltinPolicy(const QString &name)
{
    if (BuiltinPolicies::names().contains(name))
        return {};
    return QStringLiteral("--policy: unknown built-in policy 'builtin:%1' (known: builtin:%2)")
        .arg(name, BuiltinPolicies::names().join(QStringLiteral(", builtin:")));
}

Result<qint64> integer(const QString &option, const QString &text, qint64 low, qint64 high)
{
    bool ok = false;
    const qint64 x = text.trimmed().toLongLong(&ok);
    if (ok && x >= low && x <= high)
        return Result<qint64>::success(x);
    // No upper bound worth naming: the type's own (qint64 or int).
    const bool unbounded = high == std::numeric_limits<qint64>::max() || high == std::numeric_limits<int>::max();
    const QString range =
        unbounded ? QStringLiteral("≥ %1").arg(low) : QStringLiteral("in [%1, %2]").arg(low).arg(high);
    return Result<qint64>::failure(QStringLiteral("%1 must be an integer %2 (got '%3')").arg(option, range, text));
}

Result<QList<double>> betas(const QString &option, const QString &text)
{
    QList<double> list;
    for (const QString &part : text.split(QLatin1Char(','))) {
        // "0,,1" is a typing slip, not the grid {0, 1}: said, not guessed.
        if (part.trimmed().isEmpty() && !text.trimmed().isEmpty())
            return Result<QList<double>>::failure(
                QStringLiteral("%1 has an empty item (got '%2'; write e.g. 0,0.5,1)").arg(option, text));
        if (part.trimmed().isEmpty())
            continue;
        const Result<double> b = number(option, part, 0.0, 1.0);
        if (!b)
            return b.failureAs<QList<double>>();
        list.append(*b.value);
    }
    if (list.isEmpty())
        return Result<QList<double>>::failure(QStringLiteral("%1 needs at least one β in [0, 1] (got '%2')").arg(option, text));
    return Result<QList<double>>::success(list);
}

Result<ReplayConfigFlags::Read> ReplayConfigFlags::read(const QCommandLineParser &parser) const
{
    using R = Result<Read>;
    Read out;
    auto given = [&parser](const QString &name) { return !name.isEmpty() && parser.isSet(name); };
    auto flag = [](const QString &name) -> QString { return QStringLiteral("--") + name; };
    if (given(workers)) {
        const Result<qint64> w =
            integer(flag(workers), parser.value(workers), ReplayBounds::MinWorkers, ReplayBounds::MaxWorkers);
        if (!w)
            return w.failureAs<Read>();
        out.overrides.workers = int(*w.value);
    }
    if (given(lambda)) {
        const Result<double> l = number(flag(lambda), parser.value(lambda), 0.0, ReplayBounds::MaxLambda);
        if (!l)
            return l.failureAs<Read>();
        out.overrides.lambda = *l.value;
    }
    if (given(betas)) {
        const Result<QList<double>> list = OptionValues::betas(flag(betas), parser.value(betas));
        if (!list)
            return list.failureAs<Read>();
        out.overrides.betas = *list.value;
    }
    if (given(rounds)) {
        const QString k = parser.value(rounds).trimmed();
        if (roundsNone && (k == QLatin1String("none") || (!zeroRounds && k == QLatin1String("0")))) {
            out.clearRounds = true;
        } else {
            const Result<qint64> n =
                integer(flag(rounds), k, zeroRounds ? 0 : ReplayBounds::MinRounds, ReplayBounds::MaxRounds);
            if (!n)
                return R::failure(roundsNone ? n.error + QStringLiteral("; none removes the limit") : n.error);
            out.overrides.rounds = int(*n.value);
        }
    }
    if (given(valuation)) {
        const QString name = parser.value(valuation).trimmed();
        if (oracle && name == QLatin1String("oracle")) {
            out.oracle = true;
        } else if (const std::optional<Valuation> v = valuationFromName(name)) {
            out.overrides.valuation = *v;
        } else {
            return R::failure(QStringLiteral("%1 must be %2 (got '%3')")
                                  .arg(flag(valuation),
                                       oracle ? QStringLiteral("imagined, revealed or oracle") : QStringLiteral("imagined or revealed"),
                                       parser.value(valuation)));
        }
    }
    if (given(completions)) {
        const Result<qint64> c = integer(flag(completions), parser.value(completions), ReplayBounds::MinCompletions,
                                         ReplayBounds::MaxCompletions);
        if (!c)
            return c.failureAs<Read>();
        out.overrides.completions = int(*c.value);
    }
    if (given(rule)) {
        const Result<ImaginationRule> r = imaginationRule(flag(rule), parser.value(rule));
        if (!r)
            return r.failureAs<Read>();
        out.overrides.rule = *r.value;
    }
    return R::success(std::move(out));
}

} // namespace dreamrsi::OptionValues
