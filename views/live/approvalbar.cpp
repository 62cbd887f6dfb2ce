#include "approvalbar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace dreamrsi {

ApprovalBar::ApprovalBar(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("approvalBar"));
    auto *bar = new QHBoxLayout(this);
    bar->setContentsMargins(0, 0, 0, 0);
    m_text = new QLabel;
    m_text->setObjectName(QStringLiteral("approvalText"));
    m_text->setWordWrap(true);
    auto *review = new QPushButton(tr("Review and &Approve…"));
    review->setObjectName(QStringLiteral("approvalReview"));
    auto *decline = new QPushButton(tr("&Decline"));
    decline->setObjectName(QStringLiteral("approvalDecline"));
    decline->setToolTip(tr("The loop goes on with the deployed version; the proposal stays listed"));
    bar->addWidget(m_text, 1);
    bar->addWidget(review);
    bar->addWidget(decline);
    connect(review, &QPushButton::clicked, this, [this] { emit reviewRequested(m_name); });
    connect(decline, &QPushButton::clicked, this, &ApprovalBar::declineRequested);
    hide();
}

QString ApprovalBar::describe(const ApprovalWait &wait)
{
    const QJsonValue value = wait.proposal.value(QStringLiteral("value"));
    return tr("The loop (pid %1) waits for approval after iteration %2: the dream proposes %3 (mean value %4). "
              "Until you answer, no round runs.")
        .arg(wait.pid)
        .arg(wait.proposal.value(QStringLiteral("index")).toInt())
        .arg(wait.name(), value.isDouble() ? QString::number(value.toDouble(), 'g', 6) : tr("none"));
}

void ApprovalBar::setWait(const std::optional<ApprovalWait> &wait)
{
    if (!wait) {
        hide();
        return;
    }
    m_name = wait->name();
    m_text->setText(describe(*wait));
    show();
}

} // namespace dreamrsi
