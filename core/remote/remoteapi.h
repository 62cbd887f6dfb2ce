#pragma once

#include "base/result.h"

#include "loop/round/roundliveness.h"
#include "store/storetypes.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace dreamrsi {

class ProjectReader;

/// The bodies of a served project's endpoints (docs/remote.md), read from
/// the project as a reader only: what `dreamrsi serve` answers, and what
/// the reading side (`dreamrsi status|export URL`, the window) reads back.
/// Every function reads one thing through a ProjectReader; none writes.
namespace RemoteApi {

/// The version prefix of every path: `/api/v1`.
inline constexpr char Prefix[] = "/api/v1";

/// GET /api/v1/project: the project's name and task, its iterations (the
/// rows, not the cells), policy versions (with their code), replay
/// configuration, approvals, re-evaluations and steering events.
Result<QJsonObject> project(ProjectReader &reader);

/// GET /api/v1/replay-results?version=ID: the stored replay results of one
/// version (every version when `version` is 0), one object per episode.
Result<QJsonObject> replayResults(ProjectReader &reader, PolicyVersionId version);

/// GET /api/v1/iterations/N/tree: exactly what `dreamrsi export P
/// --iteration N` prints (`dreamrsi-tree/1`).
Result<QByteArray> tree(ProjectReader &reader, IterationId iteration);

/// An iteration's state as `dreamrsi status` names it (live, stalled,
/// interrupted, finished), from its row, the cells' times seen so far, the
/// attempts the writer publishes and whether it lives (RoundLiveness::observe).
QString stateOf(const IterationInfo &info, const StoredTimes &stored, const QString &projectPath);

/// GET /api/v1/iterations/N/cells?after=SEQ: `{"cells": [...], "last_seq":
/// S, "state": "live|stalled|interrupted|finished"}`, the cells stored after
/// `afterSeq` (each as in the tree file) in seq order; `last_seq` the
/// largest seq among them, or `afterSeq` when there is none. `stored` are
/// the times of the iteration's cells the caller has seen (the stall rule's
/// median); empty is fine for an iteration that is not live.
Result<QJsonObject> cellsAfter(ProjectReader &reader, const QString &projectPath, IterationId iteration, qint64 afterSeq,
                               const StoredTimes &stored = {});

/// GET /api/v1/status: what `dreamrsi status --json` prints, `{"iterations": [...]}`.
QJsonObject status(const QList<IterationLiveness> &iterations);

/// True for a lowercase hex SHA-256 (64 characters): the only artifact
/// names a server answers (no path, no traversal).
bool isArtifactHash(const QString &text);

/// True for what a cell's id can be in a path: 1 to 100 letters, digits,
/// `_`, `-` or `.` (b3a2; an imported run's ids).
bool isCellId(const QString &text);

/// GET /api/v1/iterations/N/cells/ID/artifacts: the files the cell refers to,
/// `{"iteration": N, "cell": ID, "artifacts": [{"name", "hash", "size"}]}`
/// in the store's order (each fetched by its hash from /artifacts/HASH).
/// A failure naming the iteration or the cell when it has none such.
Result<QJsonObject> cellArtifacts(ProjectReader &reader, IterationId iteration, const QString &cellId);

/// The JSON of an iteration's row, as /project lists it and the stream's
/// `iteration` event carries it.
QJsonObject iterationJson(const IterationInfo &info);

/// {"error": message, "status": code}: every refusal's body.
QJsonObject error(int status, const QString &message);

} // namespace RemoteApi

} // namespace dreamrsi
