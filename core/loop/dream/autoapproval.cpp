#include "autoapproval.h"

#include "base/jsonnumber.h"
#include "store/projectstore.h"

#include <QJsonArray>

namespace dreamrsi {

namespace {

QJsonValue sweepJson(const ReplayResultPtr &result, const QString &world)
{
    const SweepResult *s = result ? result->sweepOf(world) : nullptr;
    if (!s)
        return QJsonValue(QJsonValue::Null);
    QJsonObject o{{QStringLiteral("value"), jsonNumber(s->value)},
                  {QStringLiteral("hypervolume"), jsonNumber(s->hypervolume)},
                  {QStringLiteral("penalty"), jsonNumber(s->penalty)}};
    if (!s->error.isEmpty())
        o.insert(QStringLiteral("error"), s->error);
    return o;
}

} // namespace

QJsonObject dreamApprovalEvidence(const DreamReport &report, int index, const QList<DreamWorld> &worlds)
{
    if (index < 0 || index >= report.versions.size())
        return {};
    const DevelopedVersion &candidate = report.versions.at(index).developed;
    const DevelopedVersion *baseline = report.versions.isEmpty() ? nullptr : &report.versions.first().developed;
    if (baseline == &candidate)
        baseline = nullptr;
    QJsonArray worldRows;
    for (const DreamWorld &w : worlds) {
        worldRows.append(QJsonObject{{QStringLiteral("world"), w.world.name},
                                     {QStringLiteral("iteration"), w.iteration},
                                     {QStringLiteral("candidate"), sweepJson(candidate.result, w.world.name)},
                                     {QStringLiteral("baseline"), baseline ? sweepJson(baseline->result, w.world.name)
                                                                           : QJsonValue(QJsonValue::Null)}});
    }
    QJsonValue baselineValue(QJsonValue::Null);
    QJsonValue difference(QJsonValue::Null);
    if (baseline && baseline->value) {
        const double b = *baseline->value;
        baselineValue = b;
        if (candidate.value)
            difference = *candidate.value - b;
    }
    QJsonArray versions;
    for (const DreamVersion &v : report.versions) {
        versions.append(QJsonObject{{QStringLiteral("name"), v.developed.version.name},
                                    {QStringLiteral("id"), v.developed.version.id},
                                    {QStringLiteral("value"), jsonNumber(v.developed.value)},
                                    {QStringLiteral("error"), v.developed.error.isEmpty() ? QJsonValue(QJsonValue::Null)
                                                                                          : QJsonValue(v.developed.error)}});
    }
    return QJsonObject{
        {QStringLiteral("automatic"), true},
        {QStringLiteral("rule"), QStringLiteral("the dream's proposal: the best mean value among its versions that keeps "
                                                "the floor and beats the noise")},
        {QStringLiteral("floor_check"), report.floor.verdict.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(report.floor.verdict)},
        {QStringLiteral("candidate"), candidate.version.name},
        {QStringLiteral("candidate_id"), candidate.version.id},
        {QStringLiteral("baseline"), baseline ? QJsonValue(baseline->version.name) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("baseline_role"), baseline ? QJsonValue(QStringLiteral("deployed")) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("replay"),
         report.config.toJson()},
        {QStringLiteral("replay_config_overridden"), report.overridden},
        {QStringLiteral("value"),
         QJsonObject{{QStringLiteral("candidate"), jsonNumber(candidate.value)},
                     {QStringLiteral("baseline"), baselineValue},
                     {QStringLiteral("difference"), difference}}},
        {QStringLiteral("worlds"), worldRows},
        {QStringLiteral("dream"), versions}};
}

StoreResult<qint64> approveAutomatically(ProjectStore &store, const DreamReport &report, int index,
                                         const QList<DreamWorld> &worlds, const QString &who)
{
    if (index < 0 || index >= report.versions.size())
        return StoreResult<qint64>::failure(QStringLiteral("no version to approve"));
    const DevelopedVersion &candidate = report.versions.at(index).developed;
    Approval approval;
    approval.version = candidate.version.id;
    approval.when = QDateTime::currentDateTimeUtc();
    approval.who = who.isEmpty() ? QStringLiteral("automatic") : who + QStringLiteral(" (automatic)");
    approval.note = QStringLiteral("Approved automatically (--auto-approve): %1 was the dream's proposal (mean value %2)%3.")
                        .arg(candidate.version.name,
                             candidate.value ? QString::number(*candidate.value, 'g', 6) : QStringLiteral("none"),
                             index == 0 ? QStringLiteral("; the deployed version stays") : QString());
    approval.evidence = dreamApprovalEvidence(report, index, worlds);
    return store.addApproval(approval).result();
}

} // namespace dreamrsi
