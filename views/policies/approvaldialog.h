#pragma once

#include "project/approvalcomparison.h"
#include "store/storetypes.h"

#include <QDialog>
#include <QJsonObject>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace dreamrsi {

class Preferences;
class Workspace;
struct ProposalCheck;

/// Asks a researcher to approve a policy version for the next online round:
/// shows the comparison, takes a name and a note, and offers Approve only
/// when the candidate has a clean, scorable replay over every open world.
/// Opened with open() (window-modal, never a nested event loop).
class ApprovalDialog final : public QDialog
{
    Q_OBJECT
public:
    /// "Approved by" starts as `preferences`' person (AppSettings::personName;
    /// the login name without preferences).
    ApprovalDialog(const Workspace &workspace, const QString &candidate, const Preferences *preferences,
                   QWidget *parent = nullptr);

    /// What approval is judged on in the workspace: its open worlds, its
    /// versions (stored = with a project id) and their results, the deployed one.
    static ApprovalInputs inputsOf(const Workspace &workspace);
    /// ApprovalRules::compare over inputsOf(): the comparison the dialog
    /// shows and the evidence stored with the approval (the same rules as
    /// `dreamrsi approve`). Pure: reads the workspace only.
    static ApprovalComparison compare(const Workspace &workspace, const QString &candidate);
    /// The blocker and the warnings of a comparison in the user's language.
    static QString blockerText(const ApprovalComparison &comparison);
    static QString warningText(const ApprovalComparison &comparison, ApprovalWarning warning);
    /// "imagined completions" or "revealed history".
    static QString valuationName(Valuation valuation);
    /// The valuation the values are under and both versions' values under
    /// each valuation (rich text); empty when the comparison has no other valuation.
    static QString valuationText(const ApprovalComparison &comparison);
    /// A dream's noise check in words (docs/online.md#a-proposal-must-beat-the-noise):
    /// "v6 leads v2 by 0.0001; noise 0.0006 (how far v2 moved between two
    /// completion seeds); lead under the second seed -0.0002 → inside the
    /// noise, not proposed"; numbers to 3 significant digits. Empty when the
    /// check did not run.
    static QString proposalCheckText(const ProposalCheck &check);

    /// Shows a dream's noise check of the candidate (when it is the version
    /// the check was about and the check ran; otherwise nothing is shown).
    void setProposalCheck(const ProposalCheck &check);
    /// The noise check line; hidden unless setProposalCheck() showed one.
    QLabel *proposalCheckLabel() const { return m_check; }

    const ApprovalComparison &comparison() const { return m_comparison; }
    /// The approval to store (version id, who, note, evidence; `when` now, UTC).
    Approval approval() const;
    QLineEdit *whoEdit() const { return m_who; }
    QPlainTextEdit *noteEdit() const { return m_note; }
    QPushButton *approveButton() const { return m_approve; }
    QTableWidget *table() const { return m_table; }

private:
    void fillTable();

    ApprovalComparison m_comparison;
    QTableWidget *m_table = nullptr;
    QLabel *m_check = nullptr;
    QLineEdit *m_who = nullptr;
    QPlainTextEdit *m_note = nullptr;
    QPushButton *m_approve = nullptr;
};

} // namespace dreamrsi
