#include "policyspec.h"

#include "builtinpolicies.h"

#include <QFile>
#include <QFileInfo>

namespace dreamrsi {

PolicySpec PolicySpec::builtin(const QString &name)
{
    PolicySpec spec;
    spec.m_kind = Kind::Builtin;
    spec.m_builtinName = name;
    spec.m_label = QStringLiteral("builtin:") + name;
    return spec;
}

PolicySpec PolicySpec::script(const QString &source, const QString &label)
{
    PolicySpec spec;
    spec.m_kind = Kind::Script;
    spec.m_source = source;
    spec.m_label = label;
    return spec;
}

Result<PolicySpec> PolicySpec::fromArgument(const QString &argument)
{
    using Parsed = Result<PolicySpec>;
    const QLatin1String prefix("builtin:");
    if (argument.startsWith(prefix)) {
        const QString name = argument.mid(prefix.size());
        if (!BuiltinPolicies::names().contains(name))
            return Parsed::failure(QStringLiteral("unknown built-in policy '%1' (known: %2)")
                                       .arg(name, BuiltinPolicies::names().join(QStringLiteral(", "))));
        return Parsed::success(builtin(name));
    }
    if (argument.isEmpty())
        return Parsed::failure(QStringLiteral("no policy given (a .js file or builtin:NAME)"));
    QFile file(argument);
    if (!QFileInfo(argument).isFile() || !file.open(QIODevice::ReadOnly))
        return Parsed::failure(QStringLiteral("cannot read policy file '%1'").arg(argument));
    return Parsed::success(script(QString::fromUtf8(file.readAll()), argument));
}

Result<std::unique_ptr<Policy>> PolicySpec::create() const
{
    using Made = Result<std::unique_ptr<Policy>>;
    if (m_kind == Kind::Builtin) {
        std::unique_ptr<Policy> policy = BuiltinPolicies::create(m_builtinName);
        if (!policy)
            return Made::failure(QStringLiteral("unknown built-in policy '%1'").arg(m_builtinName));
        return Made::success(std::move(policy));
    }
    return createScripted();
}

} // namespace dreamrsi
