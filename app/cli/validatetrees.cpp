// `dreamrsi validate FILE…` over tree files only, as the launcher runs it
// (launcher.cpp): no run import, so that the launcher links neither it nor
// SQLite. validatecommand.cpp reads tree files the same way
// (TreeJson::readFactsFilesEach), so both print the same lines.
#include "validatetrees.h"

#include "base/sqliteheader.h"
#include "model/treejson.h"
#include "model/treesummary.h"

#include <QFile>

#include <sys/stat.h>

namespace dreamrsi {

namespace {

/// Whether `path` is named as RunImport names an SQLite database: *.sqlite,
/// *.sqlite3 or *.db.
bool hasDatabaseName(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    const qsizetype dot = path.lastIndexOf(QLatin1Char('.'));
    if (dot <= slash)
        return false;
    const QStringView suffix = QStringView(path).mid(dot + 1);
    return suffix.compare(QLatin1String("sqlite"), Qt::CaseInsensitive) == 0
        || suffix.compare(QLatin1String("sqlite3"), Qt::CaseInsensitive) == 0
        || suffix.compare(QLatin1String("db"), Qt::CaseInsensitive) == 0;
}

/// Whether RunImport::looksLikeRunPath() may say yes for `path` by its
/// status and name alone: a folder, or a file named as a database.
bool mayBeRunByName(const QString &path)
{
    struct stat info;
    const QByteArray name = QFile::encodeName(path);
    if (::stat(name.constData(), &info) != 0)
        return false; // neither a folder nor a file: validate says it cannot be read
    if (S_ISDIR(info.st_mode))
        return true;
    return S_ISREG(info.st_mode) && hasDatabaseName(path);
}

} // namespace

std::optional<int> runValidateTreeFilesCommand(const QStringList &files, QTextStream &out, QTextStream &err)
{
    // A file named as a database goes to the full command before anything
    // is read. A folder shows itself when read (it is no regular file), so
    // the files are not stat()ed one by one first (3 % of a 1,000-file
    // validate, all on one thread).
    for (const QString &file : files) {
        if (hasDatabaseName(file) && mayBeRunByName(file))
            return std::nullopt;
    }
    // Each file's line (its summary, or the error) is made on the thread
    // that read it.
    struct Outcome
    {
        bool ok = false;
        QString text;
    };
    QList<Outcome> read(files.size());
    Outcome *into = read.data();
    TreeJson::readFactsFilesEach(files, [into](qsizetype i, Result<TreeFacts> &&r) {
        into[i] = r ? Outcome{true, summarizeTree(*r.value)} : Outcome{false, r.error};
    });
    // A file that is no tree may be a folder, or a ShinkaEvolve database by
    // its bytes: the full command decides.
    for (qsizetype i = 0; i < files.size(); ++i) {
        if (!read.at(i).ok && (mayBeRunByName(files.at(i)) || hasSqliteHeader(files.at(i))))
            return std::nullopt;
    }
    int invalid = 0;
    for (qsizetype i = 0; i < files.size(); ++i) {
        if (read.at(i).ok) {
            out << files.at(i) << ": ok: " << read.at(i).text << '\n';
        } else {
            ++invalid;
            err << "error: " << read.at(i).text << '\n';
        }
    }
    out.flush();
    err.flush();
    return invalid == 0 ? 0 : 1;
}

} // namespace dreamrsi
