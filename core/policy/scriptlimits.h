#pragma once

#include <QtGlobal>

namespace dreamrsi {

/// The limits a policy version's code runs under, decided once for every
/// replay of a version: a dream, `replay --project`, the window's sweeps and
/// its stepper, `plot` (docs/policy-api.md#determinism-and-limits).
///
/// - `callMs` bounds every call into a script (selectBatch, planGrid), in
///   this process and in a child replay alike: the script's watchdog stops a
///   call that runs past it and the episode ends with that error.
/// - `memoryBytes` and `wallMs` bound a child `dreamrsi replay` process
///   (its address space, RLIMIT_AS, and its wall clock). A replay in this
///   process — chosen only by callers that run code the user handed them
///   (the command line) or the built-in improver's versions (the
///   counterfactual loop) — runs inside this process's own memory.
struct ScriptLimits
{
    int callMs = 2000;
    qint64 memoryBytes = qint64(4) << 30;
    int wallMs = 120000;

    friend bool operator==(const ScriptLimits &, const ScriptLimits &) = default;
};

} // namespace dreamrsi
