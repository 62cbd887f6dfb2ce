#include "failureclassifier.h"

#include "model/cell.h"

#include <csignal>

namespace dreamrsi {

namespace {

bool looksLikeMemoryExhaustion(const QByteArray &err)
{
    static const char *const needles[] = {"MemoryError", "std::bad_alloc", "Cannot allocate memory",
                                          "out of memory", "Out of memory", "virtual memory exhausted",
                                          "cannot allocate", "failed to map segment"};
    for (const char *n : needles) {
        if (err.contains(n))
            return true;
    }
    return false;
}

bool looksLikeProcessLimit(const QByteArray &err)
{
    return err.contains("Resource temporarily unavailable") || err.contains("BlockingIOError")
           || err.contains("can't start new thread") || err.contains("fork: retry");
}

} // namespace

std::optional<EvaluationResult> FailureClassifier::classify(const SandboxResult &run, Stage stage, const QString &what)
{
    using O = SandboxResult::Outcome;
    QJsonObject metrics{{QStringLiteral("wall_ms"), double(run.wallMs)}};
    const QString tail = run.stderrTail();
    auto withTail = [&](QString message) {
        if (!tail.isEmpty())
            message += QStringLiteral("\n") + tail;
        return message;
    };
    switch (run.outcome) {
    case O::Exited:
        if (run.exitCode == 0)
            return std::nullopt;
        if (run.standardError.contains("bwrap: "))
            return EvaluationResult::failure(FailClass::Env, withTail(what + QStringLiteral(": the sandbox failed")),
                                             metrics);
        if (run.exitCode == 126 && run.standardError.isEmpty())
            return EvaluationResult::failure(FailClass::Env,
                                             what + QStringLiteral(": the sandbox could not set limits"), metrics);
        if (looksLikeMemoryExhaustion(run.standardError))
            return EvaluationResult::failure(FailClass::Resource,
                                             withTail(what + QStringLiteral(" ran out of memory (address-space limit)")),
                                             metrics);
        if (looksLikeProcessLimit(run.standardError))
            return EvaluationResult::failure(FailClass::Resource,
                                             withTail(what + QStringLiteral(" hit the process limit")), metrics);
        return EvaluationResult::failure(stage == Stage::Compile ? FailClass::Compile : FailClass::Runtime,
                                         withTail(what + QStringLiteral(" failed: ") + run.describe()), metrics);
    case O::Signaled:
        if (run.signal == SIGXCPU)
            return EvaluationResult::failure(FailClass::Timeout, what + QStringLiteral(" exceeded its CPU-time limit"),
                                             metrics);
        if (run.signal == SIGXFSZ)
            return EvaluationResult::failure(FailClass::Resource, what + QStringLiteral(" exceeded the file-size limit"),
                                             metrics);
        if (looksLikeMemoryExhaustion(run.standardError))
            return EvaluationResult::failure(FailClass::Resource,
                                             withTail(what + QStringLiteral(" ran out of memory (address-space limit)")),
                                             metrics);
        if (run.signal == SIGKILL)
            return EvaluationResult::failure(
                FailClass::Resource,
                what + QStringLiteral(" was killed by SIGKILL (CPU hard limit or the out-of-memory killer)"), metrics);
        return EvaluationResult::failure(stage == Stage::Compile ? FailClass::Compile : FailClass::Runtime,
                                         withTail(what + QStringLiteral(" crashed: ") + run.describe()), metrics);
    case O::TimedOut:
        return EvaluationResult::failure(FailClass::Timeout,
                                         what + QStringLiteral(" exceeded its wall-clock limit (%1 ms); killed").arg(run.wallMs),
                                         metrics);
    case O::OutputLimit:
        return EvaluationResult::failure(FailClass::Resource,
                                         what + QStringLiteral(" wrote more output than the cap; killed"), metrics);
    case O::Cancelled:
        return EvaluationResult::failure(FailClass::Env, QStringLiteral("cancelled"), metrics);
    case O::StartFailed:
        return EvaluationResult::failure(FailClass::Env, what + QStringLiteral(": ") + run.startError, metrics);
    }
    return EvaluationResult::failure(FailClass::Env, what + QStringLiteral(": unknown outcome"), metrics);
}

} // namespace dreamrsi
