#pragma once

#include "replay/replayworld.h"

#include <QList>
#include <QObject>

namespace dreamrsi {

class DiscoveryPage;
class JobTracker;

/// Draws what the Discovery page's Show imagined cells asks for
/// (docs/online.md#valuation): the world model fitted over the project's
/// replay worlds as a dream fits it, and completion k of the shown world's
/// place j among them for the seed — on a worker through the JobTracker, so
/// the GUI thread never waits for a large project; an answer that arrives
/// after the page asked for something else is dropped.
class ImaginedCells final : public QObject
{
    Q_OBJECT
public:
    ImaginedCells(DiscoveryPage *page, JobTracker *jobs, QObject *parent = nullptr);

    /// The project's replay worlds, the shown world's place j among them (-1:
    /// not one of them) and C of the project's configuration.
    void setHistory(QList<ReplayWorld> history, int place, int completions);

private:
    void draw();

    DiscoveryPage *m_page;
    JobTracker *m_jobs;
    QList<ReplayWorld> m_history;
};

} // namespace dreamrsi
