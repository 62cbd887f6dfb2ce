#include "imaginedcells.h"

#include "session/imaginedworlds.h"
#include "session/jobtracker.h"
#include "tree/discoverypage.h"

#include <QCheckBox>
#include <QSpinBox>
#include <QtConcurrent>

namespace dreamrsi {

namespace {
const QString CellsScope = QStringLiteral("imagined cells");
} // namespace

ImaginedCells::ImaginedCells(DiscoveryPage *page, JobTracker *jobs, QObject *parent)
    : QObject(parent)
    , m_page(page)
    , m_jobs(jobs ? jobs : new JobTracker(this))
{
    connect(page, &DiscoveryPage::imaginedRequested, this, &ImaginedCells::draw);
}

void ImaginedCells::setHistory(QList<ReplayWorld> history, int place, int completions)
{
    bool same = history.size() == m_history.size();
    for (qsizetype i = 0; same && i < history.size(); ++i)
        same = history.at(i).tree == m_history.at(i).tree;
    m_history = std::move(history);
    const int j = place >= 0 && place < m_history.size() ? place : -1;
    if (!same && j == m_page->imaginationPlace() && m_page->wantsImagined()) {
        // Another history (a world added) fits another model: draw again.
        m_page->setImaginationContext(-1, completions);
    }
    m_page->setImaginationContext(j, completions);
}

void ImaginedCells::draw()
{
    m_jobs->renew(CellsScope); // whatever was being drawn is not wanted any more
    if (!m_page->wantsImagined())
        return;
    const int j = m_page->imaginationPlace();
    const int k = m_page->completionBox()->value();
    const quint64 seed = quint64(m_page->seedBox()->value());
    if (j < 0 || j >= m_history.size())
        return m_page->showImaginedError(tr("the world is not one of the project's %n history world(s)", nullptr,
                                            int(m_history.size())));
    m_jobs->then(CellsScope, QtConcurrent::run([history = m_history, j, seed, k] { return ImaginedWorlds::draw(history, j, seed, k); }),
                 this, [this](const ImaginedWorlds::Completion &c) {
                     if (!c.tree)
                         return m_page->showImaginedError(c.error);
                     m_page->showCompletion(c.tree, ImaginedDraw{c.model, c.seed, c.world, c.completion});
                 });
}

} // namespace dreamrsi
