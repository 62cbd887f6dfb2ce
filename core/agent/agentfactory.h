#pragma once

#include "agent.h"

#include <memory>

namespace dreamrsi {

/// Names of the discovery-agent kinds: builtin, openai, anthropic, gemini, command.
QStringList discoveryAgentKinds();

/// The discovery agent `config.kind` names, for `task` (a built-in task name
/// or a task folder). A failure names the problem (unknown kind, task the
/// built-in agent does not know, missing command, …).
Result<std::unique_ptr<DiscoveryAgent>> createDiscoveryAgent(const AgentConfig &config, const QString &task);

/// The chat model `config.kind` names (openai, anthropic, gemini, command);
/// used by the policy-development agent. A failure for any other kind.
Result<std::unique_ptr<ChatModel>> createChatModel(const AgentConfig &config);

} // namespace dreamrsi
