#pragma once

#include "session/appsettings.h"

#include "loop/dream/dreamer.h"
#include "store/storetypes.h"

#include <QDialog>

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

class ProjectStore;
class Workspace;

/// The Dreaming view (docs/online.md#dreaming): runs a dream over the open project's
/// worlds on a worker thread — M versions, written by the built-in improver
/// or a policy-development agent, each replayed in the sandboxed child —
/// and shows the versions' values as they arrive, every candidate the
/// developer replayed for a version (its parent, the tunables it changed, its
/// value, whether it repeated a behaviour: docs/online.md#dreams-you-can-read),
/// the diff of each version against its parent, progress and Cancel. The proposal (best mean value)
/// opens in the approval dialog; an approval is handed on through
/// approvalRequested(). Versions and results go into the workspace as they
/// arrive (the dreamer stores them in the project itself).
class DreamingDialog final : public QDialog
{
    Q_OBJECT
public:
    DreamingDialog(Workspace &workspace, ProjectStore *store, const AppSettings &settings, QWidget *parent = nullptr);
    ~DreamingDialog() override;

    bool isRunning() const { return m_running; }
    QSpinBox *versionsBox() const { return m_versions; }
    QComboBox *agentBox() const { return m_agent; }
    QPushButton *startButton() const { return m_start; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *reviewButton() const { return m_review; }
    QTableWidget *table() const { return m_table; }
    QLabel *valuationLabel() const { return m_valuation; }
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

signals:
    void approvalRequested(const dreamrsi::Approval &approval);
    /// The dream ended (finished, cancelled or failed).
    void dreamFinished();
    /// The versions' values under the other valuation were read back from
    /// the project (after a dream) into the workspace.
    void otherValuationLoaded();

private:
    void onVersion(const DreamVersion &version);
    void onFinished(const DreamReport &report);
    void showSelected();
    void showCandidates();
    void log(const QString &line);
    void updateButtons();
    void reloadOtherValuation();
    /// What the dream values a version over, in the user's words.
    static QString valuationText(const ReplayConfig &config, std::optional<quint64> seed = std::nullopt);

    Workspace &m_workspace;
    ProjectStore *m_store;
    AppSettings m_settings;
    std::shared_ptr<Dreamer> m_dreamer;
    DreamReport m_report;
    QList<DreamVersion> m_arrived;
    bool m_running = false;

    QSpinBox *m_versions = nullptr;
    QComboBox *m_agent = nullptr;
    QLineEdit *m_model = nullptr;
    QLineEdit *m_baseUrl = nullptr;
    QSpinBox *m_seed = nullptr;
    QLabel *m_grid = nullptr;
    QLabel *m_valuation = nullptr;
    QProgressBar *m_progress = nullptr;
    QTableWidget *m_table = nullptr;
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
