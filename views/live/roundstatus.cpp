#include "roundstatus.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

#include <algorithm>
#include <limits>

namespace dreamrsi {

RoundStatus::RoundStatus(QAction *stop, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("roundStatus"));
    m_caption = new QLabel;
    m_caption->setObjectName(QStringLiteral("roundStatusCaption"));
    m_bar = new QProgressBar;
    m_bar->setObjectName(QStringLiteral("roundProgress"));
    m_bar->setMaximumWidth(140);
    m_bar->setMaximumHeight(14);
    // The number beside the bar, not on it: drawn on the bar, its fill covered it.
    m_bar->setTextVisible(false);
    m_text = new QLabel;
    m_text->setObjectName(QStringLiteral("roundProgressText"));
    m_cancel = new QToolButton;
    m_cancel->setObjectName(QStringLiteral("roundCancel"));
    m_cancel->setDefaultAction(stop);
    m_cancel->setToolButtonStyle(Qt::ToolButtonIconOnly);
    m_cancel->setAutoRaise(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_caption);
    layout->addWidget(m_bar);
    layout->addWidget(m_text);
    layout->addWidget(m_cancel);
    setProgress(0, 0);
}

void RoundStatus::setProgress(qint64 done, qint64 planned)
{
    if (planned <= 0) {
        m_bar->setRange(0, 0); // busy
        m_bar->setFormat(tr("%n attempt(s)", nullptr, int(done)));
        m_bar->setToolTip(tr("Attempts finished; how many the round will run is not known yet"));
        m_text->setText(m_bar->format());
        m_text->setToolTip(m_bar->toolTip());
        return;
    }
    // Probe calls a followed round made, or an auto budget not known here,
    // may run past the plan: the count never reads "15 of 12".
    planned = std::max(planned, done);
    const int total = int(std::min<qint64>(planned, std::numeric_limits<int>::max()));
    m_bar->setRange(0, total);
    m_bar->setValue(int(std::clamp<qint64>(done, 0, total)));
    m_bar->setFormat(tr("%1 of %2 attempts").arg(done).arg(planned));
    m_bar->setToolTip(tr("Attempts finished against the most the round can run (its grid, round limit and call budget)"));
    m_text->setText(m_bar->format());
    m_text->setToolTip(m_bar->toolTip());
}

void RoundStatus::setCaption(const QString &text)
{
    m_caption->setText(text);
}

} // namespace dreamrsi
