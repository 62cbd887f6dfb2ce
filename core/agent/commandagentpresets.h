#pragma once

#include "agent.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace dreamrsi {

/// A ready-made configuration for a common coding agent's non-interactive
/// mode. Flags change between releases: `checkedWith` names the release the
/// command was tried with (tests/install-agent-tools.sh installs exactly
/// those, tst_agent_presets runs them).
struct CommandAgentPreset
{
    QString name;                   ///< "claude-code", "codex", "gemini-cli", "aider"
    QString description;
    QString command;                ///< for AgentConfig::command (the prompt comes on stdin / $DREAMRSI_PROMPT_FILE)
    /// What the agent's environment may carry (AgentConfig::allowedEnvironment):
    /// its key, the variable that points it at another server, and fixed
    /// NAME=VALUE settings that keep it from phoning home (telemetry,
    /// update checks).
    QStringList allowedEnvironment;
    QString checkedWith;            ///< "npm-package@version" it was run with; empty when it could not be installed here
};

QList<CommandAgentPreset> commandAgentPresets();
/// The preset called `name`; an empty preset (no name) when there is none.
CommandAgentPreset commandAgentPreset(const QString &name);

/// A command written `preset:NAME` (the command agent's way to use a
/// preset from the command line or the launch dialog) names a preset.
inline constexpr char commandPresetPrefix[] = "preset:";
/// `config` with `preset:NAME` in its command resolved: the preset's command
/// replaces it and the preset's variables are added to the allowed
/// environment (those already there stay). Any other command is left alone.
/// A failure naming the known presets for an unknown name.
Result<AgentConfig> resolveCommandPreset(AgentConfig config);

/// The variables a user lets into a command agent's environment, as
/// `--allow-env` and Launch Round take them: comma-separated NAME (copied
/// from this process when set) or, unless `namesOnly`, NAME=VALUE. A failure
/// naming the first entry that is not one.
Result<QStringList> parseAllowedEnvironment(const QString &text, bool namesOnly = false);

} // namespace dreamrsi
