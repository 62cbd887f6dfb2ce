#include "dreamjson.h"

#include "base/jsonnumber.h"
#include "replay/worldmodel.h"

#include <QJsonArray>

namespace dreamrsi {

namespace {

QJsonValue jsonText(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

QJsonObject candidateJson(const CandidateRecord &c, int index)
{
    QJsonArray changes;
    for (const TunableChange &t : c.changes)
        changes.append(QJsonObject{{QStringLiteral("name"), t.name}, {QStringLiteral("from"), t.from}, {QStringLiteral("to"), t.to}});
    return QJsonObject{{QStringLiteral("index"), index},
                       {QStringLiteral("parent"), c.parent},
                       {QStringLiteral("kind"), c.kind},
                       {QStringLiteral("why"), c.why},
                       {QStringLiteral("changes"), changes},
                       {QStringLiteral("value"), jsonNumber(c.value)},
                       {QStringLiteral("error"), jsonText(c.error)},
                       {QStringLiteral("duplicate"), c.duplicate},
                       {QStringLiteral("duplicate_of"), c.duplicateOf >= 0 ? QJsonValue(c.duplicateOf) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("inert_at_deployed_beta"), c.inertAtDeployedBeta},
                       {QStringLiteral("kept"), c.kept}};
}

/// How many of a dream's candidates were new behaviours, repeats, or
/// changed nothing at the deployed β.
QJsonObject candidateSummary(const QList<CandidateRecord> &candidates, int screened)
{
    const CandidateCounts n = CandidateCounts::of(candidates);
    return QJsonObject{{QStringLiteral("total"), n.total},
                       {QStringLiteral("distinct"), n.distinct()},
                       {QStringLiteral("duplicates"), n.duplicates},
                       {QStringLiteral("inert_at_deployed_beta"), n.inert},
                       {QStringLiteral("screened"), screened},
                       {QStringLiteral("distinct_share"), n.total > 0 ? QJsonValue(double(n.distinct()) / n.total) : QJsonValue(QJsonValue::Null)}};
}

/// The noise check (ProposalCheck); null when it did not run.
QJsonValue proposalCheckJson(const ProposalCheck &c)
{
    if (!c.measured)
        return QJsonValue(QJsonValue::Null);
    return QJsonObject{{QStringLiteral("candidate"), c.candidate},
                       {QStringLiteral("deployed"), c.deployed},
                       {QStringLiteral("lead"), c.lead},
                       {QStringLiteral("second_lead"), jsonNumber(c.secondLead)},
                       {QStringLiteral("noise"), jsonNumber(c.noise)},
                       {QStringLiteral("second_seed"), QString::number(c.secondSeed)},
                       {QStringLiteral("passed"), c.passed},
                       {QStringLiteral("verdict"), c.verdict}};
}

QJsonValue floorCheckJson(const FloorCheck &f)
{
    if (!f.measured)
        return QJsonValue(QJsonValue::Null);
    return QJsonObject{{QStringLiteral("floor_version"), f.floorVersion},
                       {QStringLiteral("beta"), f.beta},
                       {QStringLiteral("floor"), jsonNumber(f.floor)},
                       {QStringLiteral("candidate"), f.candidate},
                       {QStringLiteral("candidate_worst"), jsonNumber(f.candidateWorst)},
                       {QStringLiteral("deployed_worst"), jsonNumber(f.deployedWorst)},
                       {QStringLiteral("refused"), QJsonArray::fromStringList(f.refused)},
                       {QStringLiteral("repair"), f.repair},
                       {QStringLiteral("chosen"), f.chosen.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(f.chosen)},
                       {QStringLiteral("passed"), f.passed},
                       {QStringLiteral("verdict"), f.verdict}};
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
        QJsonArray candidates;
        for (const CandidateRecord &c : v.candidates)
            candidates.append(candidateJson(c, c.index));
        versions.append(QJsonObject{
            {QStringLiteral("candidates"), candidates},
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
                  {QStringLiteral("valuation"), report.oracle ? QStringLiteral("oracle") : valuationName(report.config.valuation)},
                  {QStringLiteral("deployed_beta"), report.deployedBeta},
                  {QStringLiteral("candidates"), candidateSummary(report.candidates, report.screened)},
                  {QStringLiteral("completions"), report.config.completions},
                  {QStringLiteral("imagine_seed"), QString::number(report.imagineSeed)},
                  {QStringLiteral("worlds"), worldRows},
                  {QStringLiteral("versions"), versions},
                  {QStringLiteral("proposed"), proposed},
                  {QStringLiteral("rule"), imaginationRuleName(report.config.rule)},
                  {QStringLiteral("proposal_check"), proposalCheckJson(report.check)},
                  {QStringLiteral("floor_check"), floorCheckJson(report.floor)},
                  {QStringLiteral("cancelled"), report.cancelled}};
    if (!report.error.isEmpty())
        o.insert(QStringLiteral("error"), report.error);
    return o;
}

} // namespace dreamrsi
