// Which stored version a policy choice names in a project.
#include "policyresolution.h"

#include "projectpolicies.h"

#include "policy/builtinpolicies.h"
#include "store/projectstore.h"
#include "store/storeawait.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>

namespace dreamrsi {

namespace {

const QString ManualName = QStringLiteral("manual");

const PolicyVersion *findVersion(const QList<PolicyVersion> &versions, auto matches)
{
    for (const PolicyVersion &v : versions) {
        if (matches(v))
            return &v;
    }
    return nullptr;
}

const PolicyVersion *byId(const QList<PolicyVersion> &versions, PolicyVersionId id)
{
    return findVersion(versions, [id](const PolicyVersion &v) { return v.id == id; });
}

const PolicyVersion *byName(const QList<PolicyVersion> &versions, const QString &name)
{
    return findVersion(versions, [&name](const PolicyVersion &v) { return v.name == name; });
}

/// `v` as stored: the stored version of its name, else `v` added now.
Result<PolicyVersion> storedOrAdded(ProjectStore &store, const QList<PolicyVersion> &versions, PolicyVersion v)
{
    if (const PolicyVersion *stored = byName(versions, v.name))
        return Result<PolicyVersion>::success(*stored);
    v.created = QDateTime::currentDateTimeUtc();
    const StoreResult<PolicyVersionId> added = await(store.addPolicyVersion(v));
    if (!added.ok())
        return added.failureAs<PolicyVersion>();
    v.id = *added.value;
    return Result<PolicyVersion>::success(v);
}

/// Today's built-in `name` as stored: the version holding its code, else that
/// version added now (beside an older build's "builtin:NAME", never instead
/// of it: ProjectPolicies::currentBuiltin).
Result<PolicyVersion> storedBuiltin(ProjectStore &store, const QList<PolicyVersion> &versions, const QString &name)
{
    std::optional<PolicyVersion> v = ProjectPolicies::currentBuiltin(versions, name);
    if (!v)
        return Result<PolicyVersion>::failure(QStringLiteral("unknown built-in policy 'builtin:%1' (known: %2)")
                                                  .arg(name, BuiltinPolicies::names().join(QStringLiteral(", "))));
    if (v->id != 0)
        return Result<PolicyVersion>::success(*v);
    return storedOrAdded(store, versions, *v);
}

PolicyVersion manualPlaceholder()
{
    PolicyVersion v;
    v.name = ManualName;
    v.code = QStringLiteral(
        "// Manual exploration: a person picked every batch of the rounds this version\n"
        "// names (stored as `batch` steering events); export them with\n"
        "// `dreamrsi export P --iteration N --recorded-policy OUT.js` to replay them.\n"
        "function selectBatch(state) { return []; }\n");
    v.origin = PolicyOrigin::Human;
    return v;
}

Result<ResolvedPolicy> resolved(Result<PolicyVersion> version, const QString &description)
{
    if (!version.ok())
        return version.failureAs<ResolvedPolicy>();
    ResolvedPolicy r;
    r.version = std::move(*version.value);
    r.description = description;
    r.manual = r.version.name == ManualName;
    if (r.manual)
        r.description = QStringLiteral("manual exploration (a person picks every batch)");
    return Result<ResolvedPolicy>::success(std::move(r));
}

} // namespace

Result<PolicyVersion> PolicyResolution::versionOfArgument(const QString &argument, const QList<PolicyVersion> &stored,
                                                          const QString &name)
{
    using R = Result<PolicyVersion>;
    auto script = [&argument]() -> R {
        QFile f(argument);
        if (!f.open(QIODevice::ReadOnly))
            return R::failure(QStringLiteral("%1: cannot read: %2").arg(argument, f.errorString()));
        PolicyVersion v;
        v.code = QString::fromUtf8(f.readAll());
        v.name = QFileInfo(argument).completeBaseName();
        v.origin = PolicyOrigin::Human;
        return R::success(std::move(v));
    };
    R made = R::failure(QString());
    if (argument.startsWith(QLatin1String("builtin:"))) {
        const std::optional<PolicyVersion> current = ProjectPolicies::currentBuiltin(stored, argument.mid(8));
        if (!current)
            return R::failure(QStringLiteral("unknown built-in policy '%1' (known: builtin:%2)")
                                  .arg(argument.mid(8), BuiltinPolicies::names().join(QStringLiteral(", builtin:"))));
        made = R::success(*current);
    } else if (argument.endsWith(QLatin1String(".js")) && QFileInfo(argument).isFile()) {
        made = script();
    } else {
        for (const PolicyVersion &v : stored) {
            if (v.name == argument)
                return R::success(v);
        }
        if (!QFileInfo(argument).isFile())
            return R::failure(QStringLiteral("no policy version or file named \"%1\" (give a stored version name, a .js "
                                             "file or builtin:NAME)")
                                  .arg(argument));
        made = script(); // a script file by any other name
    }
    if (made && !name.isEmpty()) {
        made.value->id = 0;
        made.value->name = name;
    }
    return made;
}

const Approval *PolicyResolution::newestApproval(const QList<Approval> &approvals)
{
    const Approval *newest = nullptr;
    for (const Approval &a : approvals) {
        if (!newest || a.when > newest->when || (a.when == newest->when && a.id >= newest->id))
            newest = &a;
    }
    return newest;
}

Result<ResolvedPolicy> PolicyResolution::resolve(ProjectStore &store, const PolicyChoice &choice,
                                                 PolicyVersionId resumedVersion)
{
    const StoreResult<QList<PolicyVersion>> stored = await(store.policyVersions());
    if (!stored.ok())
        return stored.failureAs<ResolvedPolicy>();
    const QList<PolicyVersion> &versions = *stored.value;
    const QString argument = choice.toArgument();
    switch (choice.kind()) {
    case PolicyChoice::Kind::Manual:
        return resolved(storedOrAdded(store, versions, manualPlaceholder()), QString());
    case PolicyChoice::Kind::Builtin:
        if (!BuiltinPolicies::names().contains(choice.name()))
            return Result<ResolvedPolicy>::failure(QStringLiteral("unknown built-in policy '%1' (known: %2)")
                                                       .arg(argument, BuiltinPolicies::names().join(QStringLiteral(", "))));
        return resolved(storedBuiltin(store, versions, choice.name()),
                        QStringLiteral("built-in policy %1 (asked for)").arg(argument));
    case PolicyChoice::Kind::Stored: {
        const PolicyVersion *chosen = byName(versions, argument);
        bool numeric = false;
        const qint64 id = argument.toLongLong(&numeric);
        if (!chosen && numeric)
            chosen = byId(versions, id);
        if (!chosen) {
            QStringList names;
            for (const PolicyVersion &v : versions)
                names.append(v.name);
            return Result<ResolvedPolicy>::failure(
                QStringLiteral("no policy version '%1' in the project (stored: %2; or builtin:NAME)")
                    .arg(argument, names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "))));
        }
        return resolved(Result<PolicyVersion>::success(*chosen),
                        QStringLiteral("stored version %1 (asked for)").arg(chosen->name));
    }
    case PolicyChoice::Kind::LatestApproved:
        break;
    }
    if (const PolicyVersion *resumed = resumedVersion != 0 ? byId(versions, resumedVersion) : nullptr)
        return resolved(Result<PolicyVersion>::success(*resumed),
                        QStringLiteral("version %1 (the one that drove the round being resumed)").arg(resumed->name));
    const StoreResult<QList<Approval>> approvals = await(store.approvals());
    if (!approvals.ok())
        return approvals.failureAs<ResolvedPolicy>();
    const Approval *latest = newestApproval(*approvals.value);
    if (const PolicyVersion *approved = latest ? byId(versions, latest->version) : nullptr)
        return resolved(Result<PolicyVersion>::success(*approved),
                        QStringLiteral("latest approved version %1").arg(approved->name));
    return resolved(storedBuiltin(store, versions, QStringLiteral("portfolio")),
                    QStringLiteral("built-in policy builtin:portfolio (no approved version in the project)"));
}

} // namespace dreamrsi
