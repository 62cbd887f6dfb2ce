#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace dreamrsi {

/// A ready-made configuration for a common coding agent's non-interactive
/// mode, to start from (flags change between versions: check yours).
struct CommandAgentPreset
{
    QString name;                   ///< "claude-code", "codex", "gemini-cli", "aider"
    QString description;
    QString command;                ///< for AgentConfig::command (the prompt comes on stdin / $DREAMRSI_PROMPT_FILE)
    QStringList allowedEnvironment; ///< variables the agent needs (its key)
};

QList<CommandAgentPreset> commandAgentPresets();
/// The preset called `name`; an empty preset (no name) when there is none.
CommandAgentPreset commandAgentPreset(const QString &name);

} // namespace dreamrsi
