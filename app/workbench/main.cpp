// dreamrsi-workbench: the GUI. The window itself lives in the views library.
#include "session/demoproject.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
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
    // The icon the package installs in the hicolor theme.
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("dreamrsi-workbench")));

    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(&qtTranslator);
    // The strings are English; a language without a translation of its own
    // gets English's plural forms ("1 cell", "2 cells", not "2 cell(s)").
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("dreamrsi"), QStringLiteral("_"), QStringLiteral(":/i18n"))
        || translator.load(QStringLiteral("dreamrsi_en"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Dream-RSI Workbench"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"), QApplication::translate("main", "Tree files or runs (OpenEvolve folders, ShinkaEvolve databases) to open, or one project (*.dreamrsi)."),
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
    // The bundled demo: --demo opens its private copy in the user's data
    // folder (made unless there, so the user's changes are kept); File ▸
    // Reset Demo makes it again.
    const dreamrsi::DemoProject demo;
    window.setDemo(demo);
    if (parser.isSet(demoOption) && project.isEmpty()) {
        const dreamrsi::Result<QString> copy = demo.install(dreamrsi::DemoProject::Mode::KeepExisting);
        if (!copy) {
            QTextStream(stderr) << copy.error << '\n';
            return 1;
        }
        project = *copy.value;
    }
    window.show();
    if (!project.isEmpty())
        window.openProject(project);
    else if (!files.isEmpty())
        window.openFiles(files);
    return QApplication::exec();
}
