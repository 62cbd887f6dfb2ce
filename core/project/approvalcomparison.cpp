#include "approvalcomparison.h"

#include "base/jsonnumber.h"
#include "replay/worldmodel.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <limits>

namespace dreamrsi {

namespace {

const SweepResult *sweepOf(const ReplayResultPtr &r, const QString &world)
{
    return r ? r->sweepOf(world) : nullptr;
}

QJsonObject sweepJson(const SweepResult *s)
{
    if (!s)
        return {};
    return QJsonObject{{QStringLiteral("value"), jsonNumber(s->value)},
                       {QStringLiteral("hypervolume"), jsonNumber(s->hypervolume)},
                       {QStringLiteral("penalty"), jsonNumber(s->penalty)}};
}

/// True when `r` holds what it needs of world `world`: its sweep, or under
/// an imagined valuation the sweep of every completion of it.
bool covers(const ReplayResult &r, const QString &world)
{
    if (r.completions <= 0)
        return r.sweepOf(world) != nullptr;
    for (int k = 0; k < r.completions; ++k) {
        if (!r.sweepOf(Imagination::completionName(world, k)))
            return false;
    }
    return true;
}

/// A world's part of the comparison: its sweep, or under an imagined
/// valuation the means over its completions (the world's own value is the
/// mean of their values over the scorable ones).
QJsonObject worldJson(const ReplayResultPtr &r, const QString &world)
{
    if (!r || r->completions <= 0)
        return sweepJson(sweepOf(r, world));
    double value = 0.0, hypervolume = 0.0, penalty = 0.0;
    int values = 0, hypervolumes = 0, penalties = 0;
    for (int k = 0; k < r->completions; ++k) {
        const SweepResult *s = r->sweepOf(Imagination::completionName(world, k));
        if (!s)
            return {};
        if (s->value) {
            value += *s->value;
            ++values;
        }
        if (s->hypervolume) {
            hypervolume += *s->hypervolume;
            ++hypervolumes;
        }
        if (s->penalty) {
            penalty += *s->penalty;
            ++penalties;
        }
    }
    auto mean = [](double sum, int n) { return n > 0 ? QJsonValue(sum / n) : QJsonValue(QJsonValue::Null); };
    return QJsonObject{{QStringLiteral("value"), mean(value, values)},
                       {QStringLiteral("hypervolume"), mean(hypervolume, hypervolumes)},
                       {QStringLiteral("penalty"), mean(penalty, penalties)},
                       {QStringLiteral("completions"), r->completions}};
}

} // namespace

QString ApprovalRules::warningCode(ApprovalWarning warning)
{
    switch (warning) {
    case ApprovalWarning::DifferentParameters: return QStringLiteral("different_parameters");
    case ApprovalWarning::LowerValue: return QStringLiteral("lower_value");
    }
    return {};
}

ApprovalComparison ApprovalRules::compare(const ApprovalInputs &inputs, const QString &candidate)
{
    ApprovalComparison c;
    c.candidate = candidate;
    const ApprovalInputs::Version *version = nullptr;
    for (const ApprovalInputs::Version &v : inputs.versions) {
        if (v.version.name == candidate)
            version = &v;
    }
    if (!version) {
        c.blocker = ApprovalBlocker::UnknownVersion;
        return c;
    }
    c.candidateId = version->version.id;
    const ReplayResultPtr result = version->result;

    // Baseline: the deployed version, else the best other version with a value.
    ReplayResultPtr baseline;
    for (const ApprovalInputs::Version &v : inputs.versions) {
        if (v.version.name != candidate && v.stored && v.version.id != 0 && v.version.id == inputs.deployed) {
            c.baseline = v.version.name;
            c.baselineRole = QStringLiteral("deployed");
            baseline = v.result;
        }
    }
    if (c.baseline.isEmpty()) {
        for (const ApprovalInputs::Version &v : inputs.versions) {
            const ReplayResultPtr &r = v.result;
            if (v.version.name != candidate && r && r->value && (!baseline || *r->value > *baseline->value)) {
                c.baseline = v.version.name;
                c.baselineRole = QStringLiteral("best other version");
                baseline = r;
            }
        }
    }

    if (!version->stored || version->version.id == 0)
        c.blocker = ApprovalBlocker::NotStored;
    else if (inputs.worlds.isEmpty())
        c.blocker = ApprovalBlocker::NoWorlds;
    else if (!result)
        c.blocker = ApprovalBlocker::NotReplayed;
    else if (!result->ok()) {
        c.blocker = ApprovalBlocker::PolicyError;
        c.blockerDetail = result->firstError();
    } else {
        for (const ProjectWorld &w : inputs.worlds) {
            if (!covers(*result, w.name)) {
                c.blocker = ApprovalBlocker::IncompleteCoverage;
                c.blockerDetail = w.name;
                break;
            }
        }
        if (c.blocker == ApprovalBlocker::None && !result->value)
            c.blocker = ApprovalBlocker::Unscorable;
    }
    c.candidateValue = result ? result->value : std::nullopt;
    c.baselineValue = baseline ? baseline->value : std::nullopt;
    if (inputs.otherConfig) {
        c.otherConfig = inputs.otherConfig;
        c.candidateOtherValue = version->otherResult ? version->otherResult->value : std::nullopt;
        for (const ApprovalInputs::Version &v : inputs.versions) {
            if (!c.baseline.isEmpty() && v.version.name == c.baseline && v.otherResult)
                c.baselineOtherValue = v.otherResult->value;
        }
    }
    if (result && baseline) {
        if (result->workers != baseline->workers || result->lambda != baseline->lambda || result->betas != baseline->betas
            || result->maxRounds != baseline->maxRounds || result->completions != baseline->completions)
            c.warnings.append(ApprovalWarning::DifferentParameters);
        if (result->value && baseline->value && *result->value < *baseline->value)
            c.warnings.append(ApprovalWarning::LowerValue);
    }

    QJsonArray worlds;
    for (const ProjectWorld &w : inputs.worlds) {
        const QJsonObject b = worldJson(baseline, w.name);
        worlds.append(QJsonObject{{QStringLiteral("world"), w.name},
                                  {QStringLiteral("iteration"), w.iteration},
                                  {QStringLiteral("candidate"), worldJson(result, w.name)},
                                  {QStringLiteral("baseline"), b.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(b)}});
    }
    const QJsonValue cv = jsonNumber(c.candidateValue);
    const QJsonValue bv = jsonNumber(c.baselineValue);
    const QJsonValue difference =
        cv.isDouble() && bv.isDouble() ? QJsonValue(cv.toDouble() - bv.toDouble()) : QJsonValue(QJsonValue::Null);
    QJsonArray betas;
    if (result) {
        for (const double b : result->betas)
            betas.append(b);
    }
    // The configuration both values are under: the project's, else the result's own.
    QJsonObject replay{{QStringLiteral("workers"), result ? result->workers : 0},
                       {QStringLiteral("lambda"), result ? result->lambda : 0.0},
                       {QStringLiteral("betas"), betas}};
    if (inputs.config)
        replay = inputs.config->toJson();
    else if (result)
        replay.insert(QStringLiteral("rounds"), result->maxRounds ? QJsonValue(*result->maxRounds) : QJsonValue(QJsonValue::Null));
    QJsonArray warnings;
    for (const ApprovalWarning w : std::as_const(c.warnings))
        warnings.append(warningCode(w));
    c.evidence = QJsonObject{
        {QStringLiteral("candidate"), candidate},
        {QStringLiteral("candidate_id"), c.candidateId},
        {QStringLiteral("baseline"), c.baseline.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(c.baseline)},
        {QStringLiteral("baseline_role"), c.baselineRole.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(c.baselineRole)},
        {QStringLiteral("replay"), replay},
        {QStringLiteral("value"),
         QJsonObject{{QStringLiteral("candidate"), cv}, {QStringLiteral("baseline"), bv}, {QStringLiteral("difference"), difference}}},
        {QStringLiteral("worlds"), worlds},
        {QStringLiteral("warnings"), warnings}};
    if (c.otherConfig)
        c.evidence.insert(QStringLiteral("other_valuation"),
                          QJsonObject{{QStringLiteral("replay"), c.otherConfig->toJson()},
                                      {QStringLiteral("candidate"), jsonNumber(c.candidateOtherValue)},
                                      {QStringLiteral("baseline"), jsonNumber(c.baselineOtherValue)}});
    return c;
}

ReplayConfig ApprovalRules::otherValuation(ReplayConfig config)
{
    config.valuation = config.valuation == Valuation::Imagined ? Valuation::Revealed : Valuation::Imagined;
    return config;
}

// The one wording of a blocker and a warning, for `dreamrsi approve` and the
// Approve dialog alike. It is translated under the dialog's context, where
// translations/ holds it: app/CMakeLists.txt gives this file to lupdate with
// the views' sources, and a command, which loads no translation, prints the
// English.
QString ApprovalRules::describe(const ApprovalComparison &c)
{
    const QString &name = c.candidate;
    switch (c.blocker) {
    case ApprovalBlocker::None: return {};
    case ApprovalBlocker::UnknownVersion:
        return QCoreApplication::translate("dreamrsi::ApprovalDialog", "There is no version named %1.").arg(name);
    case ApprovalBlocker::NotStored:
        return QCoreApplication::translate("dreamrsi::ApprovalDialog",
                                           "%1 is not stored in a project. Open or create a project to record approvals.")
            .arg(name);
    case ApprovalBlocker::NoWorlds:
        return QCoreApplication::translate("dreamrsi::ApprovalDialog", "No world is open to judge %1 by.").arg(name);
    case ApprovalBlocker::NotReplayed:
        return QCoreApplication::translate("dreamrsi::ApprovalDialog",
                                           "%1 has not been replayed in the open worlds. Replay it first.")
            .arg(name);
    case ApprovalBlocker::PolicyError:
        return QCoreApplication::translate("dreamrsi::ApprovalDialog", "The replay of %1 ended in a policy error: %2")
            .arg(name, c.blockerDetail);
    case ApprovalBlocker::IncompleteCoverage:
        return QCoreApplication::translate("dreamrsi::ApprovalDialog",
                                           "The result of %1 does not cover world %2. Replay it again.")
            .arg(name, c.blockerDetail);
    case ApprovalBlocker::Unscorable:
        return QCoreApplication::translate("dreamrsi::ApprovalDialog",
                                           "No open world could score %1 (every world has S = 0).")
            .arg(name);
    }
    return {};
}

QString ApprovalRules::describe(const ApprovalComparison &c, ApprovalWarning warning)
{
    switch (warning) {
    case ApprovalWarning::DifferentParameters:
        return QCoreApplication::translate("dreamrsi::ApprovalDialog",
                                           "%1 and %2 were replayed with different W, λ, β grids or valuations; their "
                                           "values are not directly comparable.")
            .arg(c.candidate, c.baseline);
    case ApprovalWarning::LowerValue:
        return QCoreApplication::translate("dreamrsi::ApprovalDialog", "%1 scores below %2 (%3 against %4).")
            .arg(c.candidate, c.baseline, QString::number(c.candidateValue.value_or(0), 'f', 4),
                 QString::number(c.baselineValue.value_or(0), 'f', 4));
    }
    return {};
}

Approval ApprovalRules::approvalOf(const ApprovalComparison &comparison, const QString &who, const QString &note,
                                   const QDateTime &when)
{
    Approval a;
    a.version = comparison.candidateId;
    a.when = when;
    a.who = who.trimmed();
    a.note = note.trimmed();
    a.evidence = comparison.evidence;
    return a;
}

QString ApprovalRules::bestCandidate(const ApprovalInputs &inputs)
{
    QString best;
    double bestValue = -std::numeric_limits<double>::infinity();
    for (const ApprovalInputs::Version &v : inputs.versions) {
        if (!v.result || !v.result->value || *v.result->value <= bestValue)
            continue;
        // The deployed version competes too (it is not compared with itself):
        // --best never picks a version worth less than the one deployed.
        if (v.version.id != inputs.deployed && !compare(inputs, v.version.name).approvable())
            continue;
        best = v.version.name;
        bestValue = *v.result->value;
    }
    return best;
}

} // namespace dreamrsi
