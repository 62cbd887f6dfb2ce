#include "manualbatchbar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

namespace dreamrsi {

namespace {
/// Where an item keeps its cell id, its pick order and its branch.
constexpr int IdRole = Qt::UserRole;
constexpr int PickRole = Qt::UserRole + 1;
constexpr int BranchRole = Qt::UserRole + 2;
} // namespace

ManualBatchBar::ManualBatchBar(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("manualBar"));
    auto *bar = new QHBoxLayout(this);
    bar->setContentsMargins(0, 0, 0, 0);
    m_prompt = new QLabel;
    m_prompt->setObjectName(QStringLiteral("manualPrompt"));
    m_prompt->setWordWrap(true);
    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("manualLegal"));
    m_list->setFlow(QListView::LeftToRight);
    m_list->setWrapping(true);
    m_list->setResizeMode(QListView::Adjust);
    m_list->setMaximumHeight(m_list->fontMetrics().height() * 4 + 12);
    m_list->setToolTip(tr("The cells legal now: tick up to W of them, or click branches in the list or the tree"));
    m_run = new QPushButton(tr("&Run Batch"));
    m_run->setObjectName(QStringLiteral("manualRun"));
    auto *left = new QVBoxLayout;
    left->addWidget(m_prompt);
    left->addWidget(m_list);
    bar->addLayout(left, 1);
    bar->addWidget(m_run, 0, Qt::AlignBottom);
    connect(m_run, &QPushButton::clicked, this, [this] { emit batchChosen(picks()); });
    connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        if (item->checkState() == Qt::Checked && picks().size() > m_workers) {
            const QSignalBlocker block(m_list);
            item->setCheckState(Qt::Unchecked);
            emit message(tr("At most %n cell(s) per batch (W)", nullptr, m_workers));
            return;
        }
        if (item->checkState() == Qt::Checked) {
            const QSignalBlocker block(m_list); // the pick order is not a change to answer
            item->setData(PickRole, ++m_pickCounter);
        }
        updatePrompt();
    });
    hide();
}

void ManualBatchBar::offer(int round, const QStringList &legal, int workers)
{
    m_round = round;
    m_workers = workers;
    const QSignalBlocker block(m_list);
    m_list->clear();
    static const QRegularExpression idPattern(QStringLiteral("^b(\\d+)a(\\d+)$"));
    for (const QString &id : legal) {
        const QRegularExpressionMatch m = idPattern.match(id);
        const int branch = m.hasMatch() ? m.captured(1).toInt() : -1;
        const int attempt = m.hasMatch() ? m.captured(2).toInt() : -1;
        const QString what = attempt == 0 ? tr("%1 · open branch b%2").arg(id).arg(branch)
                                          : tr("%1 · refine b%2 (attempt %3)").arg(id).arg(branch).arg(attempt);
        auto *item = new QListWidgetItem(what, m_list);
        item->setData(IdRole, id);
        item->setData(BranchRole, branch);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    show();
    updatePrompt();
}

QStringList ManualBatchBar::picks() const
{
    QList<QListWidgetItem *> picked;
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->checkState() == Qt::Checked)
            picked.append(m_list->item(i));
    }
    std::sort(picked.begin(), picked.end(), [](QListWidgetItem *a, QListWidgetItem *b) {
        return a->data(PickRole).toInt() < b->data(PickRole).toInt();
    });
    QStringList ids;
    for (QListWidgetItem *item : std::as_const(picked))
        ids.append(item->data(IdRole).toString());
    return ids;
}

bool ManualBatchBar::toggleBranch(int branch)
{
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem *item = m_list->item(i);
        if (item->data(BranchRole).toInt() != branch)
            continue;
        const bool pick = item->checkState() != Qt::Checked;
        if (pick && picks().size() >= m_workers) {
            emit message(tr("At most %n cell(s) per batch (W)", nullptr, m_workers));
            return false;
        }
        item->setCheckState(pick ? Qt::Checked : Qt::Unchecked);
        return true;
    }
    emit message(tr("Branch b%1 has no legal attempt now (finished, closed or beyond the grid)").arg(branch));
    return false;
}

void ManualBatchBar::dropBranch(int branch)
{
    for (int i = m_list->count() - 1; i >= 0; --i) {
        if (m_list->item(i)->data(BranchRole).toInt() == branch)
            delete m_list->takeItem(i);
    }
    updatePrompt();
}

void ManualBatchBar::updatePrompt()
{
    const QStringList picked = picks();
    m_prompt->setText(picked.isEmpty()
                          ? tr("Round %1 is yours: pick up to %n cell(s) (ticks, or click branches in the list or the tree), "
                               "then Run. Run with nothing picked ends the round.", nullptr, m_workers)
                                .arg(m_round + 1)
                          : tr("Round %1: %2 of at most %3 picked: %4")
                                .arg(m_round + 1)
                                .arg(picked.size())
                                .arg(m_workers)
                                .arg(picked.join(QStringLiteral(", "))));
    m_run->setText(picked.isEmpty() ? tr("&End Round") : tr("&Run Batch"));
}

} // namespace dreamrsi
