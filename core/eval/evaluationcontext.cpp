#include "evaluationcontext.h"

#include "sandboxrunner.h"

#include <QJsonValue>

namespace dreamrsi {

EvaluationContext::EvaluationContext(QString candidatePath, QString workDir, QJsonObject options, SandboxMode mode,
                                     const std::atomic_bool *cancelFlag)
    : m_candidatePath(std::move(candidatePath))
    , m_workDir(std::move(workDir))
    , m_options(std::move(options))
    , m_mode(mode)
    , m_cancelFlag(cancelFlag)
{
}

bool EvaluationContext::isCancelled() const
{
    return m_cancelFlag && m_cancelFlag->load();
}

SandboxResult EvaluationContext::run(SandboxRequest request) const
{
    if (request.workDir.isEmpty())
        request.workDir = m_workDir;
    request.mode = m_mode;
    if (isCancelled()) {
        SandboxResult r;
        r.outcome = SandboxResult::Outcome::Cancelled;
        return r;
    }
    return SandboxRunner::run(request, m_cancelFlag);
}

double EvaluationContext::optionDouble(const QString &key, double fallback) const
{
    const QJsonValue v = m_options.value(key);
    return v.isDouble() ? v.toDouble() : fallback;
}

int EvaluationContext::optionInt(const QString &key, int fallback) const
{
    const QJsonValue v = m_options.value(key);
    return v.isDouble() ? v.toInt(fallback) : fallback;
}

QString EvaluationContext::optionString(const QString &key, const QString &fallback) const
{
    const QJsonValue v = m_options.value(key);
    return v.isString() ? v.toString() : fallback;
}

} // namespace dreamrsi
