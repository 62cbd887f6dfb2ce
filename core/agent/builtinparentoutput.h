#pragma once

#include "agent.h"

#include <QJsonValue>
#include <QString>

#include <atomic>

namespace dreamrsi {

/// Runs the parent program of a math task in the evaluator's sandbox (the
/// same runner, limits and interpreter the evaluator uses) and returns the
/// JSON it printed, so the built-in agent can start from the parent's
/// construction. Undefined with `*note` set when it cannot: no program, a
/// failed run, cancellation.
QJsonValue runParentForOutput(const AttemptContext &context, const std::atomic_bool &cancel, QString *note);

} // namespace dreamrsi
