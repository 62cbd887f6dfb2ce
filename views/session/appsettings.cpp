#include "appsettings.h"

#include "loop/round/steeringinbox.h"

#include <QJsonDocument>
#include <QSettings>
#include <QStringList>

#include <algorithm>

namespace dreamrsi {

namespace {
constexpr auto AgentTimeLimitKey = "agent/timeLimitMin";
} // namespace

int AppSettings::loadAgentTimeLimitMin()
{
    QSettings s;
    // Before Settings had it, Launch Round kept it in its own group.
    const QVariant value = s.contains(QLatin1String(AgentTimeLimitKey))
                               ? s.value(QLatin1String(AgentTimeLimitKey))
                               : s.value(QStringLiteral("launchRound/agentTimeLimitMin"), DefaultAgentTimeLimitMin);
    bool ok = false;
    const int minutes = value.toInt(&ok);
    return ok ? std::clamp(minutes, 0, MaxAgentTimeLimitMin) : DefaultAgentTimeLimitMin;
}

void AppSettings::saveAgentTimeLimitMin(int minutes)
{
    QSettings().setValue(QLatin1String(AgentTimeLimitKey), std::clamp(minutes, 0, MaxAgentTimeLimitMin));
}

AppSettings AppSettings::load()
{
    QSettings s;
    AppSettings a;
    a.theme = Theme(std::clamp(s.value(QStringLiteral("ui/theme"), int(Theme::System)).toInt(), 0, 2));
    a.workers = std::clamp(s.value(QStringLiteral("replay/workers"), a.workers).toInt(), 1, 1000);
    a.lambda = s.value(QStringLiteral("replay/lambda"), a.lambda).toDouble();
    if (auto betas = parseBetas(s.value(QStringLiteral("replay/betas")).toString()))
        a.betas = *betas;
    a.scriptTimeLimitMs = std::clamp(s.value(QStringLiteral("replay/timeLimitMs"), a.scriptTimeLimitMs).toInt(), 10, 600000);
    a.replayMemoryLimitMb =
        std::clamp(s.value(QStringLiteral("replay/memoryLimitMb"), a.replayMemoryLimitMb).toInt(), 256, 1 << 20);
    a.replayWallLimitS = std::clamp(s.value(QStringLiteral("replay/wallLimitS"), a.replayWallLimitS).toInt(), 5, 86400);
    a.includeApproximate = s.value(QStringLiteral("replay/includeApproximate"), false).toBool();
    a.playIntervalMs = std::clamp(s.value(QStringLiteral("replay/playIntervalMs"), a.playIntervalMs).toInt(), 30, 10000);
    const QByteArray prices = s.value(QStringLiteral("agent/prices")).toByteArray();
    if (!prices.isEmpty()) {
        if (const Result<PriceTable> table = PriceTable::fromJson(QJsonDocument::fromJson(prices).object()); table.ok())
            a.prices = *table.value;
        else
            qWarning("settings: %s; using the default prices", qPrintable(table.error));
    }
    PriceTable::setCurrent(a.prices);
    a.slurmPartition = s.value(QStringLiteral("slurm/partition")).toString();
    a.slurmAccount = s.value(QStringLiteral("slurm/account")).toString();
    a.slurmQos = s.value(QStringLiteral("slurm/qos")).toString();
    a.slurmSbatchArgs = s.value(QStringLiteral("slurm/sbatchArgs")).toString();
    a.slurmSharedDir = s.value(QStringLiteral("slurm/sharedDir")).toString();
    a.userName = s.value(QStringLiteral("ui/userName")).toString();
    a.agentTimeLimitMin = loadAgentTimeLimitMin();
    return a;
}

void AppSettings::save() const
{
    QSettings s;
    s.setValue(QStringLiteral("ui/theme"), int(theme));
    s.setValue(QStringLiteral("replay/workers"), workers);
    s.setValue(QStringLiteral("replay/lambda"), lambda);
    s.setValue(QStringLiteral("replay/betas"), formatBetas(betas));
    s.setValue(QStringLiteral("replay/timeLimitMs"), scriptTimeLimitMs);
    s.setValue(QStringLiteral("replay/memoryLimitMb"), replayMemoryLimitMb);
    s.setValue(QStringLiteral("replay/wallLimitS"), replayWallLimitS);
    s.setValue(QStringLiteral("replay/playIntervalMs"), playIntervalMs);
    s.setValue(QStringLiteral("replay/includeApproximate"), includeApproximate);
    s.setValue(QStringLiteral("agent/prices"), QJsonDocument(prices.toJson()).toJson(QJsonDocument::Compact));
    PriceTable::setCurrent(prices);
    s.setValue(QStringLiteral("slurm/partition"), slurmPartition);
    s.setValue(QStringLiteral("slurm/account"), slurmAccount);
    s.setValue(QStringLiteral("slurm/qos"), slurmQos);
    s.setValue(QStringLiteral("slurm/sbatchArgs"), slurmSbatchArgs);
    s.setValue(QStringLiteral("slurm/sharedDir"), slurmSharedDir);
    s.setValue(QStringLiteral("ui/userName"), userName);
    saveAgentTimeLimitMin(agentTimeLimitMin);
}

QString AppSettings::personName() const
{
    if (!userName.trimmed().isEmpty())
        return userName.trimmed();
    return SteeringInbox::accountName();
}

QString AppSettings::steeringName() const
{
    const QString name = personName();
    return name.isEmpty() ? QStringLiteral("unknown") : name;
}

std::optional<QList<double>> AppSettings::parseBetas(const QString &text)
{
    QList<double> betas;
    const QStringList parts = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &part : parts) {
        bool ok = false;
        const double b = part.trimmed().toDouble(&ok);
        if (!ok || !(b >= 0.0 && b <= 1.0))
            return std::nullopt;
        betas.append(b);
    }
    if (betas.isEmpty())
        return std::nullopt;
    return betas;
}

QString AppSettings::formatBetas(const QList<double> &betas)
{
    QStringList parts;
    for (double b : betas)
        parts.append(QString::number(b));
    return parts.join(QStringLiteral(", "));
}

ReplayConfig AppSettings::looseReplayConfig() const
{
    ReplayConfig c;
    c.workers = workers;
    c.lambda = lambda;
    c.betas = betas;
    c.valuation = Valuation::Revealed;
    return c;
}

ScriptLimits AppSettings::scriptLimits() const
{
    return ScriptLimits{scriptTimeLimitMs, qint64(replayMemoryLimitMb) << 20, replayWallLimitS * 1000};
}

SlurmSettings AppSettings::slurm() const
{
    SlurmSettings s;
    s.partition = slurmPartition;
    s.account = slurmAccount;
    s.qos = slurmQos;
    s.extraArgs = SlurmSettings::splitArguments(slurmSbatchArgs).valueOr({});
    s.sharedDir = slurmSharedDir;
    return s;
}

} // namespace dreamrsi
