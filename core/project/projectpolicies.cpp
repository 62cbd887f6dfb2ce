#include "projectpolicies.h"

#include "policy/builtinpolicies.h"

namespace dreamrsi {

std::optional<QString> ProjectPolicies::builtinTwinOf(const QString &code)
{
    for (const QString &name : BuiltinPolicies::names()) {
        if (BuiltinPolicies::javaScriptSource(name) == code)
            return name;
    }
    return std::nullopt;
}

PolicySpec ProjectPolicies::specFor(const PolicyVersion &version, const ScriptLimits &limits)
{
    if (const std::optional<QString> twin = builtinTwinOf(version.code))
        return PolicySpec::builtin(*twin);
    PolicySpec spec = PolicySpec::script(version.code, version.name);
    spec.setTimeLimitMs(limits.callMs);
    return spec;
}

QString ProjectPolicies::processArgumentFor(const PolicyVersion &version)
{
    const std::optional<QString> twin = builtinTwinOf(version.code);
    return twin ? QStringLiteral("builtin:") + *twin : QString();
}

QList<PolicyVersion> ProjectPolicies::builtinVersions()
{
    QList<PolicyVersion> versions;
    for (const QString &name : BuiltinPolicies::names()) {
        PolicyVersion v;
        v.name = QStringLiteral("builtin:") + name;
        v.code = BuiltinPolicies::javaScriptSource(name);
        v.origin = PolicyOrigin::Builtin;
        versions.append(v);
    }
    return versions;
}

} // namespace dreamrsi
