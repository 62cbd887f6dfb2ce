#pragma once

// The built-in agent's progress model: how far one call may move a task's
// score. The built-in agent stands in for a model that makes a bounded change
// per call, so it decides before writing a program how much that program may
// gain (its target) and, at a fixed rate, which realistic mistake it makes.
// The program it then writes is a real search that stops at the target (or
// trims its result down to it); the evaluator scores what it prints.
//
// Scores are measured as a fraction of the task's gap: 0 is the initial
// program's score, 1 the best published value.
//  - Each direction of a task has a ceiling (the fraction it can reach at
//    most), a step (the share of the remaining way to its ceiling that a
//    paying refinement closes, on average), a first reach (attempt 0 reaches
//    about first·ceiling) and a failure rate. They are fixed per task: the
//    same from one seed or iteration to the next.
//  - Attempt 0 reaches at most 60 % of the gap.
//  - A refinement pays with probability 1 − missRate; when it does not, the
//    target is the parent's score (the change did not help).
//  - A refinement that can read a better program of an earlier iteration in
//    the history may go past its direction's ceiling up to that program's
//    score, with a longer step (it borrows the idea).

#include "agent.h"

#include <QString>

#include <optional>

namespace dreamrsi {

class BuiltinRandom;

/// The two ends of a task's gap, in score units (larger is better).
struct BuiltinScale
{
    double initial = 0.0; ///< the task's initial program
    double best = 1.0;    ///< the best published value
    double fraction(double score) const { return (score - initial) / (best - initial); }
    double score(double fraction) const { return initial + fraction * (best - initial); }
};

/// How far a direction of a task can go.
struct BuiltinProfile
{
    double ceiling = 0.5;   ///< the fraction of the gap it can reach at most
    double step = 0.3;      ///< mean share of the remaining way to the ceiling one paying refinement closes
    double first = 0.4;     ///< attempt 0 reaches about first · ceiling
    double failRate = 0.24; ///< share of its attempts whose program has a mistake
};

/// A realistic mistake, as a text substitution on a correct program.
struct BuiltinDefect
{
    enum class Kind
    {
        Invalid,
        Crash,
        Timeout
    };
    Kind kind = Kind::Crash;
    QString find;        ///< text of the correct program (must occur once)
    QString replace;     ///< the faulty text
    QString description; ///< what the mistake is, for the agent's log
};

QString builtinDefectKindName(BuiltinDefect::Kind kind);

/// What one call may do.
struct BuiltinPlan
{
    double from = 0.0;     ///< fraction of the gap the attempt starts from
    double target = 0.0;   ///< fraction of the gap the attempt may reach
    double ceiling = 0.0;  ///< the ceiling that applied (the direction's, or an earlier iteration's best)
    bool pays = true;      ///< false: the change does not help (target = from)
    bool borrowed = false; ///< an earlier iteration's better program raised the ceiling
    std::optional<BuiltinDefect::Kind> defect; ///< the mistake this attempt makes, if any
    QString explain() const;                   ///< one line for the agent's log
};

/// Draws the plan of one call. `from` is the fraction of the attempt's
/// starting point (0 for attempt 0 and when nothing usable precedes it),
/// `fresh` whether it starts from the initial program (attempt 0, or no
/// working ancestor), `historyBest` the best fraction an earlier iteration
/// reached (nullopt when none), `failRate` the rate to use (the profile's
/// unless overridden, negative = the profile's).
BuiltinPlan planBuiltinStep(const BuiltinProfile &profile, double from, bool fresh,
                            std::optional<double> historyBest, double failRate, BuiltinRandom &random);

} // namespace dreamrsi
