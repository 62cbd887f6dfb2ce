#pragma once

#include "base/result.h"

#include "agent.h"

#include <optional>

namespace dreamrsi {

/// The exploration prompt of docs/online.md#prompts: the project's own text (the
/// bundled :/prompts/exploration.md, or a user's file), filled in from an
/// attempt's context.
///
/// Template: Markdown with {{placeholders}} (task, task_statement,
/// attempt_id, iteration, branch, attempt, program_file, baseline_score,
/// files, direction, output_instructions, history_note, history, parent).
/// A line `<!-- user -->` splits it: the part above is the system text, the
/// part below the user text (no such line: everything is the user text).
/// Placeholders are replaced in one pass over the template, so text from the
/// history is never itself treated as a template; unknown ones stay as written.
///
/// Budget: the whole prompt aims at `budgetChars`. Long histories keep their
/// newest attempts in full (result, error, proposal), summarise older ones
/// in one line each (id, score or failure class, first line of the
/// proposal), and only count the oldest when even those lines do not fit;
/// `{{history_note}}` says which attempts were treated how.
class ExplorationPrompt
{
public:
    /// How the agent hands back its work.
    enum class Mode {
        Chat,  ///< answers with a proposal and the program as the last fenced block
        Files, ///< writes proposal.md and the program file in its workspace
    };

    /// How a history was fitted into its budget.
    struct History
    {
        QString text;
        QString note;       ///< what was summarised, said in the prompt
        int full = 0;       ///< newest attempts shown in full
        int summarised = 0; ///< attempts shown as one line
        int counted = 0;    ///< oldest attempts only counted
    };

    explicit ExplorationPrompt(QString templateText);

    /// The bundled template.
    static QString bundledTemplate();
    /// The template `config.promptFile` names, else $DREAMRSI_EXPLORATION_PROMPT,
    /// else the bundled one. A failure naming an override file
    /// that cannot be read or is empty.
    static Result<ExplorationPrompt> load(const AgentConfig &config);

    QString templateText() const { return m_template; }
    /// Where the template came from ("bundled" or the file's path).
    QString source() const { return m_source; }

    /// The prompt for `context`; `historyOut` (optional) receives how the history was fitted.
    ChatRequest build(const AttemptContext &context, Mode mode, int budgetChars, History *historyOut = nullptr) const;
    /// The system and user texts of build() as one text (for stdin).
    static QString joined(const ChatRequest &request);

    /// The history (oldest first) fitted into `budgetChars`.
    static History renderHistory(const QList<AttemptRecord> &history, int budgetChars);

private:
    QString m_template;
    QString m_source = QStringLiteral("bundled");
};

} // namespace dreamrsi
