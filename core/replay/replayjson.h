#pragma once

#include "base/result.h"

#include "episoderesult.h"
#include "replayresult.h"
#include "roundtrace.h"

#include "model/compacttree.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dreamrsi {

/// The JSON of `dreamrsi replay --json` (docs/replay.md#the-json-output) and of `--trace`
/// lines, both ways. Numbers go through QJsonDocument, which prints the
/// shortest form that reads back to the same double.
namespace ReplayJson {

/// The object of docs/replay.md#the-replay-command: policy, lambda, workers, betas, value, worlds[…].
QJsonObject resultToJson(const ReplayResult &result);
/// Exactly the bytes of QJsonDocument(resultToJson(result)).toJson(Indented)
/// (keys sorted, four-space indent, Qt's number forms), written directly:
/// building the document costs more than the replay itself for large sweeps.
QByteArray resultToIndentedJson(const ReplayResult &result);
/// One world's entry of "worlds" in resultToIndentedJson(), indented as it is
/// there (its first line without the indent): worlds can be written on the
/// threads that replayed them.
QByteArray sweepToIndentedJson(const SweepResult &sweep);
/// sweepToIndentedJson() with each episode's reveal order given apart, as
/// indices into world.cells (revealed[i] for episode i; the episodes' own
/// `revealed` lists are not read): what CompactReplay hands over.
QByteArray sweepToIndentedJson(const SweepResult &sweep, const CompactTree &world,
                               const std::vector<std::vector<int>> &revealed);
/// resultToIndentedJson() without its world entries: `text` is everything
/// else, and world i's entry goes at byte entryAt[i] of it (ascending).
struct IndentedFrame
{
    std::string text;
    std::vector<size_t> entryAt;

    /// The whole document as pieces in order, the frame's and each world's
    /// entry (written by sweepToIndentedJson(), in the order of
    /// result.worlds) where they are: output can be gathered from them
    /// without a copy of them all. Valid while this frame and the entries are.
    std::vector<std::string_view> pieces(const QList<QByteArray> &worldEntries) const;
};
IndentedFrame resultToIndentedFrame(const ReplayResult &result);
/// resultToIndentedJson() with each world's entry already written: the
/// pieces above joined.
std::string resultToIndentedJson(const ReplayResult &result, const QList<QByteArray> &worldEntries);
/// Reads resultToJson() output back (also what a child `dreamrsi replay`
/// printed). A failure that names the field on a malformed document.
Result<ReplayResult> resultFromJson(const QJsonObject &object);

/// One trace line: {"world", "beta", "calls", "rounds", "best", "attainment",
/// "error", "plan", "rounds_trace": [{"round", "prefix", "batch", "revealed", "error"}]}.
QJsonObject episodeTraceToJson(const QString &world, const EpisodeResult &episode);
/// One trace line read back: the world it was replayed in and the episode
/// with its trace.
struct EpisodeTrace
{
    QString world;
    EpisodeResult episode;
};
/// Parses one trace line; a failure names what is missing.
Result<EpisodeTrace> episodeTraceFromJson(const QJsonObject &object);

/// One compact JSON line per (world, β) episode, worlds in order, β in grid order.
QByteArray traceLines(const ReplayResult &result);

} // namespace ReplayJson
} // namespace dreamrsi
