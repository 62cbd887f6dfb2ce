// `dreamrsi validate FILE…`: the summary of each tree file, or what is wrong with it.
#include "commands.h"

#include "commandline.h"

#include "model/treejson.h"
#include "model/treesummary.h"

namespace dreamrsi {

namespace {

const char *const validateUsage =
    "usage: dreamrsi validate FILE...\n"
    "Checks tree files (docs/tree-format.md) and prints each one's summary, or what is wrong with it.\n"
    "Exit status: 0 every file is valid, 1 one is not, 2 usage error.\n";

} // namespace

int runValidateCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    if (const std::optional<int> answered =
            CommandLine::parseOrAnswer(parser, {}, args, validateUsage, out, [&err](const QString &message) {
                err << "dreamrsi validate: " << message << '\n' << validateUsage;
                return 2;
            }))
        return *answered;
    const QStringList files = parser.positionalArguments();
    if (files.isEmpty()) {
        err << validateUsage;
        return 2;
    }
    // Each file's line is made where it was read; only the lines are kept.
    // The summary reads no payload: it is checked, not built.
    struct Line
    {
        bool ok = false;
        QString text;
    };
    QList<Line> lines(files.size());
    Line *into = lines.data();
    TreeJson::readFilesEach(files, [into](qsizetype i, TreeJson::ParseResult &&r) {
        into[i] = r.ok() ? Line{true, summarizeTree(*r.tree)} : Line{false, r.error.message};
    }, 0, TreeJson::Payload::Skip);
    int invalid = 0;
    for (qsizetype i = 0; i < files.size(); ++i) {
        if (lines.at(i).ok) {
            out << files.at(i) << ": ok: " << lines.at(i).text << '\n';
        } else {
            ++invalid;
            err << "error: " << lines.at(i).text << '\n';
        }
    }
    out.flush();
    err.flush();
    return invalid == 0 ? 0 : 1;
}

} // namespace dreamrsi
