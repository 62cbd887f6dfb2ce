#include "policyspec.h"

#include "builtinpolicies.h"
#include "scriptedpolicy.h"

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

std::optional<PolicySpec> PolicySpec::fromArgument(const QString &argument, QString *error)
{
    const QLatin1String prefix("builtin:");
    if (argument.startsWith(prefix)) {
        const QString name = argument.mid(prefix.size());
        if (!BuiltinPolicies::names().contains(name)) {
            if (error) {
                *error = QStringLiteral("unknown built-in policy '%1' (known: %2)")
                             .arg(name, BuiltinPolicies::names().join(QStringLiteral(", ")));
            }
            return std::nullopt;
        }
        return builtin(name);
    }
    if (argument.isEmpty()) {
        if (error)
            *error = QStringLiteral("no policy given (a .js file or builtin:NAME)");
        return std::nullopt;
    }
    QFile file(argument);
    if (!QFileInfo(argument).isFile() || !file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read policy file '%1'").arg(argument);
        return std::nullopt;
    }
    return script(QString::fromUtf8(file.readAll()), argument);
}

std::unique_ptr<Policy> PolicySpec::create(QString *error) const
{
    if (m_kind == Kind::Builtin) {
        std::unique_ptr<Policy> policy = BuiltinPolicies::create(m_builtinName);
        if (!policy && error)
            *error = QStringLiteral("unknown built-in policy '%1'").arg(m_builtinName);
        return policy;
    }
    return ScriptedPolicy::create(m_source, m_label, m_timeLimitMs, m_randomSeed, error);
}

} // namespace dreamrsi
