#include "candidateprogram.h"

#include "compilecache.h"
#include "evaluationcontext.h"
#include "failureclassifier.h"

#include "model/cell.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QList>
#include <QProcess>
#include <QStandardPaths>

namespace dreamrsi {

namespace {

QByteArray compilerIdentity()
{
    static const QByteArray identity = [] {
        QProcess p;
        p.start(QStringLiteral("g++"), {QStringLiteral("--version")});
        p.waitForFinished(10'000);
        return p.readAllStandardOutput();
    }();
    return identity;
}

QString quoted(const QByteArray &text)
{
    QString s = QString::fromUtf8(text).trimmed();
    if (s.size() > 300)
        s = s.left(300) + QStringLiteral("…");
    return s;
}

} // namespace

CandidateProgram::Language CandidateProgram::languageOf(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("py"))
        return Language::Python;
    if (suffix == QLatin1String("cpp") || suffix == QLatin1String("cc") || suffix == QLatin1String("cxx"))
        return Language::Cpp;
    return Language::Unknown;
}

QString CandidateProgram::pythonInterpreter()
{
    if (QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable())
        return QStringLiteral("/usr/bin/python3");
    const QString found = QStandardPaths::findExecutable(QStringLiteral("python3"));
    return found.isEmpty() ? QStringLiteral("python3") : found;
}

SandboxLimits CandidateProgram::runLimits(const EvaluationContext &context, int defaultSeconds)
{
    SandboxLimits limits;
    const double seconds = context.optionDouble(QStringLiteral("time_limit_s"), defaultSeconds);
    limits.wallMs = int(seconds * 1000.0);
    limits.cpuSeconds = qMax(1, int(std::ceil(seconds)) * 4); // a multi-threaded candidate may use several cores
    limits.addressSpaceBytes = qint64(context.optionDouble(QStringLiteral("memory_mb"), 4096.0)) << 20;
    return limits;
}

std::optional<EvaluationResult> CandidateProgram::compileCpp(const EvaluationContext &context,
                                                             const QString &sourceFile, const QString &outputFile,
                                                             const QStringList &flags, int timeLimitSeconds)
{
    QFile source(context.workDir() + QLatin1Char('/') + sourceFile);
    if (!source.open(QIODevice::ReadOnly))
        return EvaluationResult::failure(FailClass::Env, QStringLiteral("cannot read %1").arg(source.fileName()));
    const QByteArray text = source.readAll();
    const QString key = CompileCache::key({QByteArrayLiteral("g++"), compilerIdentity(), flags.join(QLatin1Char(' ')).toUtf8(), text});
    const QString output = context.workDir() + QLatin1Char('/') + outputFile;
    if (CompileCache::fetch(key, output))
        return std::nullopt;

    SandboxRequest request;
    request.program = QStringLiteral("g++");
    request.arguments = flags;
    request.arguments << QStringLiteral("-o") << outputFile << sourceFile;
    request.limits.wallMs = timeLimitSeconds * 1000;
    request.limits.cpuSeconds = timeLimitSeconds;
    request.limits.addressSpaceBytes = qint64(6) << 30;
    request.limits.fileSizeBytes = qint64(512) << 20;
    request.limits.maxProcesses = 64;
    request.limits.outputBytes = qint64(16) << 20; // template errors can be long
    const SandboxResult run = context.run(request);
    if (auto failure = FailureClassifier::classify(run, FailureClassifier::Stage::Compile, QStringLiteral("g++"))) {
        if (failure->failClass == QLatin1String(FailClass::Runtime))
            failure->failClass = QString::fromLatin1(FailClass::Compile);
        return failure;
    }
    if (!QFileInfo(output).isExecutable())
        return EvaluationResult::failure(FailClass::Compile, QStringLiteral("g++ reported success but wrote no executable"));
    CompileCache::store(key, output);
    return std::nullopt;
}

CandidateProgram::Output CandidateProgram::runForJson(const EvaluationContext &context)
{
    Output out;
    const QString path = context.candidatePath();
    const Language language = languageOf(path);
    if (!QFileInfo(path).isFile()) {
        out.failure = EvaluationResult::failure(FailClass::Agent, QStringLiteral("no candidate program at '%1'").arg(path));
        return out;
    }
    if (language == Language::Unknown) {
        out.failure = EvaluationResult::failure(
            FailClass::Compile,
            QStringLiteral("cannot tell the language of '%1': name Python candidates *.py and C++ ones *.cpp")
                .arg(QFileInfo(path).fileName()));
        return out;
    }
    const QString local = language == Language::Python ? QStringLiteral("candidate.py") : QStringLiteral("candidate.cpp");
    if (!QFile::copy(path, context.workDir() + QLatin1Char('/') + local)) {
        out.failure = EvaluationResult::failure(FailClass::Env, QStringLiteral("cannot copy the candidate into the work directory"));
        return out;
    }

    SandboxRequest request;
    request.limits = runLimits(context, 60);
    if (language == Language::Cpp) {
        const int compileLimit = context.optionInt(QStringLiteral("compile_time_limit_s"), 120);
        if (auto failure = compileCpp(context, local, QStringLiteral("candidate"),
                                      {QStringLiteral("-O2"), QStringLiteral("-std=c++17")}, compileLimit)) {
            out.failure = failure;
            return out;
        }
        request.program = context.workDir() + QStringLiteral("/candidate");
    } else {
        request.program = pythonInterpreter();
        request.arguments = {local};
    }
    const SandboxResult run = context.run(request);
    out.runSeconds = run.wallSeconds;
    if (auto failure = FailureClassifier::classify(run, FailureClassifier::Stage::Run, QStringLiteral("the candidate"))) {
        out.failure = failure;
        return out;
    }

    QJsonParseError error{};
    QJsonDocument doc = QJsonDocument::fromJson(run.standardOutput, &error);
    if (error.error != QJsonParseError::NoError) {
        const QList<QByteArray> lines = run.standardOutput.trimmed().split('\n');
        doc = QJsonDocument::fromJson(lines.isEmpty() ? QByteArray() : lines.last(), &error);
    }
    if (error.error != QJsonParseError::NoError || doc.isNull()) {
        out.failure = EvaluationResult::failure(
            FailClass::Correctness,
            run.standardOutput.trimmed().isEmpty()
                ? QStringLiteral("the candidate printed nothing; it must print its construction as JSON")
                : QStringLiteral("the candidate's output is not JSON: \"%1\"").arg(quoted(run.standardOutput)));
        return out;
    }
    out.json = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
    return out;
}

} // namespace dreamrsi
