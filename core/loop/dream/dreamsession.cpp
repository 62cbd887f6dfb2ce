#include "dreamsession.h"

#include "agentpolicydeveloper.h"
#include "policyimprover.h"

#include "agent/agentfactory.h"
#include "store/projectstore.h"

namespace dreamrsi {

QStringList DreamOptions::kinds()
{
    return {QStringLiteral("builtin"), QStringLiteral("openai"), QStringLiteral("anthropic"), QStringLiteral("gemini"),
            QStringLiteral("command")};
}

QString DreamOptions::problem() const
{
    if (!kinds().contains(agentKind))
        return QStringLiteral("unknown agent kind '%1' (one of %2)").arg(agentKind, kinds().join(QStringLiteral(", ")));
    if (agentKind == QLatin1String("command") && command.trimmed().isEmpty())
        return QStringLiteral("agent kind command needs a command line");
    return {};
}

Result<std::shared_ptr<PolicyDeveloper>> DreamOptions::createDeveloper() const
{
    using Made = Result<std::shared_ptr<PolicyDeveloper>>;
    if (agentKind == QLatin1String("builtin"))
        return Made::success(std::make_shared<PolicyImprover>());
    const Result<QString> prompt = AgentPolicyDeveloper::loadPrompt(promptPath);
    if (!prompt.ok())
        return prompt.failureAs<std::shared_ptr<PolicyDeveloper>>();
    AgentConfig config;
    config.kind = agentKind;
    config.model = model;
    config.baseUrl = baseUrl;
    config.command = command;
    config.seed = settings.seed;
    Result<std::unique_ptr<ChatModel>> chat = createChatModel(config);
    if (!chat)
        return chat.failureAs<std::shared_ptr<PolicyDeveloper>>();
    return Made::success(
        std::make_shared<AgentPolicyDeveloper>(std::shared_ptr<ChatModel>(std::move(*chat.value)), *prompt.value));
}

Result<PreparedDream> DreamSession::prepare(ProjectStore &store, const DreamOptions &options)
{
    using Prepared = Result<PreparedDream>;
    if (const QString problem = options.problem(); !problem.isEmpty())
        return Prepared::failure(problem);
    PreparedDream p;
    p.settings = options.settings;
    const Result<std::shared_ptr<PolicyDeveloper>> developer = options.createDeveloper();
    if (!developer)
        return Prepared::failure(QStringLiteral("policy developer %1: %2").arg(options.agentKind, developer.error));
    p.developer = *developer.value;
    const StoreResult<QList<DreamWorld>> worlds = Dreamer::finishedWorlds(store, options.includeApproximate, &p.approximateLeftOut);
    if (!worlds.ok())
        return Prepared::failure(worlds.error);
    if (worlds.value->isEmpty())
        return Prepared::failure(QStringLiteral("%1: no finished iteration to dream in (import trees or run a round first)")
                                     .arg(store.path()));
    p.history = *worlds.value;
    return Prepared::success(std::move(p));
}

} // namespace dreamrsi
