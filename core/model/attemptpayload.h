#pragma once

#include "cell.h"

#include <QJsonObject>
#include <QString>

#include <optional>

/// What a live round stores in a cell's payload beside the tree format's
/// fields (docs/project-file.md#cells, docs/online.md#a-live-round): the
/// agent's usage, the attempt's timing, where its evaluation ran and its
/// round. Written by RoundRunner; read by the store's columns, the runner's
/// resume, RoundSession's counters, the follower, the live tree and the
/// dashboard. The keys are spelt here only.
namespace dreamrsi::AttemptPayload {

namespace Key {
inline constexpr char proposal[] = "proposal";
inline constexpr char program[] = "program";
inline constexpr char stdoutText[] = "stdout";
inline constexpr char stderrText[] = "stderr";
inline constexpr char metrics[] = "metrics";
inline constexpr char agent[] = "agent";
inline constexpr char timing[] = "timing";
inline constexpr char scheduler[] = "scheduler";
inline constexpr char round[] = "round";
inline constexpr char workspace[] = "workspace";
} // namespace Key

/// `agent`: who wrote the program and what it cost.
struct Agent
{
    QString name;  ///< the agent kind ("builtin", "openai", …)
    QString model;
    qint64 tokensIn = 0;
    qint64 tokensOut = 0;
    double cost = 0.0;     ///< US dollars
    double latencyS = 0.0; ///< seconds waiting for the model
    int retries = 0;
    int requests = 0;

    static constexpr char nameKey[] = "name", modelKey[] = "model", tokensInKey[] = "tokens_in",
                          tokensOutKey[] = "tokens_out", costKey[] = "cost", latencyKey[] = "latency_s",
                          retriesKey[] = "retries", requestsKey[] = "requests";
    QJsonObject toJson() const;
    /// Missing fields read as zero or empty.
    static Agent fromJson(const QJsonObject &o);
};

/// `timing`: seconds spent, and when the attempt ended.
struct Timing
{
    double agentS = 0.0;
    double evalS = 0.0;
    double wallS = 0.0;
    std::optional<double> queueWaitS; ///< a scheduler's queue wait (Slurm)
    std::optional<double> runS;       ///< a scheduler's run time (Slurm)
    QString ended;                    ///< UTC, ISO 8601 with milliseconds; empty when unknown

    static constexpr char agentKey[] = "agent_s", evalKey[] = "eval_s", wallKey[] = "wall_s",
                          queueWaitKey[] = "queue_wait_s", runKey[] = "run_s", endedKey[] = "ended";
    QJsonObject toJson() const;
    static Timing fromJson(const QJsonObject &o);
};

/// `scheduler`: where an evaluation ran when a scheduler ran it.
struct Scheduler
{
    QString backend;
    QString jobId;
    QString state;
    QString reason; ///< empty when the scheduler gave none
    int submits = 0;

    QJsonObject toJson() const;
    static Scheduler fromJson(const QJsonObject &o);
};

/// The cell's agent usage (zeros when it has none).
Agent agentOf(const Cell &cell);
/// The cell's timing (zeros when it has none).
Timing timingOf(const Cell &cell);
/// Where its evaluation ran; nothing when no scheduler ran it.
std::optional<Scheduler> schedulerOf(const Cell &cell);
/// The round (0-based) the attempt ran in; nothing for cells of no live round.
std::optional<int> roundOf(const Cell &cell);

} // namespace dreamrsi::AttemptPayload
