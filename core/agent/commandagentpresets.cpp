#include "commandagentpresets.h"

namespace dreamrsi {

QList<CommandAgentPreset> commandAgentPresets()
{
    return {
        {QStringLiteral("claude-code"),
         QStringLiteral("Claude Code in print mode: reads the prompt on stdin, may edit files in the workspace"),
         QStringLiteral("claude -p --permission-mode acceptEdits --output-format text"),
         {QStringLiteral("ANTHROPIC_API_KEY")}},
        {QStringLiteral("codex"),
         QStringLiteral("OpenAI Codex CLI, non-interactive: prompt from stdin, writes in the workspace only"),
         QStringLiteral("codex exec --full-auto --skip-git-repo-check -"),
         {QStringLiteral("OPENAI_API_KEY")}},
        {QStringLiteral("gemini-cli"),
         QStringLiteral("Gemini CLI with the prompt as an argument, edits approved automatically"),
         QStringLiteral("gemini --yolo -p \"$(cat \"$DREAMRSI_PROMPT_FILE\")\""),
         {QStringLiteral("GEMINI_API_KEY")}},
        {QStringLiteral("aider"),
         QStringLiteral("aider, one message from the prompt file, editing the program file"),
         QStringLiteral("aider --yes-always --no-git --no-auto-commits --message-file \"$DREAMRSI_PROMPT_FILE\" "
                        "\"$DREAMRSI_PROGRAM_FILE\" proposal.md"),
         {QStringLiteral("OPENAI_API_KEY"), QStringLiteral("ANTHROPIC_API_KEY")}},
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

} // namespace dreamrsi
