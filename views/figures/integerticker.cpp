#include "integerticker.h"

#include <cmath>

namespace dreamrsi {

double IntegerTicker::getTickStep(const QCPRange &range)
{
    const double raw = range.size() / std::max(1, tickCount());
    if (!(raw > 1.0))
        return 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double mantissa : {1.0, 2.0, 5.0}) {
        if (mantissa * magnitude >= raw * 0.999)
            return mantissa * magnitude;
    }
    return 10.0 * magnitude;
}

int IntegerTicker::getSubTickCount(double tickStep)
{
    const auto step = qint64(std::llround(tickStep));
    if (step <= 1)
        return 0;
    if (step <= 5)
        return int(step - 1); // a sub-tick on every whole number
    qint64 magnitude = 1;
    while (magnitude * 10 <= step)
        magnitude *= 10;
    return step / magnitude == 2 ? 1 : 4;
}

QString IntegerTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    return QString::number(qint64(std::llround(tick)));
}

} // namespace dreamrsi
