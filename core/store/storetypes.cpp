#include "storetypes.h"

#include <QJsonArray>
#include <QStringList>

#include <algorithm>

namespace dreamrsi {

QString iterationStatusName(IterationStatus s)
{
    switch (s) {
    case IterationStatus::Running: return QStringLiteral("running");
    case IterationStatus::Finished: return QStringLiteral("finished");
    case IterationStatus::Interrupted: return QStringLiteral("interrupted");
    case IterationStatus::Stopped: return QStringLiteral("stopped");
    }
    return {};
}

std::optional<IterationStatus> iterationStatusFromName(const QString &name)
{
    for (IterationStatus s : {IterationStatus::Running, IterationStatus::Finished, IterationStatus::Interrupted,
                              IterationStatus::Stopped}) {
        if (iterationStatusName(s) == name)
            return s;
    }
    return std::nullopt;
}

QString policyOriginName(PolicyOrigin o)
{
    switch (o) {
    case PolicyOrigin::Builtin: return QStringLiteral("builtin");
    case PolicyOrigin::Human: return QStringLiteral("human");
    case PolicyOrigin::Agent: return QStringLiteral("agent");
    }
    return {};
}

std::optional<PolicyOrigin> policyOriginFromName(const QString &name)
{
    for (PolicyOrigin o : {PolicyOrigin::Builtin, PolicyOrigin::Human, PolicyOrigin::Agent}) {
        if (policyOriginName(o) == name)
            return o;
    }
    return std::nullopt;
}

TreeMeta IterationInfo::treeMeta() const
{
    TreeMeta m;
    m.task = task;
    m.iteration = number;
    m.baselineScore = baselineScore;
    m.maxParallelism = maxParallelism;
    m.grid = grid;
    m.payload = payload;
    // insertTree keeps the tree's `approximate` with the payload.
    if (m.payload.contains(QLatin1String("approximate"))) {
        m.approximate = m.payload.value(QLatin1String("approximate")).toBool();
        m.payload.remove(QLatin1String("approximate"));
    }
    return m;
}

ReplayConfig::ReplayConfig() = default;

QString valuationName(Valuation v)
{
    return v == Valuation::Imagined ? QStringLiteral("imagined") : QStringLiteral("revealed");
}

std::optional<Valuation> valuationFromName(const QString &name)
{
    if (name == QLatin1String("imagined"))
        return Valuation::Imagined;
    if (name == QLatin1String("revealed"))
        return Valuation::Revealed;
    return std::nullopt;
}

QString ReplayConfig::label() const
{
    QStringList bs;
    for (const double b : betas)
        bs.append(QString::number(b));
    QString text = QStringLiteral("W %1, λ %2, β {%3}, %4")
                       .arg(workers)
                       .arg(QString::number(lambda))
                       .arg(bs.join(QStringLiteral(", ")),
                            rounds ? QStringLiteral("K %1").arg(*rounds) : QStringLiteral("no K"));
    if (valuation == Valuation::Imagined) {
        text += QStringLiteral(", imagined C %1").arg(completions);
        if (rule != ImaginationRule::Capped)
            text += QStringLiteral(", ") + imaginationRuleName(rule);
    }
    return text;
}

QJsonObject ReplayConfig::toJson() const
{
    QJsonArray bs;
    for (const double b : betas)
        bs.append(b);
    return QJsonObject{{QStringLiteral("workers"), workers},
                       {QStringLiteral("lambda"), lambda},
                       {QStringLiteral("betas"), bs},
                       {QStringLiteral("rounds"), rounds ? QJsonValue(*rounds) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("valuation"), valuationName(valuation)},
                       {QStringLiteral("completions"), completions},
                       {QStringLiteral("rule"), imaginationRuleName(rule)}};
}

ReplayConfig ReplayConfig::ofKey(const ReplayKey &key, const QList<double> &betas)
{
    ReplayConfig c;
    c.workers = key.workers;
    c.lambda = key.lambda;
    c.rounds = key.rounds;
    c.valuation = key.isImagined() ? Valuation::Imagined : Valuation::Revealed;
    if (key.isImagined()) {
        c.completions = key.completions;
        c.rule = key.rule;
    }
    c.betas = betas;
    std::sort(c.betas.begin(), c.betas.end());
    return c;
}

bool ReplayConfig::covers(const ReplayKey &key) const
{
    return key.workers == workers && key.lambda == lambda && key.rounds == rounds
           && key.completions == imaginedCompletions() && (!key.isImagined() || key.rule == rule)
           && betas.contains(key.beta);
}

QString replayConfigOriginName(ReplayConfigOrigin o)
{
    switch (o) {
    case ReplayConfigOrigin::Default: return QStringLiteral("default");
    case ReplayConfigOrigin::FirstRound: return QStringLiteral("first_round");
    case ReplayConfigOrigin::Dream: return QStringLiteral("dream");
    case ReplayConfigOrigin::User: return QStringLiteral("user");
    }
    return {};
}

std::optional<ReplayConfigOrigin> replayConfigOriginFromName(const QString &name)
{
    for (ReplayConfigOrigin o : {ReplayConfigOrigin::Default, ReplayConfigOrigin::FirstRound, ReplayConfigOrigin::Dream,
                                 ReplayConfigOrigin::User}) {
        if (replayConfigOriginName(o) == name)
            return o;
    }
    return std::nullopt;
}

ReplayConfig ReplayConfigOverrides::applyTo(ReplayConfig config) const
{
    if (workers)
        config.workers = *workers;
    if (lambda)
        config.lambda = *lambda;
    if (betas)
        config.betas = *betas;
    if (rounds)
        config.rounds = *rounds;
    if (valuation)
        config.valuation = *valuation;
    if (completions)
        config.completions = *completions;
    if (rule)
        config.rule = *rule;
    return config;
}

} // namespace dreamrsi
