#include "roundpolicy.h"

#include "policy/builtinpolicies.h"
#include "project/projectpolicies.h"
#include "store/projectstore.h"
#include "store/storeawait.h"

#include <QDateTime>
#include <QFuture>

namespace dreamrsi {

Result<RoundPolicy> RoundPolicy::resolve(ProjectStore &store, const PolicyChoice &choice, PolicyVersionId resumedVersion,
                                         quint64 seed)
{
    using Resolved = Result<RoundPolicy>;
    const StoreResult<QList<PolicyVersion>> versions = await(store.policyVersions());
    if (!versions.ok())
        return versions.failureAs<RoundPolicy>();
    auto byId = [&](PolicyVersionId id) -> const PolicyVersion * {
        for (const PolicyVersion &v : *versions.value) {
            if (v.id == id)
                return &v;
        }
        return nullptr;
    };
    auto byName = [&](const QString &name) -> const PolicyVersion * {
        for (const PolicyVersion &v : *versions.value) {
            if (v.name == name)
                return &v;
        }
        return nullptr;
    };

    RoundPolicy r;
    const PolicyVersion *chosen = nullptr;
    QString builtinName;
    const QString argument = choice.toArgument();
    if (choice.kind() == PolicyChoice::Kind::Manual && !byName(argument)) {
        PolicyVersion v;
        v.name = argument;
        v.code = QStringLiteral(
            "// Manual exploration: a person picked every batch of the rounds this version\n"
            "// names (stored as `batch` steering events); export them with\n"
            "// `dreamrsi export P --iteration N --recorded-policy OUT.js` to replay them.\n"
            "function selectBatch(state) { return []; }\n");
        v.origin = PolicyOrigin::Human;
        v.created = QDateTime::currentDateTimeUtc();
        const StoreResult<PolicyVersionId> added = await(store.addPolicyVersion(v));
        if (!added.ok())
            return added.failureAs<RoundPolicy>();
        return resolve(store, choice, resumedVersion, seed);
    }
    if (choice.kind() == PolicyChoice::Kind::Builtin) {
        builtinName = choice.name();
        if (!BuiltinPolicies::names().contains(builtinName))
            return Resolved::failure(QStringLiteral("unknown built-in policy '%1' (known: %2)")
                                         .arg(argument, BuiltinPolicies::names().join(QStringLiteral(", "))));
        r.description = QStringLiteral("built-in policy %1 (asked for)").arg(argument);
    } else if (choice.kind() != PolicyChoice::Kind::LatestApproved) {
        chosen = byName(argument);
        bool numeric = false;
        const qint64 id = argument.toLongLong(&numeric);
        if (!chosen && numeric)
            chosen = byId(id);
        if (!chosen) {
            QStringList names;
            for (const PolicyVersion &v : *versions.value)
                names.append(v.name);
            return Resolved::failure(
                QStringLiteral("no policy version '%1' in the project (stored: %2; or builtin:NAME)")
                    .arg(argument, names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "))));
        }
        r.description = QStringLiteral("stored version %1 (asked for)").arg(chosen->name);
    } else {
        const StoreResult<QList<Approval>> approvals = await(store.approvals());
        if (!approvals.ok())
            return approvals.failureAs<RoundPolicy>();
        const Approval *latest = nullptr;
        for (const Approval &a : *approvals.value) {
            if (!latest || a.when > latest->when || (a.when == latest->when && a.id > latest->id))
                latest = &a;
        }
        if (resumedVersion != 0 && byId(resumedVersion)) {
            chosen = byId(resumedVersion);
            r.description = QStringLiteral("version %1 (the one that drove the round being resumed)").arg(chosen->name);
        } else if (latest && byId(latest->version)) {
            chosen = byId(latest->version);
            r.description = QStringLiteral("latest approved version %1").arg(chosen->name);
        } else {
            builtinName = QStringLiteral("portfolio");
            r.description = QStringLiteral("built-in policy builtin:portfolio (no approved version in the project)");
        }
    }

    if (chosen) {
        // The project's one rule: a built-in's unchanged code runs as its C++ twin.
        r.spec = ProjectPolicies::specFor(*chosen);
        r.version = chosen->id;
        r.manual = chosen->name == QLatin1String("manual");
        if (r.manual)
            r.description = QStringLiteral("manual exploration (a person picks every batch)");
    } else {
        r.spec = PolicySpec::builtin(builtinName);
        const QString name = QStringLiteral("builtin:") + builtinName;
        if (const PolicyVersion *stored = byName(name)) {
            r.version = stored->id;
        } else {
            PolicyVersion v;
            v.name = name;
            v.code = BuiltinPolicies::javaScriptSource(builtinName);
            v.origin = PolicyOrigin::Builtin;
            v.created = QDateTime::currentDateTimeUtc();
            const StoreResult<PolicyVersionId> added = await(store.addPolicyVersion(v));
            if (!added.ok())
                return added.failureAs<RoundPolicy>();
            r.version = *added.value;
        }
    }
    r.spec.setRandomSeed(quint32(seed ^ (seed >> 32)) ^ 0x5EED1234u);
    if (const Result<std::unique_ptr<Policy>> compiled = r.spec.create(); !compiled)
        return Resolved::failure(QStringLiteral("policy %1: %2").arg(r.spec.label(), compiled.error));
    return Resolved::success(std::move(r));
}

} // namespace dreamrsi
