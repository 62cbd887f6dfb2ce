// `dreamrsi validate FILE…`: the summary of each tree file, or what is wrong with it.
#include "commands.h"

#include "commandline.h"

#include "import/runimport.h"
#include "model/treejson.h"
#include "model/treesummary.h"

namespace dreamrsi {

namespace {

const char *const validateUsage =
    "usage: dreamrsi validate FILE|RUN... [--score METRIC]\n"
    "Checks tree files (docs/tree-format.md) and prints each one's summary, or what is wrong with it.\n"
    "A RUN (an OpenEvolve folder or a ShinkaEvolve database) is read as the tree it maps onto;\n"
    "--score METRIC scores its programs by that metric instead of combined_score.\n"
    "Exit status: 0 every file is valid, 1 one is not, 2 usage error.\n";

} // namespace

int runValidateCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const QCommandLineOption scoreOption = CommandLine::value("score", "METRIC");
    QCommandLineParser parser;
    if (const std::optional<int> answered =
            CommandLine::parseOrAnswer(parser, {scoreOption}, args, validateUsage, out, [&err](const QString &message) {
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
    // Runs are read one by one here; tree files together, on every core.
    QStringList treeFiles;
    QList<qsizetype> treeIndex;
    const RunImport::Options options{parser.value(scoreOption)};
    for (qsizetype i = 0; i < files.size(); ++i) {
        if (!RunImport::looksLikeRunPath(files.at(i))) {
            treeFiles.append(files.at(i));
            treeIndex.append(i);
            continue;
        }
        const Result<RunImport::Imported> run = RunImport::read(files.at(i), options);
        if (!run) {
            lines[i] = Line{false, run.error};
            continue;
        }
        for (const QString &note : run.value->notes)
            err << "note: " << note << '\n';
        lines[i] = Line{true, summarizeTree(run.value->tree) + QStringLiteral("; ") + RunImport::importSummary(run.value->tree)};
    }
    if (parser.isSet(scoreOption) && treeFiles.size() == files.size()) {
        err << "dreamrsi validate: --score is for runs only (an OpenEvolve folder or a ShinkaEvolve database)\n"
            << validateUsage;
        return 2;
    }
    Line *into = lines.data();
    const qsizetype *where = treeIndex.constData();
    TreeJson::readFactsFilesEach(treeFiles, [into, where](qsizetype i, Result<TreeFacts> &&r) {
        into[where[i]] = r ? Line{true, summarizeTree(*r.value)} : Line{false, r.error};
    });
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
