#pragma once

#include "roundoptions.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace dreamrsi {

/// One check of a preflight: what was checked, whether it passed, and what
/// was found (a score and time, an HTTP status, who holds the project).
struct PreflightCheck
{
    QString name;   ///< "project", "agent", "backend", "evaluator", "policy"
    bool ok = false;
    QString detail;
};

/// A range over the replay worlds: the mean and the 10th and 90th
/// percentiles (linear between order statistics); all three equal when the
/// estimate comes from limits alone.
struct PreflightRange
{
    double mean = 0.0;
    double p10 = 0.0;
    double p90 = 0.0;

    QJsonObject toJson() const;
};

/// What a round is likely to spend (docs/online.md#before-a-round-preflight-and-cost).
struct PreflightEstimate
{
    PreflightRange calls;
    int worlds = 0;            ///< replay worlds the calls come from; 0 = from the limits
    PreflightRange usd;
    PreflightRange seconds;
    double tokensInPerCall = 0.0;
    double tokensOutPerCall = 0.0;
    QString model;             ///< what the tokens are priced as
    /// Where each figure came from, in words.
    QString callsBasis, tokensBasis, usdBasis, secondsBasis;

    QJsonObject toJson() const;
};

/// Everything a round needs, checked before any paid call, and its cost.
struct PreflightReport
{
    QList<PreflightCheck> checks;
    std::optional<PreflightEstimate> estimate;

    bool ok() const;
    /// The names of the checks that failed.
    QStringList failed() const;
    /// {"ok", "checks": [{"name", "ok", "detail"}], "estimate": {"calls": {"mean", "p10", "p90", "worlds"},
    /// "usd": {…}, "seconds": {…}, "tokens_per_call": {…}, "basis": {…}}}.
    QJsonObject toJson() const;
    /// The report in lines for a terminal or the Launch Round dialog.
    QString toText() const;
};

/// A round's preflight (docs/online.md#before-a-round-preflight-and-cost),
/// the same for `dreamrsi round --preflight` and Launch Round's Check: it
/// creates no iteration and writes nothing in the project.
namespace RoundPreflight {

/// Receives a line as each step begins ("checking the agent …").
using Progress = std::function<void(const QString &line)>;

/// Checks the project (writable, not held by another writer), the agent
/// (its key and a request to its endpoint that costs no tokens; a command
/// agent's executable and its --version), the backend (Slurm's
/// --test-only) and the evaluator on the task's initial program, then
/// estimates the calls (the policy replayed over the project's replay worlds
/// at the round's β and W, as `dreamrsi replay --project` does, without
/// storing; else the round's limits), the tokens per call (the project's past
/// cells of the same agent and model, else the prompt's size and a default
/// answer), the cost (the price table) and the time. Blocking (network,
/// sandbox, replay): never on the GUI thread.
PreflightReport run(const RoundOptions &options, const QString &projectPath, const Progress &progress = {});

/// Tokens an answer is taken to have when no past cell tells.
inline constexpr int defaultAnswerTokens = 2000;

/// The p-th percentile (0–100) of `values`, linear between order statistics; 0 for none.
double percentile(QList<double> values, double p);

} // namespace RoundPreflight

} // namespace dreamrsi
