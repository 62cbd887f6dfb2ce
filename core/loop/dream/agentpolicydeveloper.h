#pragma once

#include "base/result.h"

#include "policydeveloper.h"

#include <memory>

namespace dreamrsi {

/// The policy-development agent (docs/online.md#dreaming): asks a chat model for the
/// next version. The system text is the project's prompt
/// (resources/prompts/policy_development.md, or the file the user names);
/// the user text lays out version m's code, its replay results per world and
/// β (points, frontier, hypervolume, penalty, value), traces of its worst
/// episodes, the per-direction statistics of the stored worlds
/// (HistoryStats::markdown: calls, successes, best, attainment, gain per call,
/// where gains arrive) and the earlier versions with their values and errors. The new
/// script is the last fenced code block of the answer; an answer without one
/// is a failed step whose error names it.
class AgentPolicyDeveloper final : public PolicyDeveloper
{
public:
    /// `systemPrompt` empty = loadPrompt()'s text.
    explicit AgentPolicyDeveloper(std::shared_ptr<ChatModel> model, QString systemPrompt = {});

    QString kind() const override;
    DevelopmentOutcome develop(const DevelopmentContext &context, const std::atomic_bool &cancel) override;

    /// The user text of one step (public for tests and for showing it).
    static QString userMessage(const DevelopmentContext &context);

    /// Environment variable naming a prompt file that replaces the built-in one.
    static constexpr const char *PromptEnvironmentVariable = "DREAMRSI_POLICY_PROMPT";
    /// The prompt: the file `path` names when it is not empty, else the file
    /// $DREAMRSI_POLICY_PROMPT names, else the built-in text. A failure when
    /// a named file cannot be read or is empty.
    static Result<QString> loadPrompt(const QString &path = {});
    /// The built-in prompt text.
    static QString builtinPrompt();

private:
    std::shared_ptr<ChatModel> m_model;
    QString m_system;
};

} // namespace dreamrsi
