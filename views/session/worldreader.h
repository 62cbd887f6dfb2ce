#pragma once

#include "models/workspace.h"

#include "base/result.h"
#include "import/runimport.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace dreamrsi {

class JobTracker;

/// Tree files and runs read as worlds off the GUI thread, each reading a
/// job of the JobTracker: what File ▸ Open Tree, Open Run Folder, Open
/// Recent, drag-and-drop, the command line and Import Trees into Project
/// read (views/window/worldopener.cpp asks the questions and shows the
/// worlds). A run of OpenEvolve or ShinkaEvolve is read as the tree it maps
/// onto (core/import, docs/tree-format.md#imported-runs). Every answer
/// comes on the thread of this object and never after it is gone. A
/// failure's message is the reader's own, naming the file
/// (TreeJson::readFile, RunImport::read).
class WorldReader final : public QObject
{
    Q_OBJECT
public:
    explicit WorldReader(JobTracker *jobs, QObject *parent = nullptr);

    /// The tree file at the absolute `path` as a world named after its
    /// file (not a project iteration). A job of the "files" scope, never
    /// renewed: opened files outlive projects.
    void readTree(const QString &path, std::function<void(Result<WorldEntry>)> done);

    /// A run read as a world.
    struct RunRead
    {
        Result<WorldEntry> world; ///< named RunImport::worldName
        QStringList notes;        ///< what the reading chose that the person should know
        /// With no metric named: what the run offers to score by.
        RunImport::MetricSurvey survey;
        /// No metric was named, the run has no combined_score and other
        /// numeric metrics: the person says which one scores the programs
        /// (then read it again with that metric).
        bool asksForMetric() const { return world.ok() && !survey.hasCombinedScore && !survey.numericMetrics.isEmpty(); }
    };
    /// The run at the absolute `path` scored by `metric` (an empty one: the
    /// mean of all numeric metrics), or as the run scores itself when none
    /// is named. A job of the "files" scope.
    void readRun(const QString &path, std::optional<QString> metric, std::function<void(RunRead)> done);

    /// What Import Trees into Project stores: the tree and the source it is named by.
    struct ImportRead
    {
        std::shared_ptr<const DiscoveryTree> tree;
        QString source; ///< a run's RunImport::worldName (a db folder alone says little), else the file's path
    };
    /// A tree file or a run at the absolute `path` (RunImport::readTreeOrRun),
    /// for the open project: a job of the "project" scope, dropped when
    /// another project is opened.
    void readForImport(const QString &path, std::function<void(Result<ImportRead>)> done);

private:
    JobTracker *m_jobs;
};

} // namespace dreamrsi
