#include "remoteapi.h"

#include "model/treejson.h"
#include "store/projectreader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

namespace dreamrsi::RemoteApi {

namespace {

QJsonValue orNull(const std::optional<double> &v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QJsonValue orNull(const std::optional<qint64> &v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QJsonValue orNull(const std::optional<int> &v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QJsonValue time(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue(QJsonValue::Null);
}

QJsonValue grid(const std::optional<GridShape> &g)
{
    if (!g)
        return QJsonValue(QJsonValue::Null);
    return QJsonObject{{QStringLiteral("branches"), g->branches}, {QStringLiteral("refinements"), g->refinements}};
}

QJsonObject versionJson(const PolicyVersion &v)
{
    return QJsonObject{{QStringLiteral("id"), v.id},
                       {QStringLiteral("name"), v.name},
                       {QStringLiteral("parent"), v.parent},
                       {QStringLiteral("origin"), policyOriginName(v.origin)},
                       {QStringLiteral("created"), time(v.created)},
                       {QStringLiteral("code"), v.code},
                       {QStringLiteral("prompt"), v.prompt},
                       {QStringLiteral("response"), v.response}};
}

QJsonObject approvalJson(const Approval &a)
{
    return QJsonObject{{QStringLiteral("id"), a.id},         {QStringLiteral("version"), a.version},
                       {QStringLiteral("when"), time(a.when)}, {QStringLiteral("who"), a.who},
                       {QStringLiteral("note"), a.note},     {QStringLiteral("evidence"), a.evidence}};
}

QJsonObject reevaluationJson(const ReevaluationRecord &r)
{
    return QJsonObject{{QStringLiteral("id"), r.id},
                       {QStringLiteral("iteration"), r.iteration},
                       {QStringLiteral("cell"), r.cellId},
                       {QStringLiteral("score"), orNull(r.score)},
                       {QStringLiteral("fail_class"), r.failClass},
                       {QStringLiteral("error"), r.error},
                       {QStringLiteral("seconds"), r.seconds},
                       {QStringLiteral("backend"), r.backend},
                       {QStringLiteral("host"), r.host},
                       {QStringLiteral("job_id"), r.jobId},
                       {QStringLiteral("time"), time(r.time)}};
}

QJsonObject steeringJson(const SteeringEvent &e)
{
    return QJsonObject{{QStringLiteral("id"), e.id},
                       {QStringLiteral("iteration"), e.iteration},
                       {QStringLiteral("round"), orNull(e.round)},
                       {QStringLiteral("time"), time(e.time)},
                       {QStringLiteral("who"), e.who},
                       {QStringLiteral("action"), e.action},
                       {QStringLiteral("branch"), orNull(e.branch)},
                       {QStringLiteral("target"), e.target},
                       {QStringLiteral("text"), e.text},
                       {QStringLiteral("why"), e.why},
                       {QStringLiteral("request"), e.requestId},
                       {QStringLiteral("payload"), e.payload}};
}

QJsonObject resultJson(const ReplayResultRecord &r)
{
    return QJsonObject{{QStringLiteral("version"), r.key.version},
                       {QStringLiteral("world"), r.key.world},
                       {QStringLiteral("beta"), r.key.beta},
                       {QStringLiteral("workers"), r.key.workers},
                       {QStringLiteral("lambda"), r.key.lambda},
                       {QStringLiteral("round_limit"), orNull(r.key.rounds)},
                       {QStringLiteral("grid"), grid(r.key.grid)},
                       {QStringLiteral("completions"), r.key.completions},
                       {QStringLiteral("completion"), r.key.completion},
                       {QStringLiteral("rule"), imaginationRuleName(r.key.rule)},
                       {QStringLiteral("calls"), r.calls},
                       {QStringLiteral("rounds"), r.rounds},
                       {QStringLiteral("best"), r.best},
                       {QStringLiteral("attainment"), r.attainment},
                       {QStringLiteral("revealed"), QJsonArray::fromStringList(r.revealed)},
                       {QStringLiteral("error"), r.error ? QJsonValue(*r.error) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("created"), time(r.created)}};
}

} // namespace

QJsonObject iterationJson(const IterationInfo &info)
{
    return QJsonObject{{QStringLiteral("id"), info.id},
                       {QStringLiteral("number"), orNull(info.number)},
                       {QStringLiteral("task"), info.task ? QJsonValue(*info.task) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("status"), iterationStatusName(info.status)},
                       {QStringLiteral("started"), time(info.started)},
                       {QStringLiteral("finished"), time(info.finished)},
                       {QStringLiteral("cells"), info.cellCount},
                       {QStringLiteral("best_score"), orNull(info.bestScore)},
                       {QStringLiteral("baseline_score"), orNull(info.baselineScore)},
                       {QStringLiteral("max_parallelism"), orNull(info.maxParallelism)},
                       {QStringLiteral("round_limit"), orNull(info.roundLimit)},
                       {QStringLiteral("call_limit"), orNull(info.callLimit)},
                       {QStringLiteral("grid"), grid(info.grid)},
                       {QStringLiteral("beta"), orNull(info.beta)},
                       {QStringLiteral("policy_version"), info.policyVersion},
                       {QStringLiteral("source"), info.source}};
}

Result<QJsonObject> project(ProjectReader &reader)
{
    using R = Result<QJsonObject>;
    const StoreResult<ProjectInfo> info = reader.projectInfo();
    if (!info)
        return info.failureAs<QJsonObject>();
    const StoreResult<QList<IterationInfo>> iterations = reader.iterations();
    const StoreResult<QList<PolicyVersion>> versions = reader.policyVersions();
    const StoreResult<StoredReplayConfig> config = reader.replayConfig();
    const StoreResult<QList<Approval>> approvals = reader.approvals();
    const StoreResult<QList<ReevaluationRecord>> reevaluations = reader.reevaluations();
    const StoreResult<QList<SteeringEvent>> events = reader.steeringEvents();
    for (const QString *error : {&iterations.error, &versions.error, &config.error, &approvals.error, &reevaluations.error,
                                 &events.error}) {
        if (!error->isEmpty())
            return R::failure(*error);
    }
    QJsonArray its;
    for (const IterationInfo &it : *iterations.value)
        its.append(iterationJson(it));
    QJsonArray vs;
    for (const PolicyVersion &v : *versions.value)
        vs.append(versionJson(v));
    QJsonArray as;
    for (const Approval &a : *approvals.value)
        as.append(approvalJson(a));
    QJsonArray rs;
    for (const ReevaluationRecord &r : *reevaluations.value)
        rs.append(reevaluationJson(r));
    QJsonArray es;
    for (const SteeringEvent &e : *events.value)
        es.append(steeringJson(e));
    QJsonObject replay = config.value->config.toJson();
    replay.insert(QStringLiteral("origin"), replayConfigOriginName(config.value->origin));
    replay.insert(QStringLiteral("updated"), time(config.value->updated));
    return R::success(QJsonObject{{QStringLiteral("name"), info.value->name},
                                  {QStringLiteral("task"), info.value->task},
                                  {QStringLiteral("settings"), info.value->settings},
                                  {QStringLiteral("created"), time(info.value->created)},
                                  {QStringLiteral("schema_version"), info.value->schemaVersion},
                                  {QStringLiteral("iterations"), its},
                                  {QStringLiteral("policy_versions"), vs},
                                  {QStringLiteral("replay_config"), replay},
                                  {QStringLiteral("approvals"), as},
                                  {QStringLiteral("reevaluations"), rs},
                                  {QStringLiteral("steering_events"), es}});
}

Result<QJsonObject> replayResults(ProjectReader &reader, PolicyVersionId version)
{
    const StoreResult<QList<ReplayResultRecord>> records = reader.replayResults(version);
    if (!records)
        return records.failureAs<QJsonObject>();
    QJsonArray list;
    for (const ReplayResultRecord &r : *records.value)
        list.append(resultJson(r));
    return Result<QJsonObject>::success(QJsonObject{{QStringLiteral("results"), list}});
}

Result<QByteArray> tree(ProjectReader &reader, IterationId iteration)
{
    const StoreResult<DiscoveryTree> t = reader.loadIteration(iteration);
    if (!t)
        return t.failureAs<QByteArray>();
    return Result<QByteArray>::success(TreeJson::serialize(*t.value));
}

QString stateOf(const IterationInfo &info, const StoredTimes &stored, const QString &projectPath)
{
    if (info.status != IterationStatus::Running)
        return RoundLiveness::assess(info, stored, std::nullopt, false, QDateTime::currentDateTimeUtc()).state;
    const RoundLiveness::Observed observed = RoundLiveness::observe(projectPath);
    return RoundLiveness::assess(info, stored, observed.recordOf(info), observed.writerAlive,
                                 QDateTime::currentDateTimeUtc())
        .state;
}

Result<QJsonObject> cellsAfter(ProjectReader &reader, const QString &projectPath, IterationId iteration, qint64 afterSeq,
                               const StoredTimes &stored)
{
    const StoreResult<IterationData> data = reader.iterationDataAfter(iteration, afterSeq);
    if (!data)
        return data.failureAs<QJsonObject>();
    QJsonArray cells;
    qint64 last = afterSeq;
    for (const Cell &c : data.value->cells) {
        cells.append(TreeJson::cellToJson(c));
        last = std::max(last, c.seq);
    }
    return Result<QJsonObject>::success(QJsonObject{{QStringLiteral("cells"), cells},
                                                    {QStringLiteral("last_seq"), last},
                                                    {QStringLiteral("state"), stateOf(data.value->info, stored, projectPath)}});
}

QJsonObject status(const QList<IterationLiveness> &iterations)
{
    QJsonArray list;
    for (const IterationLiveness &it : iterations)
        list.append(it.toJson());
    return QJsonObject{{QStringLiteral("iterations"), list}};
}

bool isArtifactHash(const QString &text)
{
    static const QRegularExpression hash(QStringLiteral("^[0-9a-f]{64}$"));
    return hash.match(text).hasMatch();
}

bool isCellId(const QString &text)
{
    static const QRegularExpression id(QStringLiteral("^[A-Za-z0-9_.-]{1,100}$"));
    return id.match(text).hasMatch() && text != QLatin1String(".") && text != QLatin1String("..");
}

Result<QJsonObject> cellArtifacts(ProjectReader &reader, IterationId iteration, const QString &cellId)
{
    using R = Result<QJsonObject>;
    const StoreResult<QList<ArtifactRef>> refs = reader.cellArtifacts(iteration, cellId);
    if (!refs)
        return R::failure(refs.error);
    if (refs.value->isEmpty()) {
        // No files: a cell without any, or no such cell (said as not found).
        const StoreResult<IterationData> data = reader.iterationDataAfter(iteration, -1);
        if (!data)
            return R::failure(data.error);
        const bool known = std::any_of(data.value->cells.cbegin(), data.value->cells.cend(),
                                       [&](const Cell &c) { return c.id == cellId; });
        if (!known)
            return R::failure(QStringLiteral("no such cell '%1' in iteration %2").arg(cellId).arg(iteration));
    }
    QJsonArray list;
    for (const ArtifactRef &a : std::as_const(*refs.value))
        list.append(QJsonObject{{QStringLiteral("name"), a.name}, {QStringLiteral("hash"), a.hash}, {QStringLiteral("size"), a.size}});
    return R::success(QJsonObject{{QStringLiteral("iteration"), iteration}, {QStringLiteral("cell"), cellId},
                                  {QStringLiteral("artifacts"), list}});
}

QJsonObject error(int status, const QString &message)
{
    return QJsonObject{{QStringLiteral("error"), message}, {QStringLiteral("status"), status}};
}

} // namespace dreamrsi::RemoteApi
