#include "commandagentpresets.h"

#include <QRegularExpression>

#include <algorithm>

namespace dreamrsi {

QList<CommandAgentPreset> commandAgentPresets()
{
    // Every preset reads the prompt on stdin (an argument is limited to
    // 128 KiB on Linux, and a long history is larger) and keeps its key and
    // its base-URL variable: with the base URL set, the tool talks to that
    // server instead of its vendor's (a local model server, or a test's
    // stand-in).
    return {
        {QStringLiteral("claude-code"),
         QStringLiteral("Claude Code in print mode: reads the prompt on stdin, may edit files in the workspace"),
         QStringLiteral("claude -p --permission-mode acceptEdits --output-format text"),
         {QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("ANTHROPIC_BASE_URL"), QStringLiteral("DISABLE_TELEMETRY=1"),
          QStringLiteral("DISABLE_AUTOUPDATER=1"), QStringLiteral("DISABLE_ERROR_REPORTING=1"),
          QStringLiteral("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")},
         QStringLiteral("@anthropic-ai/claude-code@2.1.332")},
        // Codex dropped --full-auto; workspace-write is its sandbox for an
        // agent that edits only its folder (exec never asks for approval).
        // Its built-in provider ignores OPENAI_BASE_URL and first tries a
        // WebSocket, so a set OPENAI_BASE_URL selects a provider of its own
        // (plain HTTPS Responses API, the key from OPENAI_API_KEY).
        {QStringLiteral("codex"),
         QStringLiteral("OpenAI Codex CLI, non-interactive: prompt from stdin, writes in the workspace only"),
         QStringLiteral("codex exec --sandbox workspace-write --skip-git-repo-check --ephemeral --color never "
                        "-c check_for_update_on_startup=false -c analytics.enabled=false "
                        "${OPENAI_BASE_URL:+-c model_provider=dreamrsi -c \"model_providers.dreamrsi={name=\\\"OpenAI-compatible\\\", "
                        "base_url=\\\"$OPENAI_BASE_URL\\\", env_key=\\\"OPENAI_API_KEY\\\", wire_api=\\\"responses\\\", "
                        "supports_websockets=false}\"} -"),
         {QStringLiteral("OPENAI_API_KEY"), QStringLiteral("OPENAI_BASE_URL"), QStringLiteral("CODEX_HOME")},
         QStringLiteral("@openai/codex@0.169.0")},
        // -p text is appended to what comes on stdin; --skip-trust keeps a
        // new workspace from turning --yolo back into asking.
        {QStringLiteral("gemini-cli"),
         QStringLiteral("Gemini CLI, headless: the prompt on stdin, edits approved automatically"),
         QStringLiteral("gemini --skip-trust --yolo -p \"Do the task above in this folder.\""),
         {QStringLiteral("GEMINI_API_KEY"), QStringLiteral("GOOGLE_GEMINI_BASE_URL"), QStringLiteral("GEMINI_TELEMETRY_ENABLED=false"),
          QStringLiteral("GEMINI_CLI_NO_RELAUNCH=1")},
         QStringLiteral("@google/gemini-cli@0.61.0")},
        {QStringLiteral("aider"),
         QStringLiteral("aider, one message from the prompt file, editing the program file"),
         QStringLiteral("aider --yes-always --no-git --no-auto-commits --no-check-update --no-show-release-notes "
                        "--no-analytics --message-file \"$DREAMRSI_PROMPT_FILE\" \"$DREAMRSI_PROGRAM_FILE\" proposal.md"),
         {QStringLiteral("OPENAI_API_KEY"), QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("OPENAI_API_BASE")},
         QString()},
    };
}

CommandAgentPreset commandAgentPreset(const QString &name)
{
    const QList<CommandAgentPreset> presets = commandAgentPresets();
    for (const CommandAgentPreset &preset : presets)
        if (preset.name == name)
            return preset;
    return {};
}

Result<AgentConfig> resolveCommandPreset(AgentConfig config)
{
    const QString text = config.command.trimmed();
    if (!text.startsWith(QLatin1String(commandPresetPrefix)))
        return Result<AgentConfig>::success(std::move(config));
    const QString name = text.mid(qsizetype(sizeof(commandPresetPrefix)) - 1).trimmed();
    const CommandAgentPreset preset = commandAgentPreset(name);
    if (preset.name.isEmpty()) {
        QStringList known;
        for (const CommandAgentPreset &p : commandAgentPresets())
            known << QLatin1String(commandPresetPrefix) + p.name;
        return Result<AgentConfig>::failure(
            QStringLiteral("unknown command preset '%1' (known: %2)").arg(name, known.join(QStringLiteral(", "))));
    }
    config.command = preset.command;
    QStringList &allowed = config.allowedEnvironment;
    for (const QString &entry : preset.allowedEnvironment) {
        const QString entryName = entry.section(u'=', 0, 0);
        const bool given = std::any_of(allowed.cbegin(), allowed.cend(),
                                       [&](const QString &e) { return e.section(u'=', 0, 0) == entryName; });
        if (!given)
            allowed.append(entry);
    }
    return Result<AgentConfig>::success(std::move(config));
}

Result<QStringList> parseAllowedEnvironment(const QString &text, bool namesOnly)
{
    static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    QStringList out;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString entry = part.trimmed();
        if (entry.isEmpty())
            continue;
        const qsizetype eq = entry.indexOf(QLatin1Char('='));
        if (!name.match(eq < 0 ? entry : entry.left(eq)).hasMatch() || (namesOnly && eq >= 0))
            return Result<QStringList>::failure(
                namesOnly ? QStringLiteral("'%1' is not a variable name").arg(entry)
                          : QStringLiteral("'%1' is not a variable name (NAME or NAME=VALUE)").arg(entry));
        out.append(entry);
    }
    return Result<QStringList>::success(out);
}

} // namespace dreamrsi
