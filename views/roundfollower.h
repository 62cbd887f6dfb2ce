#pragma once

#include "model/cell.h"
#include "store/storetypes.h"

#include <QList>
#include <QObject>
#include <QString>

class QTimer;

namespace dreamrsi {

class ProjectStore;

/// Follows a round that another process runs in the open project (opened
/// read-only: ProjectStore::openReadOnly). Every second, off the GUI
/// thread, it asks whether the other process still holds the project
/// (ProjectLock::liveWriter) and then reads what the store committed since
/// the last look: the newest `running` iteration while none is followed,
/// the followed iteration's new cells (seq after the last one seen)
/// otherwise. The liveness check comes before the read, so a round whose
/// process died shows as interrupted only when it really ended `running`.
///
/// One look at a time; answers that arrive after stop() are dropped.
class RoundFollower final : public QObject
{
    Q_OBJECT
public:
    explicit RoundFollower(ProjectStore *store, QObject *parent = nullptr);
    ~RoundFollower() override;

    /// Starts looking at the project open in the store (read-only),
    /// written by `writer`.
    void start(const WriterInfo &writer);
    void stop();
    bool isActive() const;
    /// The iteration followed, 0 while looking for one.
    IterationId iteration() const { return m_iteration; }
    const WriterInfo &writer() const { return m_writer; }
    /// Milliseconds between looks (default 1000).
    void setInterval(int ms);
    /// Looks now, unless a look is under way.
    void poll();

signals:
    /// A running iteration of the other process is followed from now on.
    void following(const dreamrsi::IterationInfo &info);
    /// Cells stored since the last look, in seq order (possibly the whole
    /// iteration at the first look).
    void cellsArrived(const dreamrsi::IterationInfo &info, const QList<dreamrsi::Cell> &cells);
    /// The followed iteration is no longer running: `status` as stored, or
    /// Interrupted when its process ended without closing it. Following stops.
    void iterationEnded(const dreamrsi::IterationInfo &info, dreamrsi::IterationStatus status);
    /// The other process no longer holds the project, no round being
    /// followed. Following stops.
    void writerGone();
    /// A read failed; following goes on.
    void failed(const QString &message);

private:
    void look(bool writerAlive);

    ProjectStore *m_store;
    QTimer *m_timer = nullptr;
    WriterInfo m_writer;
    IterationId m_iteration = 0;
    qint64 m_lastSeq = -1;
    quint64 m_epoch = 0; ///< bumped by start/stop: answers of older looks are dropped
    bool m_busy = false;
};

} // namespace dreamrsi
