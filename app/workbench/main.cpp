// dreamrsi-workbench: the GUI. The window itself lives in the views library.
#include "mainwindow.h"

#include <QApplication>
#include <QStandardPaths>
#include <QFileInfo>
#include <QFile>
#include <QDir>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QLocale>
#include <QTextStream>
#include <QTranslator>


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
    window.show();
    if (!project.isEmpty())
        window.openProject(project);
    else if (!files.isEmpty())
        window.openFiles(files);
    return QApplication::exec();
}
