#include "projectpolicies.h"

#include "policy/builtinpolicies.h"

#include <QCryptographicHash>

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

PolicyVersion ProjectPolicies::builtinVersion(const QString &name)
{
    PolicyVersion v;
    v.name = QStringLiteral("builtin:") + name;
    v.code = BuiltinPolicies::javaScriptSource(name);
    v.origin = PolicyOrigin::Builtin;
    return v;
}

QList<PolicyVersion> ProjectPolicies::builtinVersions()
{
    QList<PolicyVersion> versions;
    for (const QString &name : BuiltinPolicies::names())
        versions.append(builtinVersion(name));
    return versions;
}

QString ProjectPolicies::codeHash(const QString &code)
{
    return QString::fromLatin1(QCryptographicHash::hash(code.toUtf8(), QCryptographicHash::Sha256).toHex().left(8));
}

std::optional<PolicyVersion> ProjectPolicies::currentBuiltin(const QList<PolicyVersion> &stored, const QString &name)
{
    if (!BuiltinPolicies::names().contains(name))
        return std::nullopt;
    PolicyVersion today = builtinVersion(name);
    const QString base = today.name;
    bool baseTaken = false;
    for (const PolicyVersion &v : stored) {
        const bool ours = v.name == base || v.name.startsWith(base + QLatin1Char('@'));
        if (ours && v.code == today.code)
            return v;
        baseTaken = baseTaken || v.name == base;
    }
    if (baseTaken)
        today.name = base + QLatin1Char('@') + codeHash(today.code);
    return today;
}

QList<PolicyVersion> ProjectPolicies::staleBuiltins(const QList<PolicyVersion> &stored)
{
    QList<PolicyVersion> stale;
    for (const PolicyVersion &v : stored) {
        for (const QString &name : BuiltinPolicies::names()) {
            if (v.name == QStringLiteral("builtin:") + name && v.code != BuiltinPolicies::javaScriptSource(name))
                stale.append(v);
        }
    }
    return stale;
}

} // namespace dreamrsi
