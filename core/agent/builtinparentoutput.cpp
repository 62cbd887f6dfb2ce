#include "builtinparentoutput.h"

#include "eval/candidateprogram.h"
#include "eval/evaluationcontext.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QTemporaryDir>

namespace dreamrsi {

QJsonValue runParentForOutput(const AttemptContext &context, const std::atomic_bool &cancel, QString *note)
{
    if (context.parentProgram.trimmed().isEmpty()) {
        *note = QStringLiteral("the attempt has no parent program");
        return QJsonValue(QJsonValue::Undefined);
    }
    QString name = QFileInfo(context.programFileName).fileName();
    if (CandidateProgram::languageOf(name) == CandidateProgram::Language::Unknown)
        name = QStringLiteral("parent.py");
    // The source lives in one directory, the run in another (as the
    // evaluator does it: the work directory itself is a fresh temporary one).
    QTemporaryDir source(QDir::tempPath() + QStringLiteral("/dreamrsi-builtin-src-XXXXXX"));
    QTemporaryDir work(QDir::tempPath() + QStringLiteral("/dreamrsi-builtin-run-XXXXXX"));
    if (!source.isValid() || !work.isValid()) {
        *note = QStringLiteral("no temporary directory to run the parent in");
        return QJsonValue(QJsonValue::Undefined);
    }
    const QString path = source.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(context.parentProgram.toUtf8()) < 0) {
        *note = QStringLiteral("cannot write the parent program to %1").arg(path);
        return QJsonValue(QJsonValue::Undefined);
    }
    file.close();
    const EvaluationContext run(path, work.path(), QJsonObject{{QStringLiteral("time_limit_s"), 60}}, SandboxMode::Auto,
                                &cancel);
    const CandidateProgram::Output out = CandidateProgram::runForJson(run);
    if (out.failure) {
        *note = QStringLiteral("running the parent again failed (%1: %2)")
                    .arg(out.failure->failClass, out.failure->error.value_or(QString()).left(200));
        return QJsonValue(QJsonValue::Undefined);
    }
    return out.json;
}

} // namespace dreamrsi
