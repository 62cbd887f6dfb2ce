#include "chatdiscoveryagent.h"

#include "answerparser.h"

namespace dreamrsi {

ChatDiscoveryAgent::ChatDiscoveryAgent(std::shared_ptr<ChatModel> model, const AgentConfig &config,
                                       ExplorationPrompt prompt)
    : m_model(std::move(model))
    , m_budgetChars(config.promptBudgetChars)
    , m_maxOutputTokens(config.maxOutputTokens)
    , m_temperature(config.temperature)
    , m_prompt(std::move(prompt))
{
}

AgentOutcome ChatDiscoveryAgent::propose(const AttemptContext &context, const std::atomic_bool &cancel)
{
    ExplorationPrompt::History history;
    ChatRequest request = m_prompt.build(context, ExplorationPrompt::Mode::Chat, m_budgetChars, &history);
    request.maxOutputTokens = m_maxOutputTokens;
    request.temperature = m_temperature;
    QString log = QStringLiteral("attempt %1 (iteration %2), %3 agent, model %4\n"
                                 "prompt: %5 characters (system %6, user %7) from the %8 template; history: %9 "
                                 "attempts, %10 in full, %11 summarised, %12 counted\n")
                      .arg(context.cellId)
                      .arg(context.iteration)
                      .arg(m_model->kind(), m_model->model())
                      .arg(request.system.size() + request.user.size())
                      .arg(request.system.size())
                      .arg(request.user.size())
                      .arg(m_prompt.source())
                      .arg(context.history.size())
                      .arg(history.full)
                      .arg(history.summarised)
                      .arg(history.counted);
    const ChatResponse response = m_model->complete(request, cancel);
    log += response.log;
    if (!response.ok) {
        AgentOutcome outcome = AgentOutcome::failure(response.error, response.usage, log);
        outcome.cancelled = response.cancelled;
        return outcome;
    }
    const ParsedAnswer answer = parseAnswer(response.text);
    if (!answer.ok) {
        log += QStringLiteral("no program: %1\n").arg(answer.error);
        AgentOutcome outcome = AgentOutcome::failure(answer.error, response.usage, log);
        outcome.proposal = answer.proposal;
        return outcome;
    }
    log += QStringLiteral("program: %1 characters from the last fenced block%2; proposal: %3 characters\n")
               .arg(answer.program.size())
               .arg(answer.language.isEmpty() ? QString() : QStringLiteral(" (") + answer.language + u')')
               .arg(answer.proposal.size());
    AgentOutcome outcome;
    outcome.ok = true;
    outcome.proposal = answer.proposal;
    outcome.program = answer.program;
    outcome.log = log;
    outcome.usage = response.usage;
    return outcome;
}

Result<std::unique_ptr<DiscoveryAgent>> createChatDiscoveryAgent(std::shared_ptr<ChatModel> model,
                                                                 const AgentConfig &config)
{
    using Made = Result<std::unique_ptr<DiscoveryAgent>>;
    if (!model)
        return Made::failure(QStringLiteral("no chat model for the discovery agent"));
    Result<ExplorationPrompt> prompt = ExplorationPrompt::load(config);
    if (!prompt.ok())
        return prompt.failureAs<std::unique_ptr<DiscoveryAgent>>();
    return Made::success(std::make_unique<ChatDiscoveryAgent>(std::move(model), config, std::move(*prompt.value)));
}

} // namespace dreamrsi
