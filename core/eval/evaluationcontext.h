#pragma once

#include "sandboxrequest.h"
#include "sandboxresult.h"

#include <QJsonObject>
#include <QString>

#include <atomic>

namespace dreamrsi {

/// What a task evaluator gets for one evaluation: the candidate, a private
/// work directory, the options, and the one way to run untrusted code.
class EvaluationContext
{
public:
    EvaluationContext(QString candidatePath, QString workDir, QJsonObject options, SandboxMode mode,
                      const std::atomic_bool *cancelFlag);

    const QString &candidatePath() const { return m_candidatePath; }
    /// Exists, empty at the start, removed after the evaluation (unless kept).
    const QString &workDir() const { return m_workDir; }
    const QJsonObject &options() const { return m_options; }
    SandboxMode sandboxMode() const { return m_mode; }
    bool isCancelled() const;

    /// Runs `request` in the sandbox (blocking), with this evaluation's mode and
    /// cancel flag; an empty `request.workDir` becomes workDir().
    SandboxResult run(SandboxRequest request) const;

    /// Option helpers: the value of `key`, or `fallback` when absent or of the wrong type.
    double optionDouble(const QString &key, double fallback) const;
    int optionInt(const QString &key, int fallback) const;
    QString optionString(const QString &key, const QString &fallback) const;

private:
    QString m_candidatePath;
    QString m_workDir;
    QJsonObject m_options;
    SandboxMode m_mode;
    const std::atomic_bool *m_cancelFlag;
};

} // namespace dreamrsi
