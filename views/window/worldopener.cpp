#include "worldopener.h"

#include "projectpage.h"

#include "import/runimport.h"
#include "models/workspace.h"
#include "session/projectsession.h"
#include "session/worldreader.h"

#include <QDir>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>

namespace dreamrsi {

WorldOpener::WorldOpener(ProjectPage *page, ProjectSession *session, JobTracker *jobs, QWidget *window)
    : QObject(window)
    , m_page(page)
    , m_session(session)
    , m_reader(new WorldReader(jobs, this))
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
        m_reader->readTree(absolute, [this, absolute](Result<WorldEntry> world) {
            if (!world.ok()) {
                emit statusMessage(tr("Could not open %1").arg(QFileInfo(absolute).fileName()), 8000);
                emit openFailed(absolute, world.error);
                auto *box = new QMessageBox(QMessageBox::Warning, tr("Cannot open tree"),
                                            tr("The file was rejected; nothing of it was loaded."), QMessageBox::Ok, m_window);
                box->setInformativeText(world.error);
                box->setAttribute(Qt::WA_DeleteOnClose);
                box->open();
                return;
            }
            const auto tree = world.value->tree;
            const int row = m_page->workspace()->addWorld(*world.value);
            m_page->setCurrentWorld(row);
            emit worldOpened(absolute);
            emit statusMessage(tr("Opened %1: %2 cells").arg(QFileInfo(absolute).fileName()).arg(tree->cellCount()), 5000);
            emit treeOpened(absolute);
        });
    }
}

void WorldOpener::openRun(const QString &path, std::optional<QString> metric)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    emit statusMessage(tr("Reading the run %1…").arg(QFileInfo(absolute).fileName()), 0);
    m_reader->readRun(absolute, metric, [this, absolute, metric](WorldReader::RunRead read) {
        if (!read.world) {
            emit statusMessage(tr("Could not open %1").arg(QFileInfo(absolute).fileName()), 8000);
            emit openFailed(absolute, read.world.error);
            // A short title (the window manager adds the application's name
            // and cuts what does not fit); the run is named in the text.
            auto *box = new QMessageBox(QMessageBox::Warning, tr("Open Run"),
                                        tr("The run %1 was rejected; nothing of it was loaded.")
                                            .arg(QDir::toNativeSeparators(absolute)),
                                        QMessageBox::Ok, m_window);
            box->setInformativeText(read.world.error);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
            return;
        }
        if (!metric && read.asksForMetric()) {
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
        const auto tree = read.world.value->tree;
        const int row = m_page->workspace()->addWorld(*read.world.value);
        m_page->setCurrentWorld(row);
        emit worldOpened(absolute);
        QString message = tr("Opened %1: %2 cells").arg(read.world.value->name).arg(tree->cellCount());
        if (tree->meta().approximate)
            message += QLatin1String("; ") + tr("an approximate world (forks or orphans)");
        for (const QString &note : read.notes)
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
        m_reader->readForImport(absolute, [this, absolute](Result<WorldReader::ImportRead> parsed) {
            if (!parsed.ok()) {
                emit openFailed(absolute, parsed.error);
                QMessageBox::warning(m_window, tr("Cannot import tree"), parsed.error);
                return;
            }
            m_session->importTree(parsed.value->tree, parsed.value->source);
        });
    }
}

} // namespace dreamrsi
