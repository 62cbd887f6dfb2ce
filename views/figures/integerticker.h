#pragma once

#include "qcp.h"

namespace dreamrsi {

/// Ticks for axes that count things (agent calls, rounds): steps of 1, 2 or
/// 5 × 10^k with k ≥ 0, so no tick ever falls between two whole numbers,
/// and labels without decimals.
class IntegerTicker final : public QCPAxisTicker
{
public:
    IntegerTicker() = default;

protected:
    double getTickStep(const QCPRange &range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;
};

} // namespace dreamrsi
