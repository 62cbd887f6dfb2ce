#pragma once

#include "evaluationresult.h"
#include "sandboxresult.h"

#include <optional>

namespace dreamrsi {

/// Turns what happened to a sandboxed run into the fail classes of docs/tree-format.md#fail-classes.
class FailureClassifier
{
public:
    enum class Stage {
        Compile, ///< building the candidate: a non-zero exit is `compile`
        Run,     ///< running the candidate: a non-zero exit is `runtime`
    };
    /// nullopt when the run succeeded (exit code 0); otherwise the failure:
    /// wall clock or SIGXCPU → timeout; output cap, SIGXFSZ, memory exhaustion
    /// (MemoryError, bad_alloc, …) or too many processes → resource; a sandbox
    /// that could not start → env; other signals and exit codes → runtime (or
    /// compile at the Compile stage); cancel → env "cancelled".
    static std::optional<EvaluationResult> classify(const SandboxResult &run, Stage stage, const QString &what);
};

} // namespace dreamrsi
