#include "roundpolicy.h"

#include "project/policyresolution.h"
#include "project/projectpolicies.h"

namespace dreamrsi {

Result<RoundPolicy> RoundPolicy::resolve(ProjectStore &store, const PolicyChoice &choice, PolicyVersionId resumedVersion,
                                         quint64 seed)
{
    // Which version: the project's one resolution; how it runs: the one rule.
    const Result<ResolvedPolicy> chosen = PolicyResolution::resolve(store, choice, resumedVersion);
    if (!chosen.ok())
        return chosen.failureAs<RoundPolicy>();
    RoundPolicy r;
    r.spec = ProjectPolicies::specFor(chosen.value->version);
    r.version = chosen.value->version.id;
    r.description = chosen.value->description;
    r.manual = chosen.value->manual;
    r.spec.setRandomSeed(quint32(seed ^ (seed >> 32)) ^ 0x5EED1234u);
    if (const Result<std::unique_ptr<Policy>> compiled = r.spec.create(); !compiled)
        return Result<RoundPolicy>::failure(QStringLiteral("policy %1: %2").arg(r.spec.label(), compiled.error));
    return Result<RoundPolicy>::success(std::move(r));
}

} // namespace dreamrsi
