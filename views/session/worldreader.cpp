#include "worldreader.h"

#include "jobtracker.h"

#include "model/treejson.h"

#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

namespace dreamrsi {

WorldReader::WorldReader(JobTracker *jobs, QObject *parent)
    : QObject(parent)
    , m_jobs(jobs)
{
}

void WorldReader::readTree(const QString &path, std::function<void(Result<WorldEntry>)> done)
{
    // Through the tracker like every job (counted in pending(), never
    // answered after the window is gone); opened files outlive projects,
    // so their scope is never renewed.
    m_jobs->then(QStringLiteral("files"), QtConcurrent::run([path] { return TreeJson::readFile(path); }), this,
                 [path, done = std::move(done)](TreeJson::ParseResult result) {
                     if (!result.ok()) {
                         done(Result<WorldEntry>::failure(result.error.message));
                         return;
                     }
                     auto tree = std::make_shared<const DiscoveryTree>(std::move(*result.tree));
                     done(Result<WorldEntry>::success({QFileInfo(path).fileName(), path, 0, tree}));
                 });
}

namespace {

/// What reading a run off the GUI thread gives back.
struct RunReading
{
    Result<RunImport::Imported> imported;
    RunImport::MetricSurvey survey; ///< of the reading, when no metric was named
};

} // namespace

void WorldReader::readRun(const QString &path, std::optional<QString> metric, std::function<void(RunRead)> done)
{
    m_jobs->then(QStringLiteral("files"), QtConcurrent::run([path, metric] {
        RunReading read{RunImport::read(path, RunImport::Options{metric.value_or(QString())}), {}};
        if (read.imported && !metric)
            read.survey = RunImport::surveyMetrics(read.imported.value->tree);
        return read;
    }), this, [path, done = std::move(done)](RunReading read) {
        if (!read.imported) {
            done(RunRead{Result<WorldEntry>::failure(read.imported.error), {}, {}});
            return;
        }
        auto tree = std::make_shared<const DiscoveryTree>(std::move(read.imported.value->tree));
        done(RunRead{Result<WorldEntry>::success({RunImport::worldName(path), path, 0, tree}), read.imported.value->notes,
                     std::move(read.survey)});
    });
}

void WorldReader::readForImport(const QString &path, std::function<void(Result<ImportRead>)> done)
{
    // A run (core/import) is stored as the tree it maps onto, scored as it comes.
    m_jobs->then(QStringLiteral("project"), QtConcurrent::run([path] { return RunImport::readTreeOrRun(path); }), this,
                 [path, done = std::move(done)](Result<RunImport::Imported> parsed) {
                     if (!parsed.ok()) {
                         done(Result<ImportRead>::failure(parsed.error));
                         return;
                     }
                     // A run is named by RunImport::worldName (a db folder alone says little).
                     const QString source = parsed.value->framework ? RunImport::worldName(path) : path;
                     done(Result<ImportRead>::success({std::make_shared<const DiscoveryTree>(std::move(parsed.value->tree)), source}));
                 });
}

} // namespace dreamrsi
