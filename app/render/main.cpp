// dreamrsi-render: the command of `dreamrsi` that draws with QtGui, `plot`.
// `dreamrsi` hands it over with execv and the same arguments, so users and
// scripts only ever call `dreamrsi`; keeping QtGui, Widgets and the chart
// libraries out of `dreamrsi` itself keeps its start cheap for the commands
// that run thousands of times. The benchmarks that draw are dreamrsi-bench's
// (app/bench/render).
#include "commands.h"

#include <QApplication>
#include <QTextStream>

int main(int argc, char *argv[])
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args.append(QString::fromLocal8Bit(argv[i]));
    const QString name = args.isEmpty() ? QString() : args.takeFirst();
    using CommandFn = int (*)(const QStringList &, QTextStream &, QTextStream &);
    CommandFn run = nullptr;
    if (name == QLatin1String("plot"))
        run = dreamrsi::runPlotCommand;
    if (!run) {
        QTextStream(stderr) << "usage: dreamrsi-render plot ...\n"
                               "Started by `dreamrsi plot`; see `dreamrsi --help`.\n";
        return 2;
    }
    // Figures render offscreen when there is no display.
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("dreamrsi"));
    QCoreApplication::setOrganizationName(QStringLiteral("DreamRSI"));
    QTextStream out(stdout);
    QTextStream err(stderr);
    const int rc = run(args, out, err);
    out.flush();
    err.flush();
    return rc;
}
