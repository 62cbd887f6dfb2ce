#include "imaginationrule.h"

namespace dreamrsi {

QString imaginationRuleName(ImaginationRule rule)
{
    switch (rule) {
    case ImaginationRule::Capped:
        break;
    case ImaginationRule::Widened:
        return QStringLiteral("widened");
    case ImaginationRule::Momentum:
        return QStringLiteral("momentum");
    }
    return QStringLiteral("capped");
}

std::optional<ImaginationRule> imaginationRuleFromName(const QString &name)
{
    if (name == QLatin1String("capped"))
        return ImaginationRule::Capped;
    if (name == QLatin1String("widened"))
        return ImaginationRule::Widened;
    if (name == QLatin1String("momentum"))
        return ImaginationRule::Momentum;
    return std::nullopt;
}

QStringList imaginationRuleNames()
{
    return {imaginationRuleName(ImaginationRule::Capped), imaginationRuleName(ImaginationRule::Widened),
            imaginationRuleName(ImaginationRule::Momentum)};
}

} // namespace dreamrsi
