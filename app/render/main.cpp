// dreamrsi-render: the commands of `dreamrsi` that draw with QtGui, `plot`
// and `bench livetree` and `bench islands`. `dreamrsi` hands them over with execv and the same
// arguments, so users and scripts only ever call `dreamrsi`; keeping QtGui,
// Widgets and the chart libraries out of `dreamrsi` itself keeps its start
// cheap for the commands that run thousands of times.
#include "commands.h"
#include "islandsbench.h"
#include "livetreebench.h"

#include <QTextStream>

int main(int argc, char *argv[])
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args.append(QString::fromLocal8Bit(argv[i]));
    const QString name = args.isEmpty() ? QString() : args.takeFirst();
    using CommandFn = int (*)(const QStringList &, QTextStream &, QTextStream &);
    CommandFn run = nullptr;
    if (name == QLatin1String("plot")) {
        run = dreamrsi::runPlotCommand;
    } else if (name == QLatin1String("bench") && args.value(0) == QLatin1String("livetree")) {
        args.removeFirst();
        run = dreamrsi::runBenchLiveTreeCommand;
    } else if (name == QLatin1String("bench") && args.value(0) == QLatin1String("islands")) {
        args.removeFirst();
        run = dreamrsi::runBenchIslandsCommand;
    }
    if (!run) {
        QTextStream(stderr) << "usage: dreamrsi-render plot ... | bench livetree ... | bench islands ...\n"
                               "Started by `dreamrsi plot` and `dreamrsi bench livetree`; see `dreamrsi --help`.\n";
        return 2;
    }
    // Figures and the panel render offscreen when there is no display.
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // Its events can be timed (the phases of bench livetree's slowest frames).
    dreamrsi::RenderApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("dreamrsi"));
    QCoreApplication::setOrganizationName(QStringLiteral("DreamRSI"));
    QTextStream out(stdout);
    QTextStream err(stderr);
    const int rc = run(args, out, err);
    out.flush();
    err.flush();
    return rc;
}
