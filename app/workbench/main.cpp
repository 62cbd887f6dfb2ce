// dreamrsi-workbench: the GUI. The window itself lives in the views library.
#include "mainwindow.h"
#include "replaypage.h"
#include "sweeprunner.h"
#include "treeview.h"
#include "workspace.h"

#include <QTabWidget>

#include <QApplication>
#include <QStandardPaths>
#include <QFileInfo>
#include <QFile>
#include <QDir>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QLocale>
#include <QTextStream>
#include <QTimer>
#include <QTranslator>

#include <memory>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("dreamrsi-workbench"));
    QApplication::setApplicationDisplayName(QStringLiteral("Dream-RSI Workbench"));
    QApplication::setOrganizationName(QStringLiteral("DreamRSI"));
    QApplication::setApplicationVersion(QStringLiteral(DREAMRSI_VERSION));

    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(&qtTranslator);
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("dreamrsi"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Dream-RSI Workbench"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"), QApplication::translate("main", "Tree files to open, or one project (*.dreamrsi)."),
                                 QStringLiteral("[FILE...]"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QApplication::translate("main", "Open the files, save one PNG per tab into DIR, then quit."),
        QStringLiteral("DIR"));
    parser.addOption(screenshotOption);
    const QCommandLineOption sizeOption(QStringLiteral("size"),
                                        QApplication::translate("main", "Window size for screenshots, e.g. 1600x1000."),
                                        QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    parser.addOption(sizeOption);
    const QCommandLineOption demoOption(
        QStringLiteral("demo"),
        QApplication::translate("main", "Open the bundled demo project (a private copy in the user's data folder)."));
    parser.addOption(demoOption);
    parser.process(app);

    dreamrsi::MainWindow window;
    // A positional *.dreamrsi argument is a project; everything else a tree file.
    QStringList files;
    QString project;
    for (const QString &arg : parser.positionalArguments()) {
        if (arg.endsWith(QLatin1String(".dreamrsi")))
            project = arg;
        else
            files.append(arg);
    }
    if (parser.isSet(demoOption) && project.isEmpty()) {
        // The bundled project is read-only inside the executable; the workbench
        // opens projects for writing, so it works on a copy kept between runs.
        const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
        const QString copy = dir + QStringLiteral("/demo.dreamrsi");
        if (!QFileInfo::exists(copy)) {
            QDir().mkpath(dir);
            if (!QFile::copy(QStringLiteral(":/demo/demo.dreamrsi"), copy)
                || !QFile::setPermissions(copy, QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
                QTextStream(stderr) << QApplication::translate("main", "Cannot copy the demo project to %1").arg(copy)
                                    << '\n';
                return 1;
            }
        }
        project = copy;
    }
    if (parser.isSet(screenshotOption)) {
        const QStringList wh = parser.value(sizeOption).split(QLatin1Char('x'));
        window.resize(wh.value(0).toInt() > 0 ? wh.value(0).toInt() : 1600, wh.value(1).toInt() > 0 ? wh.value(1).toInt() : 1000);
        const QString dir = parser.value(screenshotOption);
        auto remaining = std::make_shared<int>(int(files.size()));
        auto grabAll = [&window, dir] {
            // Let the last layout and paint settle before grabbing.
            QTimer::singleShot(400, &window, [&window, dir] {
                const QStringList written = window.saveScreenshots(dir);
                for (const QString &path : written)
                    QTextStream(stdout) << path << '\n';
                QApplication::exit(written.isEmpty() ? 1 : 0);
            });
        };
        // Before grabbing, show what a researcher would look at: every version
        // replayed, two of them compared a few rounds in, the best cell inspected.
        auto shoot = [&window, grabAll] {
            auto *ws = window.workspace();
            if (ws->worlds().isEmpty() || ws->versions().isEmpty())
                return grabAll();
            window.setCurrentWorld(0);
            if (auto tree = window.currentTree(); tree && tree->bestCellIndex() >= 0)
                emit window.treeView()->cellActivated(tree->bestCellIndex());
            QStringList names;
            QStringList missing;
            for (const auto &v : ws->versions()) {
                names.append(v.name);
                if (!ws->result(v.name))
                    missing.append(v.name);
            }
            auto compare = [&window, names, grabAll] {
                QObject::connect(window.replayPage(), &dreamrsi::ReplayPage::episodesReady, &window, [&window, grabAll] {
                    for (int i = 0; i < 4; ++i)
                        window.replayPage()->stepForward();
                    window.tabs()->setCurrentIndex(dreamrsi::MainWindow::DiscoveryTab);
                    grabAll();
                }, Qt::SingleShotConnection);
                window.compareVersions(names.value(0), names.value(names.size() > 1 ? 1 : 0));
            };
            if (missing.isEmpty())
                return compare();
            QObject::connect(window.sweepRunner(), &dreamrsi::SweepRunner::idle, &window, compare, Qt::SingleShotConnection);
            window.replayVersions(missing);
        };
        auto oneDone = [remaining, shoot] {
            if (--*remaining == 0)
                shoot();
        };
        if (!project.isEmpty()) {
            QObject::connect(&window, &dreamrsi::MainWindow::projectLoaded, &window, shoot, Qt::SingleShotConnection);
            QObject::connect(&window, &dreamrsi::MainWindow::openFailed, &window, [] { QApplication::exit(1); });
        } else {
            QObject::connect(&window, &dreamrsi::MainWindow::treeOpened, &window, oneDone);
            QObject::connect(&window, &dreamrsi::MainWindow::openFailed, &window, oneDone);
            if (files.isEmpty())
                shoot();
        }
    }
    window.show();
    if (!project.isEmpty())
        window.openProject(project);
    else if (!files.isEmpty())
        window.openFiles(files);
    return QApplication::exec();
}
