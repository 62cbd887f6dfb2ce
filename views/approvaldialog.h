#pragma once

#include "store/storetypes.h"

#include <QDialog>
#include <QJsonObject>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace dreamrsi {

class Workspace;

/// What a researcher sees before approving a version for redeployment: the
/// candidate against a baseline (the deployed version, else the best other
/// replayed version), world by world.
struct ApprovalComparison
{
    QString candidate;
    QString baseline;          ///< empty when no other version has a result
    QString baselineRole;      ///< "deployed" or "best other version"
    /// Why the candidate cannot be approved yet; empty when it can.
    QString blocker;
    /// Things to weigh that do not block (different replay parameters, a worse value).
    QStringList warnings;
    /// The table as shown, kept verbatim with the approval (Approval::evidence).
    QJsonObject evidence;
};

/// Asks a researcher to approve a policy version for the next online round:
/// shows the comparison, takes a name and a note, and offers Approve only
/// when the candidate has a clean, scorable replay over every open world.
/// Opened with open() (window-modal, never a nested event loop).
class ApprovalDialog final : public QDialog
{
    Q_OBJECT
public:
    ApprovalDialog(const Workspace &workspace, const QString &candidate, QWidget *parent = nullptr);

    /// Builds the comparison of `candidate` shown by the dialog and the
    /// evidence stored with the approval. Pure: reads the workspace only.
    static ApprovalComparison compare(const Workspace &workspace, const QString &candidate);

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
    PolicyVersionId m_version = 0;
    QTableWidget *m_table = nullptr;
    QLineEdit *m_who = nullptr;
    QPlainTextEdit *m_note = nullptr;
    QPushButton *m_approve = nullptr;
};

} // namespace dreamrsi
