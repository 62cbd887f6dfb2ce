#pragma once

#include "session/preferences.h"
#include "store/storetypes.h"

#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;
class QTabWidget;

namespace dreamrsi {

class ApprovalDialog;
class CodeHighlighter;
class PolicyTableModel;
class SweepRunner;
class Workspace;

/// The Policies tab: every version with its value, hypervolume and penalty
/// per world; the selected version's code in an editor; a diff against any
/// other version beside a table of its tunables against its parent's;
/// "replay this version" with progress and cancel; and
/// approval of a replayed version for redeployment.
/// Saving an edit always creates a new version: nothing is overwritten.
class PoliciesPage final : public QWidget
{
    Q_OBJECT
public:
    PoliciesPage(Workspace *workspace, SweepRunner *runner, QWidget *parent = nullptr);
    /// Whose name Approve… starts with (ApprovalDialog).
    void setPreferences(const Preferences *preferences) { m_preferences = preferences; }

    PolicyTableModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QPlainTextEdit *editor() const { return m_editor; }
    /// The selected version's tunables (as the editor has them) against its
    /// parent's (while edited: against the stored version, the parent a save
    /// would give it): name, parent's value, this value, range; changed rows
    /// in bold on a highlight.
    QTableWidget *tunablesTable() const { return m_tunables; }
    QLabel *tunablesLabel() const { return m_tunablesLabel; }
    QString selectedVersion() const;
    void selectVersion(const QString &name);
    /// Stores the editor's text as a new version derived from the selected one; returns its name.
    QString saveAsNewVersion();
    void replaySelected();
    /// Opens (window-modal, not blocking) the approval dialog for the selected
    /// version; approving emits approvalRequested(). Returns the dialog, or null.
    ApprovalDialog *approveSelected();
    void setDark(bool dark);
    QPushButton *replayButton() const { return m_replay; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *approveButton() const { return m_approve; }
    QProgressBar *progressBar() const { return m_progress; }

signals:
    void versionCreated(const dreamrsi::PolicyVersion &version);
    /// A researcher approved a version for the next online round (not stored yet).
    void approvalRequested(const dreamrsi::Approval &approval);

private:
    void showSelected();
    void updateDiff();
    void updateTunables();
    void updateButtons();
    /// The replay configuration the table's values are under, and the results kept apart.
    void updateConfigLabel();

    Workspace *m_workspace;
    SweepRunner *m_runner;
    QPointer<const Preferences> m_preferences;
    PolicyTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    QTabWidget *m_tabs = nullptr;
    QPlainTextEdit *m_editor = nullptr;
    QPlainTextEdit *m_diff = nullptr;
    QComboBox *m_diffAgainst = nullptr;
    QTableWidget *m_tunables = nullptr;
    QLabel *m_tunablesLabel = nullptr;
    CodeHighlighter *m_codeHighlighter = nullptr;
    CodeHighlighter *m_diffHighlighter = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_revert = nullptr;
    QPushButton *m_replay = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_approve = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_configLabel = nullptr;
    QLabel *m_status = nullptr;
    QString m_shown;
};

} // namespace dreamrsi
