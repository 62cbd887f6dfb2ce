#include "dreamjson.h"

#include "replay/worldmodel.h"

#include <QJsonArray>

namespace dreamrsi {

namespace {

QJsonValue jsonNumber(const std::optional<double> &x)
{
    return x ? QJsonValue(*x) : QJsonValue(QJsonValue::Null);
}

QJsonValue jsonText(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

} // namespace

QJsonObject dreamReportJson(const DreamReport &report, const QList<DreamWorld> &worlds, const DreamSettings &settings)
{
    QJsonArray worldRows;
    for (const DreamWorld &w : worlds)
        worldRows.append(QJsonObject{{QStringLiteral("world"), w.world.name},
                                     {QStringLiteral("iteration"), w.iteration},
                                     {QStringLiteral("cells"), w.world.tree ? w.world.tree->cellCount() : 0}});
    QJsonArray versions;
    for (const DreamVersion &v : report.versions) {
        const DevelopedVersion &d = v.developed;
        QJsonArray perWorld;
        if (d.result) {
            const int completions = d.result->completions;
            for (qsizetype i = 0; i < d.result->worlds.size(); ++i) {
                const SweepResult &s = d.result->worlds.at(i);
                QJsonValue iteration(QJsonValue::Null);
                QJsonValue completion(QJsonValue::Null);
                if (completions > 0) {
                    // Imagined valuation: completion k of world j, world-major.
                    const Imagination::CompletionPlace p = Imagination::placeOf(i, completions);
                    if (p.world < worlds.size())
                        iteration = worlds.at(p.world).iteration;
                    completion = p.completion;
                } else {
                    for (const DreamWorld &w : worlds) {
                        if (w.world.name == s.world)
                            iteration = w.iteration;
                    }
                }
                perWorld.append(QJsonObject{{QStringLiteral("world"), s.world},
                                            {QStringLiteral("iteration"), iteration},
                                            {QStringLiteral("completion"), completion},
                                            {QStringLiteral("scorable"), s.scorable},
                                            {QStringLiteral("value"), jsonNumber(s.value)},
                                            {QStringLiteral("hypervolume"), jsonNumber(s.hypervolume)},
                                            {QStringLiteral("penalty"), jsonNumber(s.penalty)},
                                            {QStringLiteral("error"), jsonText(s.error)}});
            }
        }
        versions.append(QJsonObject{
            {QStringLiteral("index"), v.index},
            {QStringLiteral("id"), d.version.id},
            {QStringLiteral("name"), d.version.name},
            {QStringLiteral("origin"), policyOriginName(d.version.origin)},
            {QStringLiteral("parent"), d.version.parent ? QJsonValue(d.version.parent) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("developer"), v.developer},
            {QStringLiteral("value"), jsonNumber(d.value)},
            {QStringLiteral("revealed_value"), jsonNumber(v.revealedValue)},
            {QStringLiteral("imagined_value"), jsonNumber(v.imaginedValue)},
            {QStringLiteral("error"), jsonText(d.error)},
            {QStringLiteral("deployed"), v.index == 0},
            {QStringLiteral("worlds"), perWorld}});
    }
    QJsonValue proposed(QJsonValue::Null);
    if (const DreamVersion *p = report.proposal())
        proposed = QJsonObject{{QStringLiteral("index"), p->index},
                               {QStringLiteral("id"), p->developed.version.id},
                               {QStringLiteral("name"), p->developed.version.name},
                               {QStringLiteral("value"), jsonNumber(p->developed.value)}};
    const QJsonObject config = report.config.toJson();
    QJsonObject o{{QStringLiteral("workers"), config.value(QStringLiteral("workers"))},
                  {QStringLiteral("lambda"), config.value(QStringLiteral("lambda"))},
                  {QStringLiteral("betas"), config.value(QStringLiteral("betas"))},
                  {QStringLiteral("rounds"), config.value(QStringLiteral("rounds"))},
                  {QStringLiteral("replay_config"), config},
                  {QStringLiteral("replay_config_label"), report.config.label()},
                  {QStringLiteral("replay_config_overridden"), report.overridden},
                  {QStringLiteral("seed"), double(settings.seed)},
                  {QStringLiteral("valuation"), valuationName(report.config.valuation)},
                  {QStringLiteral("completions"), report.config.completions},
                  {QStringLiteral("imagine_seed"), QString::number(report.imagineSeed)},
                  {QStringLiteral("worlds"), worldRows},
                  {QStringLiteral("versions"), versions},
                  {QStringLiteral("proposed"), proposed},
                  {QStringLiteral("cancelled"), report.cancelled}};
    if (!report.error.isEmpty())
        o.insert(QStringLiteral("error"), report.error);
    return o;
}

} // namespace dreamrsi
