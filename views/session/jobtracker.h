#pragma once

#include <QFuture>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <utility>

namespace dreamrsi {

/// The one place that knows whether the answer of a background job still
/// matters. Jobs belong to a scope ("project", "replay page", …); renew(scope)
/// makes every job started before it stale — its answer is dropped instead of
/// being applied to a project or a page that has moved on. This replaces the
/// hand-written `if (path != m_projectPath) return;` checks.
///
/// A job that runs long can also ask, while it runs, whether its answer
/// still matters (cancelCheck()), and give up early, as hotspot's job
/// tracker lets its jobs do.
///
/// Lives on the GUI thread; answers are delivered on `context`'s thread and
/// never after `context` or the tracker is destroyed.
class JobTracker final : public QObject
{
    Q_OBJECT
public:
    explicit JobTracker(QObject *parent = nullptr);

    /// Starts a new epoch of `scope`; returns it.
    quint64 renew(const QString &scope);
    quint64 epoch(const QString &scope) const;
    bool isCurrent(const QString &scope, quint64 epoch) const { return this->epoch(scope) == epoch; }
    /// True once `scope` was renewed after this call: a job started now
    /// asks it, from any thread and after the tracker is gone too, to stop
    /// work whose answer would be dropped.
    using CancelCheck = std::function<bool()>;
    CancelCheck cancelCheck(const QString &scope);
    /// Jobs started and not answered yet (stale ones included).
    int pending() const { return m_pending; }

    /// Continues `future` on `context`'s thread with `apply(result)` unless
    /// `scope` was renewed since this call. `apply` always runs from
    /// `context`'s event loop, after this call has returned, even when the
    /// future has already finished: Qt 6.4's QFuture::then(context, …) calls
    /// its continuation at once, on the calling thread, in that case (a
    /// caller that sets up state after starting a job would see its answer
    /// first; tst_session_files caught it when the suites ran four at a time).
    template<typename T, typename Fn>
    void then(const QString &scope, QFuture<T> future, QObject *context, Fn apply)
    {
        const quint64 started = epoch(scope);
        ++m_pending;
        auto answer = std::make_shared<Fn>(std::move(apply));
        future.then(context, [tracker = QPointer<JobTracker>(this), context, scope, started, answer](T result) {
            auto held = std::make_shared<T>(std::move(result));
            QMetaObject::invokeMethod(
                context,
                [tracker, scope, started, answer, held] {
                    if (!tracker)
                        return;
                    tracker->finishOne();
                    if (tracker->isCurrent(scope, started))
                        (*answer)(std::move(*held));
                },
                Qt::QueuedConnection);
        });
    }

    /// For jobs that answer through signals (a child process) rather than a
    /// QFuture: wraps `apply` so that it runs, with whatever the signal
    /// carries, only while `scope` has not been renewed since this call and
    /// the tracker still exists. Not counted in pending().
    template<typename Fn>
    auto guard(const QString &scope, Fn apply)
    {
        return [tracker = QPointer<JobTracker>(this), scope, started = epoch(scope),
                apply = std::move(apply)](auto &&...args) {
            if (tracker && tracker->isCurrent(scope, started))
                apply(std::forward<decltype(args)>(args)...);
        };
    }

signals:
    /// Every job answered (stale or not).
    void idle();

private:
    void finishOne();

    /// Each scope's epoch, shared with the cancel checks of its jobs.
    std::shared_ptr<std::atomic<quint64>> counter(const QString &scope);

    QHash<QString, std::shared_ptr<std::atomic<quint64>>> m_epochs;
    int m_pending = 0;
};

} // namespace dreamrsi
