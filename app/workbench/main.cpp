// dreamrsi-workbench: the GUI. The window itself lives in the views library.
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QLocale>
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
    parser.addPositionalArgument(QStringLiteral("files"), QApplication::translate("main", "Tree files to open."),
                                 QStringLiteral("[FILE...]"));
    parser.process(app);

    dreamrsi::MainWindow window;
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openFiles(parser.positionalArguments());
    return QApplication::exec();
}
