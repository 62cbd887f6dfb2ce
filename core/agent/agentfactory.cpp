#include "agentfactory.h"

// Each kind is implemented in its own file with one creation function:
//   builtinagent.h        createBuiltinAgent(config, task, error)
//   httpchatmodel.h       createHttpChatModel(config, error)      openai | anthropic | gemini
//   chatdiscoveryagent.h  createChatDiscoveryAgent(model, config, error)
//   commandagent.h        createCommandAgent(config, error), createCommandChatModel(config, error)
#if __has_include("builtinagent.h")
#include "builtinagent.h"
#define DREAMRSI_HAVE_BUILTIN_AGENT 1
#endif
#if __has_include("httpchatmodel.h") && __has_include("chatdiscoveryagent.h")
#include "chatdiscoveryagent.h"
#include "httpchatmodel.h"
#define DREAMRSI_HAVE_HTTP_AGENT 1
#endif
#if __has_include("commandagent.h")
#include "commandagent.h"
#define DREAMRSI_HAVE_COMMAND_AGENT 1
#endif

namespace dreamrsi {

namespace {

bool isHttpKind(const QString &kind)
{
    return kind == QLatin1String("openai") || kind == QLatin1String("anthropic") || kind == QLatin1String("gemini");
}

QString unavailable(const QString &kind)
{
    return QStringLiteral("agent kind '%1' is not available in this build").arg(kind);
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

std::unique_ptr<DiscoveryAgent> createDiscoveryAgent(const AgentConfig &config, const QString &task, QString *error)
{
    const QString &kind = config.kind;
    if (kind == QLatin1String("builtin")) {
#ifdef DREAMRSI_HAVE_BUILTIN_AGENT
        return createBuiltinAgent(config, task, error);
#endif
    } else if (isHttpKind(kind)) {
#ifdef DREAMRSI_HAVE_HTTP_AGENT
        std::shared_ptr<ChatModel> model = createHttpChatModel(config, error);
        if (!model)
            return nullptr;
        return createChatDiscoveryAgent(std::move(model), config, error);
#endif
    } else if (kind == QLatin1String("command")) {
#ifdef DREAMRSI_HAVE_COMMAND_AGENT
        return createCommandAgent(config, error);
#endif
    } else {
        if (error)
            *error = unknown(kind);
        return nullptr;
    }
    Q_UNUSED(task);
    if (error)
        *error = unavailable(kind);
    return nullptr;
}

std::unique_ptr<ChatModel> createChatModel(const AgentConfig &config, QString *error)
{
    const QString &kind = config.kind;
    if (isHttpKind(kind)) {
#ifdef DREAMRSI_HAVE_HTTP_AGENT
        return createHttpChatModel(config, error);
#endif
    } else if (kind == QLatin1String("command")) {
#ifdef DREAMRSI_HAVE_COMMAND_AGENT
        return createCommandChatModel(config, error);
#endif
    } else {
        if (error)
            *error = kind == QLatin1String("builtin")
                         ? QStringLiteral("the built-in agent writes programs, not chat answers; "
                                          "for dreaming without a key use the built-in policy improver")
                         : unknown(kind);
        return nullptr;
    }
    if (error)
        *error = unavailable(kind);
    return nullptr;
}

} // namespace dreamrsi
