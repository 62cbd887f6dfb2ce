#include "imaginationrule.h"

namespace dreamrsi {

QString imaginationRuleName(ImaginationRule rule)
{
    return rule == ImaginationRule::Widened ? QStringLiteral("widened") : QStringLiteral("capped");
}

std::optional<ImaginationRule> imaginationRuleFromName(const QString &name)
{
    if (name == QLatin1String("capped"))
        return ImaginationRule::Capped;
    if (name == QLatin1String("widened"))
        return ImaginationRule::Widened;
    return std::nullopt;
}

QStringList imaginationRuleNames()
{
    return {imaginationRuleName(ImaginationRule::Capped), imaginationRuleName(ImaginationRule::Widened)};
}

} // namespace dreamrsi
