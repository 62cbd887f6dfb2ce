#include "optionvalues.h"

#include <QStringList>

#include <cmath>
#include <limits>

namespace dreamrsi::OptionValues {

std::optional<double> number(const QString &option, const QString &text, double low, double high, QString *error)
{
    bool ok = false;
    const double x = text.trimmed().toDouble(&ok);
    if (ok && std::isfinite(x) && x >= low && x <= high)
        return x;
    const QString range = high == std::numeric_limits<double>::infinity()
                              ? QStringLiteral("≥ %1").arg(low)
                              : QStringLiteral("in [%1, %2]").arg(low).arg(high);
    *error = QStringLiteral("%1 must be a number %2 (got '%3')").arg(option, range, text);
    return std::nullopt;
}

std::optional<qint64> integer(const QString &option, const QString &text, qint64 low, qint64 high, QString *error)
{
    bool ok = false;
    const qint64 x = text.trimmed().toLongLong(&ok);
    if (ok && x >= low && x <= high)
        return x;
    const QString range = high == std::numeric_limits<qint64>::max() ? QStringLiteral("≥ %1").arg(low)
                                                                      : QStringLiteral("in [%1, %2]").arg(low).arg(high);
    *error = QStringLiteral("%1 must be an integer %2 (got '%3')").arg(option, range, text);
    return std::nullopt;
}

std::optional<QList<double>> betas(const QString &option, const QString &text, QString *error)
{
    QList<double> list;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const std::optional<double> b = number(option, part, 0.0, 1.0, error);
        if (!b)
            return std::nullopt;
        list.append(*b);
    }
    if (list.isEmpty()) {
        *error = QStringLiteral("%1 needs at least one β in [0, 1] (got '%2')").arg(option, text);
        return std::nullopt;
    }
    return list;
}

} // namespace dreamrsi::OptionValues
