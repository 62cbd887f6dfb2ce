#pragma once

#include "loop/round/roundevents.h"

#include <QWidget>

#include <optional>

class QLabel;

namespace dreamrsi {

/// Says that a loop followed in another process waits for approval of its
/// dream's proposal (`dreamrsi loop --await-approval`, docs/steering.md):
/// the proposal, Review and Approve… (the approval dialog on it) and
/// Decline. Hidden while nothing waits.
class ApprovalBar final : public QWidget
{
    Q_OBJECT
public:
    explicit ApprovalBar(QWidget *parent = nullptr);

    /// Shows `wait`, or hides the bar when nothing waits.
    void setWait(const std::optional<ApprovalWait> &wait);
    /// What the bar says of `wait` (also the log's line).
    static QString describe(const ApprovalWait &wait);

signals:
    /// Review and Approve… of the proposed version `name`.
    void reviewRequested(const QString &name);
    void declineRequested();

private:
    QLabel *m_text = nullptr;
    QString m_name; ///< the version proposed
};

} // namespace dreamrsi
