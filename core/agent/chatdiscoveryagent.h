#pragma once

#include "agent.h"
#include "explorationprompt.h"

#include <memory>

namespace dreamrsi {

/// A discovery agent that asks a chat model (HTTP provider or a command
/// answering on stdout) for the next attempt.
///
/// Promises of propose(): the exploration prompt is built from the context
/// (ExplorationPrompt, Chat mode, within AgentConfig::promptBudgetChars); the
/// answer is split by parseAnswer(): proposal = the text, program = the last
/// fenced code block; no block (or a cut-off or empty one) → a failure whose
/// error says so; a failed or cancelled model call → a failure carrying the
/// model's error and `cancelled`. Usage is the model's. The log records the
/// prompt's size and what was summarised, then the model's own log.
/// Thread-safe when the model is.
class ChatDiscoveryAgent final : public DiscoveryAgent
{
public:
    ChatDiscoveryAgent(std::shared_ptr<ChatModel> model, const AgentConfig &config, ExplorationPrompt prompt);

    QString kind() const override { return m_model->kind(); }
    QString model() const override { return m_model->model(); }
    AgentOutcome propose(const AttemptContext &context, const std::atomic_bool &cancel) override;

private:
    std::shared_ptr<ChatModel> m_model;
    int m_budgetChars = 0;
    int m_maxOutputTokens = 0;
    double m_temperature = 0.0;
    ExplorationPrompt m_prompt;
};

/// The factory entry of agentfactory.cpp. A failure when the model is null
/// or the prompt override cannot be read.
Result<std::unique_ptr<DiscoveryAgent>> createChatDiscoveryAgent(std::shared_ptr<ChatModel> model,
                                                                 const AgentConfig &config);

} // namespace dreamrsi
