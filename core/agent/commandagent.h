#pragma once

#include "agent.h"
#include "explorationprompt.h"

#include <memory>

namespace dreamrsi {

/// A command-line agent (docs/online.md#command-line-agents): a configured command, for example a
/// coding agent in its non-interactive mode, does the attempt in its workspace.
///
/// Promises of propose():
/// - the command (AgentConfig::command, via /bin/sh -c) starts in
///   `context.workspaceDir` (created when missing) through CommandProcess:
///   own process group, killed whole on AgentConfig::timeoutMs or `cancel`;
/// - stdin carries the exploration prompt (Files mode); the same text is in
///   the file $DREAMRSI_PROMPT_FILE (outside the workspace, removed
///   afterwards) for commands that take the prompt as an argument; also set:
///   DREAMRSI_WORKSPACE, DREAMRSI_PROGRAM_FILE, DREAMRSI_PARENT_WORKSPACE,
///   DREAMRSI_BASELINE_DIR, DREAMRSI_ATTEMPT_ID, DREAMRSI_TASK;
/// - the environment is only PATH, HOME, those and AgentConfig::allowedEnvironment;
/// - read back: the program file in the workspace when the command created
///   or changed it, else the last fenced code block of its stdout; the
///   proposal from proposal.md when the command wrote one, else its stdout's
///   text. Files outside the workspace are ignored;
/// - failures name the cause: time limit (group killed), exit code with the
///   end of stderr, start failure, no program left;
/// - values of allowed variables whose names look secret (KEY, TOKEN, …) are
///   blanked in the log, error and proposal.
class CommandAgent final : public DiscoveryAgent
{
public:
    CommandAgent(const AgentConfig &config, ExplorationPrompt prompt);

    QString kind() const override { return QStringLiteral("command"); }
    QString model() const override;
    AgentOutcome propose(const AttemptContext &context, const std::atomic_bool &cancel) override;

private:
    AgentConfig m_config;
    ExplorationPrompt m_prompt;
};

/// The factory entries of agentfactory.cpp. A command `preset:NAME` is that
/// preset's command with its variables added to the allowed environment
/// (commandagentpresets.h). A failure when the command is empty, names no
/// preset, or the prompt override cannot be read.
Result<std::unique_ptr<DiscoveryAgent>> createCommandAgent(const AgentConfig &config);
/// A chat model answering on the command's stdout (see CommandChatModel).
Result<std::unique_ptr<ChatModel>> createCommandChatModel(const AgentConfig &config);

} // namespace dreamrsi
