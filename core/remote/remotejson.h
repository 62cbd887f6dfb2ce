#pragma once

#include "base/result.h"

#include "loop/round/roundliveness.h"
#include "loop/round/steeringinbox.h"
#include "store/storetypes.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace dreamrsi {

/// A served project as GET /api/v1/project describes it (docs/remote.md),
/// read back into the store's types: what the window shows of it.
struct RemoteProjectSummary
{
    QString name;
    QString task;
    QList<IterationInfo> iterations;
    QList<PolicyVersion> versions;
    StoredReplayConfig replayConfig;
    QList<Approval> approvals;
};

/// Reading the endpoints' JSON (RemoteApi writes it) back into the store's
/// types, for whoever shows a served project (the window's remote project,
/// its follower). Each is RemoteApi's writer read backwards; what the
/// writer leaves out stays at its default.
namespace RemoteJson {

IterationInfo iterationFrom(const QJsonObject &o);
PolicyVersion versionFrom(const QJsonObject &o);
Approval approvalFrom(const QJsonObject &o);
/// `replay_config` of /project: the configuration and where it came from.
StoredReplayConfig replayConfigFrom(const QJsonObject &o);
/// One episode of /replay-results.
ReplayResultRecord resultFrom(const QJsonObject &o);
/// The body of GET /api/v1/project; a failure when it is not one.
Result<RemoteProjectSummary> projectFrom(const QJsonObject &o);
/// The body of GET /api/v1/replay-results.
QList<ReplayResultRecord> resultsFrom(const QJsonObject &o);
/// The body of GET /api/v1/iterations/N/cells/ID/artifacts: the cell's files.
QList<ArtifactRef> artifactsFrom(const QJsonObject &o);
/// A stream's `state` or `attempts` event (IterationLiveness::toJson's object).
IterationLiveness livenessFrom(const QJsonObject &o);
/// The words `dreamrsi steer` takes for `request` (close 3, hint new TEXT,
/// kill b2a3, …): the `request` of POST /api/v1/steer.
QString steeringWords(const SteeringRequest &request);

} // namespace RemoteJson

} // namespace dreamrsi
