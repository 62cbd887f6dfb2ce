#pragma once

#include "evaluationresult.h"
#include "sandboxlimits.h"

#include <QJsonValue>
#include <QStringList>

#include <optional>

namespace dreamrsi {

class EvaluationContext;

/// A candidate of a math task: a Python 3 (`.py`) or C++ (`.cpp`, `.cc`,
/// `.cxx`) program that prints its construction as JSON on stdout.
///
/// Options read (all optional): `time_limit_s` (run, default 60),
/// `compile_time_limit_s` (default 120), `memory_mb` (address space, default 4096).
class CandidateProgram
{
public:
    enum class Language { Python, Cpp, Unknown };

    /// What running the candidate gave: the JSON it printed, or the failure.
    struct Output
    {
        QJsonValue json;
        std::optional<EvaluationResult> failure;
        double runSeconds = 0.0;
    };

    static Language languageOf(const QString &path);
    /// The Python 3 that has numpy and scipy (Debian's /usr/bin/python3 when present).
    static QString pythonInterpreter();

    /// Copies the candidate into the work directory, builds it when it is C++
    /// (g++ -O2 -std=c++17, in the sandbox, cached by source hash), runs it in
    /// the sandbox and parses its stdout: the whole output, or else its last
    /// non-empty line, must be JSON.
    static Output runForJson(const EvaluationContext &context);

    /// Builds `sourceFile` (in the work directory) into `outputFile` with g++
    /// and `flags`, in the sandbox; uses and fills the CompileCache. nullopt on
    /// success, else the `compile` (or `env`, `timeout`) failure.
    static std::optional<EvaluationResult> compileCpp(const EvaluationContext &context, const QString &sourceFile,
                                                      const QString &outputFile, const QStringList &flags,
                                                      int timeLimitSeconds);

    /// Limits for running a candidate, from the context's options.
    static SandboxLimits runLimits(const EvaluationContext &context, int defaultSeconds);
};

} // namespace dreamrsi
