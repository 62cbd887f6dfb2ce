#pragma once

#include "session/preferences.h"

#include "loop/dream/dreamer.h"
#include "store/storetypes.h"

#include <QDialog>
#include <QPointer>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;

namespace dreamrsi {

class DreamController;
class ProjectStore;
class Workspace;

/// The Dreaming view (docs/online.md#dreaming): runs a dream over the open project's
/// worlds on a worker thread — M versions, written by the built-in improver
/// or a policy-development agent, each replayed in the sandboxed child —
/// and shows the versions' values as they arrive, every candidate the
/// developer replayed for a version (its parent, the tunables it changed, its
/// value, whether it repeated a behaviour: docs/online.md#dreams-you-can-read),
/// the diff of each version against its parent, progress and Cancel. When the
/// dream ends, a line under the versions says its answer (the proposal, or
/// nothing better than the deployed version) and the noise check behind it.
/// The proposal (best mean value, when its lead beats the noise) opens in the
/// approval dialog with that check; an approval is handed on through
/// approvalRequested(), after which Review Proposal… no longer offers it.
/// Versions and results go into the workspace as they arrive (the dreamer
/// stores them in the project itself).
class DreamingDialog final : public QDialog
{
    Q_OBJECT
public:
    /// A dream starts under `preferences`' script limits and approximate
    /// worlds as they are when it starts (the defaults without preferences).
    DreamingDialog(Workspace &workspace, ProjectStore *store, const Preferences *preferences, QWidget *parent = nullptr);
    ~DreamingDialog() override;

    bool isRunning() const { return m_running; }
    QSpinBox *versionsBox() const { return m_versions; }
    QSpinBox *seedBox() const { return m_seed; }
    QCheckBox *floorBox() const { return m_floor; }
    /// The floor check in words (empty when it did not run).
    static QString floorCheckText(const FloorCheck &floor);
    QComboBox *agentBox() const { return m_agent; }
    QPushButton *startButton() const { return m_start; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *reviewButton() const { return m_review; }
    QTableWidget *table() const { return m_table; }
    QLabel *valuationLabel() const { return m_valuation; }
    /// Under the versions table once a dream ended: the answer (the proposal,
    /// or nothing better than the deployed version) and why: the leading
    /// candidate's lead, the noise and the verdict of the noise check
    /// (docs/online.md#a-proposal-must-beat-the-noise). Hidden before.
    QLabel *proposalCheckLabel() const { return m_check; }
    /// The candidates of the selected version, or of every version when
    /// allCandidatesBox() is checked or none is selected.
    QTableWidget *candidateTable() const { return m_candidates; }
    /// "N candidates, D distinct behaviours (P %)" of what candidateTable() lists.
    QLabel *candidateSummary() const { return m_candidateSummary; }
    QCheckBox *allCandidatesBox() const { return m_allCandidates; }
    const DreamReport &report() const { return m_report; }

public slots:
    /// Starts a dream with the dialog's choices; false (with the reason in
    /// the log) when there is no project, no world or no agent.
    bool start();
    void cancel();
    /// Opens the approval dialog for the proposal (or the selected version).
    void review();
    /// Shows a finished dream's report as if the dialog had just run it: its
    /// versions arrive in the table, then the dream ends (dreamFinished()).
    /// For tests and tours; ignored while a dream runs.
    void showReport(const dreamrsi::DreamReport &report);

signals:
    void approvalRequested(const dreamrsi::Approval &approval);
    /// The dream ended (finished, cancelled or failed).
    void dreamFinished();
    /// The versions' values under the other valuation were read back from
    /// the project (after a dream) into the workspace.
    void otherValuationLoaded();

private:
    /// answerText() without the floor check's sentence.
    static QString answerWithoutFloor(const DreamReport &report, const DreamVersion *proposal);
    /// Forgets the shown dream: its report, approvals, rows, check line and detail.
    void clearDream();
    void onVersion(const DreamVersion &version);
    void onFinished(const DreamReport &report);
    void showSelected();
    void showCandidates();
    void log(const QString &line);
    /// A line of the running dream's log, under its heading (indented).
    void logInDream(const QString &line);
    /// Heads the log's lines of a dream (docs/online.md#valuation): its
    /// number, seed and completions, and when an earlier dream in the log
    /// drew its completions with another seed, that their values are not
    /// comparable.
    void logDreamHeading(const ReplayConfig &config, quint64 seed);
    /// "dream 2, seed 7, C = 8": what a value in the log is of.
    QString dreamTag() const;
    void updateButtons();
    void reloadOtherValuation();
    /// What the dream values a version over, in the user's words.
    static QString valuationText(const ReplayConfig &config, std::optional<quint64> seed = std::nullopt);
    /// The answer of a finished dream and its noise check (rich text); empty when no version scored.
    static QString answerText(const DreamReport &report);
    /// The version Review Proposal… would open: the selected one, else the
    /// proposal (the deployed version when nothing was better); null when none.
    const DreamVersion *reviewTarget() const;

    Workspace &m_workspace;
    ProjectStore *m_store;
    QPointer<const Preferences> m_preferences;
    DreamController *m_dream = nullptr;
    DreamReport m_report;
    QList<DreamVersion> m_arrived;
    bool m_running = false;
    QString m_approved;              ///< the version approved from this dialog since the dream ended
    /// The dreams the log holds, in order: what their values were drawn with.
    struct LoggedDream
    {
        int number = 0;
        quint64 seed = 0;
        int completions = 0;
        bool imagined = false;
    };
    QList<LoggedDream> m_loggedDreams;

    QSpinBox *m_versions = nullptr;
    QComboBox *m_agent = nullptr;
    QLineEdit *m_model = nullptr;
    QLineEdit *m_baseUrl = nullptr;
    QLineEdit *m_command = nullptr;
    QSpinBox *m_seed = nullptr;
    QCheckBox *m_floor = nullptr;   ///< DreamSettings::floorCheck
    QLabel *m_grid = nullptr;
    QLabel *m_valuation = nullptr;
    QProgressBar *m_progress = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_check = nullptr;
    QTabWidget *m_detailTabs = nullptr;
    QLabel *m_candidateSummary = nullptr;
    QCheckBox *m_allCandidates = nullptr;
    QTableWidget *m_candidates = nullptr;
    QPlainTextEdit *m_detail = nullptr;
    QPlainTextEdit *m_log = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_review = nullptr;
};

} // namespace dreamrsi
