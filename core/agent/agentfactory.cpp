#include "agentfactory.h"

// Each kind lives in its own file with one creation function.
#include "builtinagent.h"
#include "chatdiscoveryagent.h"
#include "commandagent.h"
#include "httpchatmodel.h"

namespace dreamrsi {

namespace {

bool isHttpKind(const QString &kind)
{
    return kind == QLatin1String("openai") || kind == QLatin1String("anthropic") || kind == QLatin1String("gemini");
}

QString unknown(const QString &kind)
{
    return QStringLiteral("unknown agent kind '%1' (expected one of: %2)")
        .arg(kind, discoveryAgentKinds().join(QLatin1String(", ")));
}

} // namespace

QStringList discoveryAgentKinds()
{
    return {QStringLiteral("builtin"), QStringLiteral("openai"), QStringLiteral("anthropic"),
            QStringLiteral("gemini"), QStringLiteral("command")};
}

Result<std::unique_ptr<DiscoveryAgent>> createDiscoveryAgent(const AgentConfig &config, const QString &task)
{
    const QString &kind = config.kind;
    if (kind == QLatin1String("builtin"))
        return createBuiltinAgent(config, task);
    if (isHttpKind(kind)) {
        Result<std::unique_ptr<ChatModel>> model = createHttpChatModel(config);
        if (!model)
            return model.failureAs<std::unique_ptr<DiscoveryAgent>>();
        return createChatDiscoveryAgent(std::move(*model.value), config);
    }
    if (kind == QLatin1String("command"))
        return createCommandAgent(config);
    return Result<std::unique_ptr<DiscoveryAgent>>::failure(unknown(kind));
}

Result<std::unique_ptr<ChatModel>> createChatModel(const AgentConfig &config)
{
    const QString &kind = config.kind;
    if (isHttpKind(kind))
        return createHttpChatModel(config);
    if (kind == QLatin1String("command"))
        return createCommandChatModel(config);
    return Result<std::unique_ptr<ChatModel>>::failure(
        kind == QLatin1String("builtin") ? QStringLiteral("the built-in agent writes programs, not chat answers; "
                                                          "for dreaming without a key use the built-in policy improver")
                                         : unknown(kind));
}

} // namespace dreamrsi
