#include "dreamcontroller.h"

#include "store/projectstore.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace dreamrsi {

DreamController::DreamController(ProjectStore *store, QObject *parent)
    : QObject(parent)
    , m_store(store)
{
}

DreamController::~DreamController()
{
    cancel(); // the pool thread keeps the dreamer alive until it returns; it stops soon
}

bool DreamController::start(const DreamOptions &options)
{
    if (m_running || !m_store)
        return false;
    m_running = true;
    m_cancelled = std::make_shared<std::atomic_bool>(false);
    emit runningChanged(true);
    ProjectStore *store = m_store;
    QtConcurrent::run([store, options] { return DreamSession::prepare(*store, options); })
        .then(this, [this, cancelled = m_cancelled](const Result<PreparedDream> &prepared) {
            if (!prepared) {
                DreamReport failed;
                failed.error = prepared.error;
                finish(failed);
            } else if (cancelled->load()) {
                DreamReport stopped;
                stopped.cancelled = true;
                finish(stopped);
            } else {
                emit this->prepared(int(prepared.value->history.size()), prepared.value->approximateLeftOut);
                dream(*prepared.value);
            }
        });
    return true;
}

void DreamController::dream(const PreparedDream &prepared)
{
    // Deleted on the GUI thread whichever thread lets go of it last.
    m_dreamer = std::shared_ptr<Dreamer>(new Dreamer(m_store, prepared.developer), [](Dreamer *d) { d->deleteLater(); });
    connect(m_dreamer.get(), &Dreamer::message, this, &DreamController::message);
    connect(m_dreamer.get(), &Dreamer::versionReady, this, &DreamController::versionReady);
    connect(m_dreamer.get(), &Dreamer::stepStarted, this, &DreamController::stepStarted);
    QtConcurrent::run([dreamer = m_dreamer, worlds = prepared.history, settings = prepared.settings] {
        return dreamer->run(worlds, settings);
    }).then(this, [this](const DreamReport &report) { finish(report); });
}

void DreamController::finish(const DreamReport &report)
{
    m_dreamer.reset();
    m_running = false;
    emit runningChanged(false);
    emit finished(report);
}

void DreamController::cancel()
{
    if (m_cancelled)
        m_cancelled->store(true);
    if (m_dreamer)
        m_dreamer->cancel();
}

} // namespace dreamrsi
