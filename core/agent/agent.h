#pragma once

// The agent interface of docs/online.md#agents: one shape for every kind of discovery
// agent (built-in, HTTP providers, command line) and for the chat models that
// the policy-development agent (dreaming, docs/online.md#dreaming) talks to.
//
// Threading: every call is blocking and made on a worker thread (the round
// runner's pool, the dreaming job); an implementation must allow concurrent
// calls on one object from several threads (W workers share one agent).
// `cancel` is polled: when it turns true the call returns within ~100 ms
// with an outcome whose `cancelled` is set.

#include "base/result.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>

namespace dreamrsi {

/// What one agent call cost. Summed over the retries of that call.
struct AgentUsage
{
    QString model;          ///< model that answered ("builtin:circle_packing_26", "gpt-4o", …)
    qint64 tokensIn = 0;    ///< prompt tokens as the provider reports them
    qint64 tokensOut = 0;   ///< completion tokens
    double usd = 0.0;       ///< tokens priced with the price table (0 when the model has no price)
    double latencyS = 0.0;  ///< wall time of the call, retries and back-off included
    int retries = 0;        ///< requests repeated after 408/429/5xx/network errors
    int calls = 1;          ///< requests that reached the provider (1 + retries)

    AgentUsage &operator+=(const AgentUsage &other);
};

/// One earlier attempt, as the next agent sees it (the paper's history_dir).
struct AttemptRecord
{
    qint64 iteration = 0;          ///< iteration number the attempt belongs to
    QString cellId;                ///< "b<branch>a<attempt>"
    int branch = 0;
    int attempt = 0;
    std::optional<double> score;   ///< nullopt when it failed
    QString failClass;             ///< docs/tree-format.md#fail-classes vocabulary
    QString error;                 ///< evaluator or agent error, empty when none
    QString proposal;              ///< proposal.md text
    QString program;               ///< the program (may be long; prompts summarise)
};

/// Everything a discovery agent gets for one attempt (docs/online.md#agents).
struct AttemptContext
{
    QString task;                  ///< built-in task name or task folder
    QString taskStatement;         ///< problem.md
    QString programFileName;       ///< file the program goes to: "main.py", "solver.cpp", "kernel.cu"
    QString cellId;                ///< id of the attempt being made
    int branch = 0;
    int attempt = 0;
    qint64 iteration = 0;          ///< iteration number
    QString workspaceDir;          ///< attempts/<iteration>/<id>/: the agent's own directory
    QString parentWorkspaceDir;    ///< the parent's workspace; empty for attempt 0
    QString baselineDir;           ///< folder of the task's initial program
    QString parentProgram;         ///< program the attempt starts from (initial program for attempt 0)
    QString parentProposal;        ///< empty for attempt 0
    std::optional<double> parentScore;
    QString parentError;           ///< why the parent failed, empty when it did not
    std::optional<double> baselineScore; ///< score of the initial program, when known
    QList<AttemptRecord> history;  ///< earlier attempts of this and past iterations, oldest first
    QString directionHint;         ///< per-branch direction ("direction:vectorize"), may be empty
    QString directionDetail;       ///< what that direction means (one sentence), may be empty
    /// A researcher's hint for this attempt (steering a live round), may be
    /// empty. When it names one of the task's directions, directionHint is
    /// that direction for this attempt.
    QString researcherHint;
    quint64 seed = 0;              ///< per-attempt seed (deterministic agents use it)
};

/// What a discovery agent returns. `ok` false = an `agent` failure cell with `error`.
struct AgentOutcome
{
    bool ok = false;
    bool cancelled = false;
    QString error;       ///< why it failed (no code block, HTTP 401 after retries, time limit, …)
    QString proposal;    ///< proposal.md (Markdown)
    QString program;     ///< the program text written to programFileName
    QString log;         ///< agent.log: requests, statuses, retries, timings; never a key
    AgentUsage usage;

    static AgentOutcome failure(QString message, AgentUsage usage = {}, QString log = {});
};

/// A discovery agent: attempt context in, proposal + program out.
class DiscoveryAgent
{
public:
    virtual ~DiscoveryAgent();
    /// "builtin", "openai", "anthropic", "gemini", "command".
    virtual QString kind() const = 0;
    /// Model name as stored with each cell.
    virtual QString model() const = 0;
    /// Blocking; thread-safe (see the file comment).
    virtual AgentOutcome propose(const AttemptContext &context, const std::atomic_bool &cancel) = 0;
};

/// One request to a chat model: a system text and a user text.
struct ChatRequest
{
    QString system;
    QString user;
    int maxOutputTokens = 8192;
    double temperature = 0.7;
};

/// A chat model's answer, or why there is none.
struct ChatResponse
{
    bool ok = false;
    bool cancelled = false;
    QString error;
    QString text;        ///< the answer's text (Markdown)
    QString log;
    AgentUsage usage;
};

/// A chat model behind an HTTP provider (or a command-line agent answering on
/// stdout). Used by the HTTP discovery agents and the policy-development agent.
class ChatModel
{
public:
    virtual ~ChatModel();
    virtual QString kind() const = 0;
    virtual QString model() const = 0;
    /// Blocking; thread-safe.
    virtual ChatResponse complete(const ChatRequest &request, const std::atomic_bool &cancel) = 0;
};

/// How to reach an agent; the same for discovery and policy development.
/// Never serialised with `apiKey`: keys stay in memory (docs/online.md#http-providers).
struct AgentConfig
{
    QString kind = QStringLiteral("builtin"); ///< builtin | openai | anthropic | gemini | command
    QString model;                ///< provider's model name; empty = the provider's default
    QString baseUrl;              ///< empty = the provider's public default
    QString command;              ///< kind "command": the command line (run with /bin/sh -c)
    QString apiKey;               ///< empty = from the provider's environment variable
    int timeoutMs = 300000;       ///< per call
    int maxRetries = 4;           ///< on 408/429/5xx/network errors
    int maxOutputTokens = 8192;
    double temperature = 0.7;
    QStringList allowedEnvironment; ///< kind "command": variables passed to the child
    quint64 seed = 0;
    /// First back-off delay of the retries (doubled per retry, with jitter);
    /// a `Retry-After` from the provider takes precedence.
    int retryBaseDelayMs = 1000;
    /// Exploration prompt template to use instead of the bundled one; empty =
    /// $DREAMRSI_EXPLORATION_PROMPT, else the bundled :/prompts/exploration.md.
    QString promptFile;
    /// Characters the exploration prompt may take (~4 per token): older
    /// attempts are summarised to fit (the prompt says which).
    int promptBudgetChars = 240000;
};

} // namespace dreamrsi
