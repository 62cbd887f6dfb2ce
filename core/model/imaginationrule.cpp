#include "imaginationrule.h"

namespace dreamrsi {

QString imaginationRuleName(ImaginationRule rule)
{
    switch (rule) {
    case ImaginationRule::Widened:
        return QStringLiteral("widened");
    case ImaginationRule::Uncertain:
        return QStringLiteral("uncertain");
    case ImaginationRule::Anchored:
        return QStringLiteral("anchored");
    case ImaginationRule::Capped:
        break;
    }
    return QStringLiteral("capped");
}

std::optional<ImaginationRule> imaginationRuleFromName(const QString &name)
{
    if (name == QLatin1String("capped"))
        return ImaginationRule::Capped;
    if (name == QLatin1String("widened"))
        return ImaginationRule::Widened;
    if (name == QLatin1String("uncertain"))
        return ImaginationRule::Uncertain;
    if (name == QLatin1String("anchored"))
        return ImaginationRule::Anchored;
    return std::nullopt;
}

QStringList imaginationRuleNames()
{
    return {imaginationRuleName(ImaginationRule::Capped), imaginationRuleName(ImaginationRule::Widened),
            imaginationRuleName(ImaginationRule::Uncertain), imaginationRuleName(ImaginationRule::Anchored)};
}

} // namespace dreamrsi
