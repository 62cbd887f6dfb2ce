#include "worldopener.h"

#include "projectpage.h"

#include "import/runimport.h"
#include "model/treejson.h"
#include "models/workspace.h"
#include "session/jobtracker.h"
#include "session/projectsession.h"

#include <QDir>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QtConcurrent/QtConcurrentRun>

namespace dreamrsi {

WorldOpener::WorldOpener(ProjectPage *page, ProjectSession *session, JobTracker *jobs, QWidget *window)
    : QObject(window)
    , m_page(page)
    , m_session(session)
    , m_jobs(jobs)
    , m_window(window)
{
}

void WorldOpener::openFiles(const QStringList &paths)
{
    for (const QString &path : paths) {
        const QString absolute = QFileInfo(path).absoluteFilePath();
        if (RunImport::looksLikeRunPath(absolute)) {
            openRun(absolute);
            continue;
        }
        emit statusMessage(tr("Loading %1…").arg(QFileInfo(path).fileName()), 0);
        // Through the tracker like every job (counted in pending(), never
        // answered after the window is gone); opened files outlive projects,
        // so their scope is never renewed.
        m_jobs->then(QStringLiteral("files"), QtConcurrent::run([absolute] { return TreeJson::readFile(absolute); }), this,
            [this, absolute](TreeJson::ParseResult result) {
                if (!result.ok()) {
                    emit statusMessage(tr("Could not open %1").arg(QFileInfo(absolute).fileName()), 8000);
                    emit openFailed(absolute, result.error.message);
                    auto *box = new QMessageBox(QMessageBox::Warning, tr("Cannot open tree"),
                                                tr("The file was rejected; nothing of it was loaded."), QMessageBox::Ok, m_window);
                    box->setInformativeText(result.error.message);
                    box->setAttribute(Qt::WA_DeleteOnClose);
                    box->open();
                    return;
                }
                auto tree = std::make_shared<const DiscoveryTree>(std::move(*result.tree));
                const int row = m_page->workspace()->addWorld({QFileInfo(absolute).fileName(), absolute, 0, tree});
                m_page->setCurrentWorld(row);
                emit worldOpened(absolute);
                emit statusMessage(tr("Opened %1: %2 cells").arg(QFileInfo(absolute).fileName()).arg(tree->cellCount()), 5000);
                emit treeOpened(absolute);
            });
    }
}

namespace {

/// What reading a run off the GUI thread gives back.
struct RunRead
{
    Result<RunImport::Imported> imported;
    RunImport::MetricSurvey survey; ///< of the reading, when no metric was named
};

} // namespace

void WorldOpener::openRun(const QString &path, std::optional<QString> metric)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    emit statusMessage(tr("Reading the run %1…").arg(QFileInfo(absolute).fileName()), 0);
    m_jobs->then(QStringLiteral("files"), QtConcurrent::run([absolute, metric] {
        RunRead read{RunImport::read(absolute, RunImport::Options{metric.value_or(QString())}), {}};
        if (read.imported && !metric)
            read.survey = RunImport::surveyMetrics(read.imported.value->tree);
        return read;
    }), this, [this, absolute, metric](RunRead read) {
        if (!read.imported) {
            emit statusMessage(tr("Could not open %1").arg(QFileInfo(absolute).fileName()), 8000);
            emit openFailed(absolute, read.imported.error);
            // A short title (the window manager adds the application's name
            // and cuts what does not fit); the run is named in the text.
            auto *box = new QMessageBox(QMessageBox::Warning, tr("Open Run"),
                                        tr("The run %1 was rejected; nothing of it was loaded.")
                                            .arg(QDir::toNativeSeparators(absolute)),
                                        QMessageBox::Ok, m_window);
            box->setInformativeText(read.imported.error);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
            return;
        }
        if (!metric && !read.survey.hasCombinedScore && !read.survey.numericMetrics.isEmpty()) {
            // No combined_score: the researcher says which metric scores the programs.
            std::optional<QString> chosen;
            if (m_metricChooser) {
                chosen = m_metricChooser(absolute, read.survey.numericMetrics);
            } else {
                const QString mean = tr("The mean of all numeric metrics (OpenEvolve's own score)");
                bool ok = false;
                const QString item = QInputDialog::getItem(
                    m_window, tr("Score by Which Metric?"),
                    tr("%1 has no combined_score. Score its programs by:").arg(QFileInfo(absolute).fileName()),
                    read.survey.numericMetrics + QStringList{mean}, 0, false, &ok);
                if (ok)
                    chosen = item == mean ? QString() : item;
            }
            if (!chosen) {
                emit statusMessage(tr("%1 was not opened").arg(QFileInfo(absolute).fileName()), 5000);
                emit openFailed(absolute, tr("no metric was chosen to score by"));
                return;
            }
            openRun(absolute, *chosen);
            return;
        }
        auto tree = std::make_shared<const DiscoveryTree>(std::move(read.imported.value->tree));
        const int row = m_page->workspace()->addWorld({RunImport::worldName(absolute), absolute, 0, tree});
        m_page->setCurrentWorld(row);
        emit worldOpened(absolute);
        QString message = tr("Opened %1: %2 cells").arg(RunImport::worldName(absolute)).arg(tree->cellCount());
        if (tree->meta().approximate)
            message += QLatin1String("; ") + tr("an approximate world (forks or orphans)");
        for (const QString &note : read.imported.value->notes)
            message += QLatin1String("; ") + note;
        emit statusMessage(message, 8000);
        emit treeOpened(absolute);
    });
}

void WorldOpener::importTrees(const QStringList &paths)
{
    if (!m_session->isOpen())
        return;
    for (const QString &path : paths) {
        const QString absolute = QFileInfo(path).absoluteFilePath();
        // A run (core/import) is stored as the tree it maps onto, scored as it comes.
        m_jobs->then(QStringLiteral("project"), QtConcurrent::run([absolute] { return RunImport::readTreeOrRun(absolute); }), this,
                     [this, absolute](Result<RunImport::Imported> parsed) {
                         if (!parsed.ok()) {
                             emit openFailed(absolute, parsed.error);
                             QMessageBox::warning(m_window, tr("Cannot import tree"), parsed.error);
                             return;
                         }
                         // A run is named by RunImport::worldName (a db folder alone says little).
                         const QString source = parsed.value->framework ? RunImport::worldName(absolute) : absolute;
                         m_session->importTree(std::make_shared<const DiscoveryTree>(std::move(parsed.value->tree)), source);
                     });
    }
}

} // namespace dreamrsi
