// dreamrsi: the headless twin of the workbench. Every command is implemented
// in dreamrsi_core; this file only dispatches.
#include "model/modelcommands.h"

#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>

namespace {

struct Command
{
    const char *name;
    const char *summary;
    int (*run)(const QStringList &args, QTextStream &out, QTextStream &err);
};

// One line per command; keep sorted by name.
const Command commands[] = {
    {"export", "re-write a tree file canonically (sorted by seq)", dreamrsi::runExportTreeCommand},
    {"validate", "check tree files and print their summary", dreamrsi::runValidateCommand},
};

void printUsage(QTextStream &s)
{
    s << "usage: dreamrsi COMMAND [ARGS...]\n\ncommands:\n";
    for (const Command &c : commands)
        s << "  " << QString::fromLatin1(c.name).leftJustified(10) << ' ' << c.summary << '\n';
    s << "\n`dreamrsi COMMAND --help` describes one command.\n";
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("dreamrsi"));
    QCoreApplication::setOrganizationName(QStringLiteral("DreamRSI"));
    QTextStream out(stdout);
    QTextStream err(stderr);
    QStringList args = QCoreApplication::arguments().mid(1);
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.first() == QLatin1String("help")) {
        printUsage(args.isEmpty() ? err : out);
        return args.isEmpty() ? 2 : 0;
    }
    const QString name = args.takeFirst();
    for (const Command &c : commands) {
        if (name == QLatin1String(c.name))
            return c.run(args, out, err);
    }
    err << "dreamrsi: unknown command '" << name << "'\n";
    printUsage(err);
    return 2;
}
