#pragma once

#include <functional>

#include "compacttree.h"
#include "discoverytree.h"
#include "treesummary.h"
#include "base/result.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <optional>

namespace dreamrsi {

/// Reading and writing the interchange format `dreamrsi-tree/1` (docs/tree-format.md).
///
/// A file is accepted whole or rejected whole: on any violation parse() returns
/// no tree and an error naming the cell (index and id) and the field. Keys the
/// format does not name are kept as payload and written back unchanged.
namespace TreeJson {

inline constexpr auto FormatTag = "dreamrsi-tree/1";

struct ParseResult
{
    std::optional<DiscoveryTree> tree;
    TreeError error;
    bool ok() const { return tree.has_value(); }
    /// The same outcome as core's one result type (the message of `error`).
    Result<DiscoveryTree> toResult() &&
    {
        return ok() ? Result<DiscoveryTree>::success(std::move(*tree)) : Result<DiscoveryTree>::failure(error.message);
    }
};

/// How this process read tree files so far: how many the fast reading
/// decided and how many went to the reference reading because the fast one
/// declined them (every invalid file, and any valid file it cannot take,
/// which is a regression to look into). The compact reading of
/// readCompactFile() is counted on its own; a file it declines is read in
/// full, and counted there too. Files served by the compact world cache are
/// not read, and not counted.
struct ReadCounts
{
    qint64 fast = 0;            ///< parse() and readFile() decided by the fast reading
    qint64 fallback = 0;        ///< parse() and readFile() decided by parseReference()
    qint64 compactFast = 0;     ///< readCompactFile() straight from the bytes
    qint64 compactFallback = 0; ///< readCompactFile() through readFile()
};
ReadCounts readCounts();

/// Fast (simdjson) for valid files; anything it does not accept is read again by
/// parseReference(), so the result and every message are exactly the reference's.
ParseResult parse(const QByteArray &json);
/// The reference reading (QJsonDocument plus per-field checks): the messages'
/// source, and the cross-check of parse() in the fuzz suite.
ParseResult parseReference(const QByteArray &json);
/// Whether a reading keeps the payload keys (those the format does not
/// name) of the tree and its cells. Skip is for callers that never look at
/// them (a replay, validate's summary): they are checked all the same, so
/// the verdict and every message are the same, but building them as
/// QJsonObjects is most of the cost of reading a file with rich payload.
/// A file the fast reading declines may still come with its payload.
enum class Payload { Keep, Skip };

/// Reads and parses a file; the error message starts with the path.
ParseResult readFile(const QString &path, Payload payload = Payload::Keep);
/// The compact form of a tree file, for replaying built-in policies: from
/// the compact world cache when `useCache` and it holds the file as it is
/// now (CompactCache), else read straight from the file when it is valid,
/// else through readFile() (so a file is accepted or rejected exactly as
/// readFile() does it, with its message, path first). A file read is put in
/// the cache when `useCache`.
Result<CompactTree> readCompactFile(const QString &path, bool useCache = false);
/// What `dreamrsi validate` says of a tree file: the facts of its summary
/// (treeFacts(), summarizeTree()) when it is valid, else readFile()'s
/// message. Accepted or rejected exactly as readFile() does it; a valid file
/// is read as readCompactFile() reads it, without building its tree.
Result<TreeFacts> readFactsFile(const QString &path);
/// readFactsFile() for every path on up to `threads` threads (0: one a core),
/// each handed to `take(index, facts)` on the thread that read it.
void readFactsFilesEach(const QStringList &paths, const std::function<void(qsizetype, Result<TreeFacts> &&)> &take,
                        int threads = 0);
/// Whether the tree file at `path` is an approximate world (its top-level
/// `approximate`): from the compact world cache when `useCache` and it holds
/// the file as it is now, else without parsing files that do not spell the
/// word at all. A file that cannot be read or parsed answers false: reading
/// it for the replay then reports why.
bool isApproximateFile(const QString &path, bool useCache = false);
/// readFile() for every path on up to `threads` threads (0: one a core); the
/// results are in the order of `paths`, whatever the thread count.
QList<ParseResult> readFiles(const QStringList &paths, int threads = 0, Payload payload = Payload::Keep);
/// readFiles() handing each result to `take(index, result)` on the thread
/// that read it, in no particular order: for callers that keep only a
/// digest of each tree, whose trees are then freed in parallel too.
void readFilesEach(const QStringList &paths, const std::function<void(qsizetype, ParseResult &&)> &take,
                   int threads = 0, Payload payload = Payload::Keep);

QJsonObject cellToJson(const Cell &cell);
/// One cell as a tree file holds it (the reference reading's rules for a
/// cell, cellToJson()'s inverse), for a cell that comes alone (a served
/// project's stream, docs/remote.md): a failure naming the field otherwise.
Result<Cell> cellFromJson(const QJsonObject &object);
QJsonObject toJson(const DiscoveryTree &tree);
/// Canonical form: cells sorted by seq, every known field written with its resolved value.
QByteArray serialize(const DiscoveryTree &tree, QJsonDocument::JsonFormat format = QJsonDocument::Indented);
/// Writes atomically (QSaveFile); a failure names the path and the cause.
Result<Done> writeFile(const DiscoveryTree &tree, const QString &path);

} // namespace TreeJson
} // namespace dreamrsi
