#pragma once

#include "backend/evaluationbackend.h"
#include "loop/round/roundliveness.h"
#include "model/cell.h"
#include "runningattempt.h"

#include <QSet>

#include <QAbstractItemModel>
#include <QElapsedTimer>
#include <QHash>
#include <QList>

namespace dreamrsi {

/// The discovery tree of a live round as an item model: one top-level row
/// per branch (ascending), its attempts as children. It grows while the round
/// runs: a started attempt is inserted as a running row (with its elapsed
/// time), a stored cell turns its row finished (or is inserted), a killed
/// attempt's row is removed. Rows are inserted and changed, never reset,
/// except by reset().
class LiveTreeModel final : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { IdColumn, StatusColumn, ScoreColumn, TimeColumn, ColumnCount };
    /// Data role of column 0: true while the attempt runs.
    static constexpr int RunningRole = Qt::UserRole + 1;

    explicit LiveTreeModel(QObject *parent = nullptr);

    /// Replaces everything with the stored cells of an iteration.
    void reset(const QList<Cell> &cells);
    /// An attempt started: a running row.
    void markRunning(const QString &cellId);
    /// A cell was stored: its row shows the outcome.
    void addCell(const Cell &cell);
    /// The running attempt's evaluation moved on a scheduler: its row shows
    /// the job, its state (pending with Slurm's reason, running) and the
    /// queue wait apart from the run time.
    void setProgress(const QString &cellId, const EvaluationProgress &progress);
    /// A killed attempt: its running row goes.
    void removeRunning(const QString &cellId);
    /// The running attempts named stalled (docs/online.md#is-it-alive): their
    /// rows say so, until the next call.
    void setStalled(const QSet<QString> &cellIds);
    /// The attempts in flight of a round followed in another process
    /// (RoundFollower::attemptsSeen), each with its age and whether it is
    /// stalled: an attempt without a row is inserted running, a running row
    /// takes the attempt's age, a running row not named goes (its attempt
    /// ended without a cell: killed, or abandoned by a stopping round); rows
    /// with a stored cell stay as they are. The stalled ones replace what
    /// setStalled() named.
    void setRunning(const QList<AttemptLiveness> &attempts);
    /// Whether a stalled row says that right-click kills it (default): not
    /// while the round shown takes no steering.
    void setKillOffered(bool offered);
    /// Repaints the elapsed time of running rows (call from a timer).
    void tick();

    /// What people did to a branch (steering): shown as a glyph after the
    /// branch's name, explained in its tooltip. Kinds: "close", "refine",
    /// "hint". Cleared by reset().
    void markSteered(int branch, const QString &kind);
    /// The branch of a branch or attempt row; nothing for an invalid index.
    std::optional<int> branchOf(const QModelIndex &index) const;

    int cellCount() const { return m_finished; }
    /// Attempt rows, running or finished.
    int attemptCount() const { return m_attempts; }
    int runningCount() const;
    /// The running attempts with their elapsed time, `limitS` their limit and
    /// whether setStalled() named them (for the drawn tree).
    QList<RunningAttempt> runningAttempts(std::optional<double> limitS) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Attempt
    {
        QString id;
        int attempt = 0;
        bool running = true;
        QElapsedTimer started;
        qint64 startedBeforeMs = 0; ///< how long it ran before `started` (a followed attempt's age when first seen)
        std::optional<EvaluationProgress> progress; ///< while running on a scheduler
        Cell cell;
    };
    struct Branch
    {
        int branch = 0;
        QList<Attempt> attempts; ///< sorted by attempt
    };

    /// Row of the branch, inserted when missing.
    int branchRow(int branch, bool insert);
    /// (branch row, attempt row) of an id, or (-1, -1).
    std::pair<int, int> find(int branch, int attempt) const;
    std::pair<int, int> ensureAttempt(int branch, int attempt, const QString &id);
    /// Says that columns [firstColumn, lastColumn] of `row` under `parent` changed.
    void changed(const QModelIndex &parent, int row, int firstColumn, int lastColumn);
    QString runningStatus(const Attempt &a) const;
    QString runningTime(const Attempt &a) const;
    static double elapsedS(const Attempt &a);
    QSet<QString> m_stalled;
    bool m_killOffered = true;

    QList<Branch> m_branches; ///< sorted by branch
    QHash<int, QStringList> m_steered; ///< branch -> steering kinds, in the order applied
    int m_finished = 0;
    int m_attempts = 0;
};

} // namespace dreamrsi
