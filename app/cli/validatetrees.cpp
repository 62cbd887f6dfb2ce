// `dreamrsi validate FILE…` over tree files only, as the launcher runs it
// (launcher.cpp): no run import, so that the launcher links neither it nor
// SQLite. validatecommand.cpp reads tree files the same way
// (TreeJson::readFactsFilesEach), so both print the same lines.
#include "validatetrees.h"

#include "model/treejson.h"
#include "model/treesummary.h"

#include <QFile>

#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dreamrsi {

namespace {

/// Whether RunImport::looksLikeRunPath() may say yes for `path` by its
/// status and name alone: a folder, or a file named *.sqlite, *.sqlite3 or *.db.
bool mayBeRunByName(const QString &path)
{
    struct stat info;
    const QByteArray name = QFile::encodeName(path);
    if (::stat(name.constData(), &info) != 0)
        return false; // neither a folder nor a file: validate says it cannot be read
    if (S_ISDIR(info.st_mode))
        return true;
    if (!S_ISREG(info.st_mode))
        return false;
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    const qsizetype dot = path.lastIndexOf(QLatin1Char('.'));
    if (dot <= slash)
        return false;
    const QString suffix = path.mid(dot + 1).toLower();
    return suffix == QLatin1String("sqlite") || suffix == QLatin1String("sqlite3") || suffix == QLatin1String("db");
}

/// Whether the file starts as an SQLite database does (RunImport's other test).
bool hasSqliteHeader(const QString &path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char head[16] = {};
    const ssize_t n = ::read(fd, head, sizeof head);
    ::close(fd);
    return n == 16 && std::memcmp(head, "SQLite format 3", 16) == 0;
}

} // namespace

std::optional<int> runValidateTreeFilesCommand(const QStringList &files, QTextStream &out, QTextStream &err)
{
    for (const QString &file : files) {
        if (mayBeRunByName(file))
            return std::nullopt;
    }
    QList<Result<TreeFacts>> read(files.size());
    Result<TreeFacts> *into = read.data();
    TreeJson::readFactsFilesEach(files, [into](qsizetype i, Result<TreeFacts> &&r) { into[i] = std::move(r); });
    // A file that is no tree may be a ShinkaEvolve database by its bytes: the
    // full command decides.
    for (qsizetype i = 0; i < files.size(); ++i) {
        if (!read.at(i) && hasSqliteHeader(files.at(i)))
            return std::nullopt;
    }
    int invalid = 0;
    for (qsizetype i = 0; i < files.size(); ++i) {
        if (read.at(i)) {
            out << files.at(i) << ": ok: " << summarizeTree(*read.at(i).value) << '\n';
        } else {
            ++invalid;
            err << "error: " << read.at(i).error << '\n';
        }
    }
    out.flush();
    err.flush();
    return invalid == 0 ? 0 : 1;
}

} // namespace dreamrsi
