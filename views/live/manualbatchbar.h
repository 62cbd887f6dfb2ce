#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace dreamrsi {

/// A manual round's picking bar (docs/steering.md#manual-exploration): the
/// cells legal now, ticked (or picked by clicking branches in the list or
/// the tree) up to W of them, and Run Batch; with nothing picked the button
/// ends the round. Shown while a manual round waits for its batch.
class ManualBatchBar final : public QWidget
{
    Q_OBJECT
public:
    explicit ManualBatchBar(QWidget *parent = nullptr);

    /// Round `round` (0-based) waits for its batch: at most `workers` of `legal`. Shows the bar.
    void offer(int round, const QStringList &legal, int workers);
    /// The cell ids picked, in pick order.
    QStringList picks() const;
    /// Picks (or unpicks) branch `branch`'s legal cell; false (with a
    /// message) when the branch has none or W cells are picked.
    bool toggleBranch(int branch);
    /// Branch `branch` was closed: its cell is no pick any more.
    void dropBranch(int branch);

signals:
    /// Run Batch (or End Round) was pressed with these ids, in pick order.
    void batchChosen(const QStringList &ids);
    void message(const QString &text);

private:
    void updatePrompt();

    QLabel *m_prompt = nullptr;
    QListWidget *m_list = nullptr;
    QPushButton *m_run = nullptr;
    int m_round = -1;
    int m_workers = 0;
    int m_pickCounter = 0;
};

} // namespace dreamrsi
