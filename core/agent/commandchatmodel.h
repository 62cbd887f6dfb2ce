#pragma once

#include "agent.h"

namespace dreamrsi {

/// A chat model played by a command: the request (system and user text) on
/// stdin, the answer on stdout. Runs in a temporary directory of its own,
/// under AgentConfig::timeoutMs, with the environment CommandProcess allows.
/// A non-zero exit, a time limit or an empty answer is an error saying so.
class CommandChatModel final : public ChatModel
{
public:
    explicit CommandChatModel(const AgentConfig &config);

    QString kind() const override { return QStringLiteral("command"); }
    QString model() const override;
    ChatResponse complete(const ChatRequest &request, const std::atomic_bool &cancel) override;

private:
    AgentConfig m_config;
};

} // namespace dreamrsi
