// PolicySpec::create() for a script: kept apart from policyspec.cpp so that a
// program that runs built-in policies only can leave the JavaScript engine
// (QtQml) out of its link (see policyspec.h).
#include "policyspec.h"

#include "scriptedpolicy.h"

namespace dreamrsi {

Result<std::unique_ptr<Policy>> PolicySpec::createScripted() const
{
    Result<std::unique_ptr<ScriptedPolicy>> scripted =
        ScriptedPolicy::create(m_source, m_label, m_timeLimitMs, m_randomSeed);
    if (!scripted)
        return scripted.failureAs<std::unique_ptr<Policy>>();
    return Result<std::unique_ptr<Policy>>::success(std::move(*scripted.value));
}

} // namespace dreamrsi
