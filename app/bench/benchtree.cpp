// `dreamrsi bench tree`: the tree file reader against QJsonDocument, and the writer.
#include "benches.h"

#include "model/treejson.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace dreamrsi {

int benchTree(const TreeBenchOptions &options, QTextStream &out, QTextStream &err)
{
    const int cells = options.cells;
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
    const TreeJson::ReadCounts before = TreeJson::readCounts();
    QElapsedTimer timer;
    timer.start();
    const TreeJson::ParseResult r = TreeJson::parse(json);
    const double parseMs = double(timer.nsecsElapsed()) / 1e6;
    const qint64 fallbacks = TreeJson::readCounts().fallback - before.fallback;
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
        << "  fast path: " << 1 - fallbacks << " files, fallback: " << fallbacks << '\n'
        << "  reference (QJsonDocument): " << QString::number(referenceMs, 'f', 1) << " ms ("
        << QString::number(referenceMs / parseMs, 'f', 1) << "x the time" << (reference.ok() ? "" : ", REJECTED")
        << ")\n"
        << "  serialize:            " << QString::number(writeMs, 'f', 1) << " ms (" << written.size() / 1024
        << " KiB)\n";
    return 0;
}

} // namespace dreamrsi
