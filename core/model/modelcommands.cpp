#include "modelcommands.h"

#include "treejson.h"
#include "treesummary.h"

namespace dreamrsi {

int runValidateCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    if (args.isEmpty() || args.contains(QLatin1String("--help"))) {
        err << "usage: dreamrsi validate FILE...\n";
        return 2;
    }
    int invalid = 0;
    for (const QString &path : args) {
        const TreeJson::ParseResult r = TreeJson::readFile(path);
        if (r.ok()) {
            out << path << ": ok: " << summarizeTree(*r.tree) << '\n';
        } else {
            ++invalid;
            err << "error: " << r.error.message << '\n';
        }
    }
    out.flush();
    err.flush();
    return invalid == 0 ? 0 : 1;
}

int runExportTreeCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QString input;
    QString output;
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if ((a == QLatin1String("-o") || a == QLatin1String("--out")) && i + 1 < args.size()) {
            output = args.at(++i);
        } else if (a.startsWith(QLatin1Char('-')) || !input.isEmpty()) {
            err << "usage: dreamrsi export IN.json [-o OUT.json]\n";
            return 2;
        } else {
            input = a;
        }
    }
    if (input.isEmpty()) {
        err << "usage: dreamrsi export IN.json [-o OUT.json]\n";
        return 2;
    }
    const TreeJson::ParseResult r = TreeJson::readFile(input);
    if (!r.ok()) {
        err << "error: " << r.error.message << '\n';
        return 1;
    }
    if (output.isEmpty()) {
        out << QString::fromUtf8(TreeJson::serialize(*r.tree));
        out.flush();
        return 0;
    }
    QString error;
    if (!TreeJson::writeFile(*r.tree, output, &error)) {
        err << "error: " << error << '\n';
        return 1;
    }
    return 0;
}

} // namespace dreamrsi
