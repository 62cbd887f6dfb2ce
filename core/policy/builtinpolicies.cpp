#include "builtinpolicies.h"

#include "parallelrefinepolicy.h"
#include "portfoliopolicy.h"

#include <QFile>

namespace dreamrsi {

QStringList BuiltinPolicies::names()
{
    return {QStringLiteral("parallel_refine"), QStringLiteral("portfolio")};
}

std::unique_ptr<Policy> BuiltinPolicies::create(const QString &name)
{
    if (name == QLatin1String("parallel_refine"))
        return std::make_unique<ParallelRefinePolicy>();
    if (name == QLatin1String("portfolio"))
        return std::make_unique<PortfolioPolicy>();
    return nullptr;
}

QString BuiltinPolicies::javaScriptSource(const QString &name)
{
    if (!names().contains(name))
        return {};
    QFile file(QStringLiteral(":/policies/") + name + QStringLiteral(".js"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

} // namespace dreamrsi
