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
    const QList<TreeJson::ParseResult> results = TreeJson::readFiles(args);
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &path = args.at(i);
        const TreeJson::ParseResult &r = results.at(i);
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

#include <QElapsedTimer>
#include <QJsonArray>

namespace dreamrsi {

int runBenchTreeCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    int cells = 100000;
    const int at = int(args.indexOf(QLatin1String("--cells")));
    if (at >= 0) {
        bool ok = false;
        cells = args.value(at + 1).toInt(&ok);
        if (!ok || cells < 1) {
            err << "usage: dreamrsi bench tree [--cells N]  (N a positive integer)\n";
            return 2;
        }
    }
    const int width = 100;
    QJsonArray array;
    for (int i = 0; i < cells; ++i) {
        const int branch = i % width;
        const int attempt = i / width;
        array.append(QJsonObject{{QLatin1String("id"), QStringLiteral("b%1a%2").arg(branch).arg(attempt)},
                                 {QLatin1String("branch"), branch},
                                 {QLatin1String("attempt"), attempt},
                                 {QLatin1String("seq"), i},
                                 {QLatin1String("score"), (i % 7 == 0) ? QJsonValue() : QJsonValue(0.001 * (i % 997))},
                                 {QLatin1String("tags"), QJsonArray{QStringLiteral("direction:bench")}}});
    }
    const QByteArray json = QJsonDocument(QJsonObject{{QLatin1String("format"), QLatin1String(TreeJson::FormatTag)},
                                                      {QLatin1String("cells"), array}})
                                .toJson(QJsonDocument::Compact);
    QElapsedTimer timer;
    timer.start();
    const TreeJson::ParseResult r = TreeJson::parse(json);
    const double parseMs = double(timer.nsecsElapsed()) / 1e6;
    if (!r.ok()) {
        err << "error: " << r.error.message << '\n';
        return 1;
    }
    timer.restart();
    const TreeJson::ParseResult reference = TreeJson::parseReference(json);
    const double referenceMs = double(timer.nsecsElapsed()) / 1e6;
    timer.restart();
    const QByteArray written = TreeJson::serialize(*r.tree, QJsonDocument::Compact);
    const double writeMs = double(timer.nsecsElapsed()) / 1e6;
    out << "tree bench: " << cells << " cells, " << json.size() / 1024 << " KiB JSON\n"
        << "  parse+validate+index: " << QString::number(parseMs, 'f', 1) << " ms ("
        << QString::number(cells / parseMs * 1000.0, 'f', 0) << " cells/s, "
        << QString::number(double(json.size()) / 1e3 / parseMs, 'f', 0) << " MB/s)\n"
        << "  reference (QJsonDocument): " << QString::number(referenceMs, 'f', 1) << " ms ("
        << QString::number(referenceMs / parseMs, 'f', 1) << "x the time" << (reference.ok() ? "" : ", REJECTED")
        << ")\n"
        << "  serialize:            " << QString::number(writeMs, 'f', 1) << " ms (" << written.size() / 1024
        << " KiB)\n";
    return 0;
}

} // namespace dreamrsi
