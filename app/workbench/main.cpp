// dreamrsi-workbench: the GUI. The window itself lives in the views library.
#include "window/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QSaveFile>
#include <QStandardPaths>
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
    if (parser.isSet(demoOption) && project.isEmpty()) {
        // The bundled project is read-only inside the executable; the workbench
        // opens projects for writing, so it works on a copy kept between runs.
        // The copy is named after the bundled file's content, so a newer demo
        // gets a fresh copy and the user's edits of an older one are kept.
        QFile bundled(QStringLiteral(":/demo/demo.dreamrsi"));
        const QByteArray content = bundled.open(QIODevice::ReadOnly) ? bundled.readAll() : QByteArray();
        const QString stamp =
            QString::fromLatin1(QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex().left(12));
        const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
        const QString copy = dir + QStringLiteral("/demo-%1.dreamrsi").arg(stamp);
        if (!QFileInfo::exists(copy)) {
            QString failed;
            if (content.isEmpty() || !QDir().mkpath(dir))
                failed = copy;
            // Artifacts first: a project file without its folder would open with missing artifacts.
            const QString artifacts = QStringLiteral(":/demo/demo.dreamrsi-artifacts");
            QDirIterator it(artifacts, QDir::Files, QDirIterator::Subdirectories);
            while (failed.isEmpty() && it.hasNext()) {
                const QString source = it.next();
                const QString target = copy + QStringLiteral("-artifacts") + source.mid(artifacts.size());
                if (!QDir().mkpath(QFileInfo(target).absolutePath()) || !QFile::copy(source, target)
                    || !QFile::setPermissions(target, QFileDevice::ReadOwner | QFileDevice::WriteOwner))
                    failed = target;
            }
            if (failed.isEmpty()) {
                QSaveFile out(copy);
                if (!out.open(QIODevice::WriteOnly) || out.write(content) != content.size() || !out.commit())
                    failed = copy;
            }
            if (!failed.isEmpty()) {
                QTextStream(stderr) << QApplication::translate("main", "Cannot copy the demo project to %1").arg(failed)
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
