#include "optionvalues.h"

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
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const Result<double> b = number(option, part, 0.0, 1.0);
        if (!b)
            return b.failureAs<QList<double>>();
        list.append(*b.value);
    }
    if (list.isEmpty())
        return Result<QList<double>>::failure(QStringLiteral("%1 needs at least one β in [0, 1] (got '%2')").arg(option, text));
    return Result<QList<double>>::success(list);
}

} // namespace dreamrsi::OptionValues
