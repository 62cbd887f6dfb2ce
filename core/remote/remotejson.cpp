#include "remotejson.h"

#include <QJsonArray>

namespace dreamrsi::RemoteJson {

namespace {

QDateTime timeOf(const QJsonValue &v)
{
    return v.isString() ? QDateTime::fromString(v.toString(), Qt::ISODateWithMs).toUTC() : QDateTime();
}

std::optional<double> numberOf(const QJsonValue &v)
{
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

std::optional<qint64> integerOf(const QJsonValue &v)
{
    return v.isDouble() ? std::optional<qint64>(v.toInteger()) : std::nullopt;
}

std::optional<GridShape> gridOf(const QJsonValue &v)
{
    if (!v.isObject())
        return std::nullopt;
    const QJsonObject g = v.toObject();
    return GridShape{g.value(QStringLiteral("branches")).toInt(), g.value(QStringLiteral("refinements")).toInt()};
}

} // namespace

IterationInfo iterationFrom(const QJsonObject &o)
{
    IterationInfo info;
    info.id = o.value(QStringLiteral("id")).toInteger();
    info.number = integerOf(o.value(QStringLiteral("number")));
    if (o.value(QStringLiteral("task")).isString())
        info.task = o.value(QStringLiteral("task")).toString();
    info.status = iterationStatusFromName(o.value(QStringLiteral("status")).toString()).value_or(IterationStatus::Finished);
    info.started = timeOf(o.value(QStringLiteral("started")));
    info.finished = timeOf(o.value(QStringLiteral("finished")));
    info.cellCount = o.value(QStringLiteral("cells")).toInteger();
    info.bestScore = numberOf(o.value(QStringLiteral("best_score")));
    info.baselineScore = numberOf(o.value(QStringLiteral("baseline_score")));
    if (const auto w = integerOf(o.value(QStringLiteral("max_parallelism"))))
        info.maxParallelism = int(*w);
    if (const auto k = integerOf(o.value(QStringLiteral("round_limit"))))
        info.roundLimit = int(*k);
    info.callLimit = integerOf(o.value(QStringLiteral("call_limit")));
    info.grid = gridOf(o.value(QStringLiteral("grid")));
    info.beta = numberOf(o.value(QStringLiteral("beta")));
    info.policyVersion = o.value(QStringLiteral("policy_version")).toInteger();
    info.source = o.value(QStringLiteral("source")).toString();
    return info;
}

PolicyVersion versionFrom(const QJsonObject &o)
{
    PolicyVersion v;
    v.id = o.value(QStringLiteral("id")).toInteger();
    v.name = o.value(QStringLiteral("name")).toString();
    v.parent = o.value(QStringLiteral("parent")).toInteger();
    v.origin = policyOriginFromName(o.value(QStringLiteral("origin")).toString()).value_or(PolicyOrigin::Human);
    v.created = timeOf(o.value(QStringLiteral("created")));
    v.code = o.value(QStringLiteral("code")).toString();
    v.prompt = o.value(QStringLiteral("prompt")).toString();
    v.response = o.value(QStringLiteral("response")).toString();
    return v;
}

Approval approvalFrom(const QJsonObject &o)
{
    Approval a;
    a.id = o.value(QStringLiteral("id")).toInteger();
    a.version = o.value(QStringLiteral("version")).toInteger();
    a.when = timeOf(o.value(QStringLiteral("when")));
    a.who = o.value(QStringLiteral("who")).toString();
    a.note = o.value(QStringLiteral("note")).toString();
    a.evidence = o.value(QStringLiteral("evidence")).toObject();
    return a;
}

StoredReplayConfig replayConfigFrom(const QJsonObject &o)
{
    StoredReplayConfig stored;
    ReplayConfig &c = stored.config;
    c.workers = o.value(QStringLiteral("workers")).toInt(c.workers);
    c.lambda = o.value(QStringLiteral("lambda")).toDouble(c.lambda);
    if (o.value(QStringLiteral("betas")).isArray()) {
        c.betas.clear();
        for (const QJsonValue &b : o.value(QStringLiteral("betas")).toArray())
            c.betas.append(b.toDouble());
    }
    if (const auto k = integerOf(o.value(QStringLiteral("rounds"))))
        c.rounds = int(*k);
    c.valuation = valuationFromName(o.value(QStringLiteral("valuation")).toString()).value_or(c.valuation);
    c.completions = o.value(QStringLiteral("completions")).toInt(c.completions);
    c.rule = imaginationRuleFromName(o.value(QStringLiteral("rule")).toString()).value_or(c.rule);
    stored.origin = replayConfigOriginFromName(o.value(QStringLiteral("origin")).toString()).value_or(ReplayConfigOrigin::Default);
    stored.updated = timeOf(o.value(QStringLiteral("updated")));
    return stored;
}

ReplayResultRecord resultFrom(const QJsonObject &o)
{
    ReplayResultRecord r;
    r.key.version = o.value(QStringLiteral("version")).toInteger();
    r.key.world = o.value(QStringLiteral("world")).toInteger();
    r.key.beta = o.value(QStringLiteral("beta")).toDouble();
    r.key.workers = o.value(QStringLiteral("workers")).toInt();
    r.key.lambda = o.value(QStringLiteral("lambda")).toDouble();
    if (const auto k = integerOf(o.value(QStringLiteral("round_limit"))))
        r.key.rounds = int(*k);
    r.key.grid = gridOf(o.value(QStringLiteral("grid")));
    r.key.completions = o.value(QStringLiteral("completions")).toInt();
    r.key.completion = o.value(QStringLiteral("completion")).toInt();
    r.key.rule = imaginationRuleFromName(o.value(QStringLiteral("rule")).toString()).value_or(ImaginationRule::Capped);
    r.calls = o.value(QStringLiteral("calls")).toInteger();
    r.rounds = o.value(QStringLiteral("rounds")).toInt();
    r.best = o.value(QStringLiteral("best")).toDouble();
    r.attainment = o.value(QStringLiteral("attainment")).toDouble();
    for (const QJsonValue &id : o.value(QStringLiteral("revealed")).toArray())
        r.revealed.append(id.toString());
    if (o.value(QStringLiteral("error")).isString())
        r.error = o.value(QStringLiteral("error")).toString();
    r.created = timeOf(o.value(QStringLiteral("created")));
    return r;
}

Result<RemoteProjectSummary> projectFrom(const QJsonObject &o)
{
    using R = Result<RemoteProjectSummary>;
    if (!o.value(QStringLiteral("iterations")).isArray() || !o.value(QStringLiteral("policy_versions")).isArray())
        return R::failure(QStringLiteral("the answer is not a served project (no iterations or policy_versions)"));
    RemoteProjectSummary p;
    p.name = o.value(QStringLiteral("name")).toString();
    p.task = o.value(QStringLiteral("task")).toString();
    for (const QJsonValue &v : o.value(QStringLiteral("iterations")).toArray())
        p.iterations.append(iterationFrom(v.toObject()));
    for (const QJsonValue &v : o.value(QStringLiteral("policy_versions")).toArray())
        p.versions.append(versionFrom(v.toObject()));
    p.replayConfig = replayConfigFrom(o.value(QStringLiteral("replay_config")).toObject());
    for (const QJsonValue &v : o.value(QStringLiteral("approvals")).toArray())
        p.approvals.append(approvalFrom(v.toObject()));
    return R::success(p);
}

QList<ReplayResultRecord> resultsFrom(const QJsonObject &o)
{
    QList<ReplayResultRecord> out;
    for (const QJsonValue &v : o.value(QStringLiteral("results")).toArray())
        out.append(resultFrom(v.toObject()));
    return out;
}

IterationLiveness livenessFrom(const QJsonObject &o)
{
    IterationLiveness l;
    l.iteration = o.value(QStringLiteral("iteration")).toInteger();
    l.state = o.value(QStringLiteral("state")).toString();
    l.stopped = o.value(QStringLiteral("status")).toString();
    l.lastCellAt = timeOf(o.value(QStringLiteral("last_cell_at")));
    l.thresholdS = o.value(QStringLiteral("threshold_s")).toDouble();
    l.why = o.value(QStringLiteral("why")).toString();
    for (const QJsonValue &v : o.value(QStringLiteral("attempts")).toArray()) {
        const QJsonObject a = v.toObject();
        l.attempts.append(AttemptLiveness{a.value(QStringLiteral("id")).toString(), a.value(QStringLiteral("phase")).toString(),
                                          a.value(QStringLiteral("age_s")).toDouble(), a.value(QStringLiteral("stalled")).toBool(),
                                          a.value(QStringLiteral("why")).toString()});
    }
    return l;
}

QString steeringWords(const SteeringRequest &request)
{
    const QString &action = request.action;
    if (action == QLatin1String("close") || action == QLatin1String("refine"))
        return QStringLiteral("%1 %2").arg(action).arg(request.branch.value_or(-1));
    if (action == QLatin1String("hint"))
        return QStringLiteral("hint %1 %2")
            .arg(request.newBranch ? QStringLiteral("new") : QString::number(request.branch.value_or(-1)), request.text.simplified());
    if (action == QLatin1String("kill"))
        return QStringLiteral("kill %1").arg(request.attempt);
    return action; // pause, continue
}

QList<ArtifactRef> artifactsFrom(const QJsonObject &o)
{
    QList<ArtifactRef> list;
    for (const QJsonValue &v : o.value(QStringLiteral("artifacts")).toArray()) {
        const QJsonObject a = v.toObject();
        list.append(ArtifactRef{a.value(QStringLiteral("hash")).toString(), a.value(QStringLiteral("size")).toInteger(),
                                a.value(QStringLiteral("name")).toString()});
    }
    return list;
}

} // namespace dreamrsi::RemoteJson
