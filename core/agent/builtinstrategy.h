#pragma once

#include "agent.h"
#include "builtinparams.h"
#include "builtinprogress.h"

#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <optional>

namespace dreamrsi {

class BuiltinRandom;

/// What one step of the built-in agent knows: the attempt, the direction it
/// follows, the parent's parameter block (when the parent was written by the
/// built-in agent) and what the parent printed (math tasks, when it ran).
struct BuiltinStep
{
    const AttemptContext *context = nullptr;
    QString direction;                         ///< one of the strategy's directions
    std::optional<BuiltinParams> parentParams; ///< the parent's block, nullopt when it has none
    QJsonValue parentOutput;                   ///< the parent's printed JSON; Undefined when unknown
    QString parentOutputNote;                  ///< why there is no parent output (for the proposal)
    /// The score the program may reach (the progress model's target); nullopt
    /// for tasks without a progress model (their programs run unbounded).
    std::optional<double> target;
};

/// A program made by a strategy, with its parameters and the sentences that
/// explain it (they become the proposal).
struct BuiltinDraft
{
    BuiltinParams params;
    QString program;
    QStringList notes;
};

/// One family of programs for one task: a set of directions (different
/// branches follow different ones), fresh parameters per direction, a
/// perturbation of a parent's parameters, and the program text. Stateless
/// and const: safe to call from several threads.
class BuiltinStrategy
{
public:
    virtual ~BuiltinStrategy();

    virtual QString task() const = 0;
    /// Direction names, without the "direction:" prefix.
    virtual QStringList directions() const = 0;
    /// One sentence saying what a direction does.
    virtual QString describe(const QString &direction) const = 0;
    /// Whether drafting needs the parent's printed output (the agent then runs
    /// the parent in the sandbox).
    virtual bool usesParentOutput() const = 0;
    virtual BuiltinDraft draft(const BuiltinStep &step, BuiltinRandom &random) const = 0;

    /// The task's gap (initial program → best published value), for the
    /// progress model; nullopt when the task has none (the programs then run
    /// unbounded and make no deliberate mistakes).
    virtual std::optional<BuiltinScale> scale() const { return std::nullopt; }
    /// How far `direction` can go on this task (see builtinprogress.h).
    virtual BuiltinProfile profile(const QString &direction) const;
    /// The realistic mistakes this task's programs can make, each a
    /// substitution on the text draft() writes.
    virtual QList<BuiltinDefect> defects() const { return {}; }

protected:
    /// The parent failed: no score, or an error.
    static bool parentFailed(const BuiltinStep &step);
    /// The common keys: task, direction, generation (parent's + 1, or 0) and a fresh program seed.
    void stamp(BuiltinParams &params, const BuiltinStep &step, BuiltinRandom &random) const;
    /// A double as Python/C++ reads it back exactly.
    static QString exact(double value);
};

} // namespace dreamrsi
