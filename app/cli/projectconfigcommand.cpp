// `dreamrsi project config`: the project's one replay configuration (W, λ,
// β grid, K): print it or change it, list the versions whose stored values
// it makes stale, and replay those with --replay.
#include "projectconfigcommand.h"

#include "commandline.h"

#include "optionvalues.h"

#include "project/projectreplay.h"
#include "project/projectsnapshot.h"
#include "store/projectfiles.h"
#include "store/projectreader.h"
#include "store/projectwriter.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace dreamrsi {

namespace {

const char *const configUsage =
    "usage: dreamrsi project config P.dreamrsi [--workers W] [--lambda L] [--betas B,...] [--rounds K|none]\n"
    "                                          [--valuation imagined|revealed] [--completions C]\n"
    "                                          [--rule capped|widened|uncertain|anchored] [--replay] [--json]\n"
    "Prints the project's replay configuration (W, lambda, the beta grid, the round limit K, the\n"
    "valuation of dreams, its completions C per world and the rule they are drawn under), or\n"
    "changes the values given. Dreams, the loop, `project replay`, approval, plots and the workbench's\n"
    "values all use it. Then lists the policy versions whose stored values are stale under it\n"
    "(computed under another configuration, or not covering every world and beta) and, with\n"
    "--replay, replays them under it. Results under other configurations are kept and listed with\n"
    "their own configuration; they are never averaged or compared with the project's.\n"
    "--rounds none removes the round limit.\n";

int configUsageError(QTextStream &err, const QString &message)
{
    err << "error: " << message << '\n' << configUsage;
    return 2;
}

QString originText(const StoredReplayConfig &c)
{
    switch (c.origin) {
    case ReplayConfigOrigin::Default: return QStringLiteral("the defaults; the first round sets W");
    case ReplayConfigOrigin::FirstRound: return QStringLiteral("W from the project's first round");
    case ReplayConfigOrigin::Dream: return QStringLiteral("from the project's most recent dream");
    case ReplayConfigOrigin::User: return QStringLiteral("set by the user");
    }
    return {};
}

QString betasText(const QList<double> &betas)
{
    QStringList parts;
    for (const double b : betas)
        parts.append(QString::number(b));
    return parts.join(QStringLiteral(", "));
}

/// What a change asks for; `clearRounds` for --rounds none.
struct Change
{
    ReplayConfigOverrides overrides;
    bool clearRounds = false;
    bool any() const { return overrides.any() || clearRounds; }
    ReplayConfig applyTo(const ReplayConfig &c) const
    {
        ReplayConfig out = overrides.applyTo(c);
        if (clearRounds)
            out.rounds.reset();
        std::sort(out.betas.begin(), out.betas.end());
        out.betas.erase(std::unique(out.betas.begin(), out.betas.end()), out.betas.end());
        return out;
    }
};

/// The versions a snapshot lists as stale, with the configurations their
/// stored values were computed under.
QJsonArray staleJson(const ProjectSnapshot &s)
{
    QJsonArray out;
    for (const PolicyVersionId id : s.stale) {
        QString name;
        for (const PolicyVersion &v : s.versions) {
            if (v.id == id)
                name = v.name;
        }
        QJsonArray under;
        for (const ConfiguredResult &r : s.others) {
            if (r.version != id)
                continue;
            QJsonObject c = r.config.toJson();
            c.insert(QStringLiteral("label"), r.config.label());
            c.insert(QStringLiteral("value"), r.result && r.result->value ? QJsonValue(*r.result->value) : QJsonValue(QJsonValue::Null));
            under.append(c);
        }
        out.append(QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("name"), name}, {QStringLiteral("computed_under"), under}});
    }
    return out;
}

/// Every result kept under another configuration, labelled with it.
QJsonArray othersJson(const ProjectSnapshot &s)
{
    QJsonArray out;
    for (const ConfiguredResult &r : s.others) {
        QString name;
        for (const PolicyVersion &v : s.versions) {
            if (v.id == r.version)
                name = v.name;
        }
        out.append(QJsonObject{{QStringLiteral("id"), r.version},
                               {QStringLiteral("name"), name},
                               {QStringLiteral("config"), r.config.toJson()},
                               {QStringLiteral("label"), r.config.label()},
                               {QStringLiteral("value"), r.result && r.result->value ? QJsonValue(*r.result->value)
                                                                                     : QJsonValue(QJsonValue::Null)}});
    }
    return out;
}

Result<ProjectSnapshot> loadSnapshot(const QString &path)
{
    Result<std::unique_ptr<ProjectReader>> reader = ProjectFiles::openReader(path);
    if (!reader.ok())
        return reader.failureAs<ProjectSnapshot>();
    return ProjectSnapshot::load(**reader.value);
}

} // namespace

int runProjectConfigCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const QCommandLineOption workers = CommandLine::value("workers", "W");
    const QCommandLineOption lambda = CommandLine::value("lambda", "L");
    const QCommandLineOption betas = CommandLine::value("betas", "B,...");
    const QCommandLineOption rounds = CommandLine::value("rounds", "K");
    const QCommandLineOption valuation = CommandLine::value("valuation", "V");
    const QCommandLineOption completions = CommandLine::value("completions", "C");
    const QCommandLineOption rule = CommandLine::value("rule", "R");
    const QCommandLineOption replay = CommandLine::flag("replay");
    const QCommandLineOption json = CommandLine::flag("json");
    QCommandLineParser parser;
    if (const auto rc = CommandLine::parseOrAnswer(parser, {workers, lambda, betas, rounds, valuation, completions, rule, replay, json}, args, configUsage, out,
                                                   [&err](const QString &why) { return configUsageError(err, why); }))
        return *rc;
    if (parser.positionalArguments().size() != 1) {
        return configUsageError(err, parser.positionalArguments().isEmpty()
                                   ? QStringLiteral("give the project file")
                                   : QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().at(1)));
    }
    const QString path = parser.positionalArguments().constFirst();

    OptionValues::ReplayConfigFlags flags;
    flags.roundsNone = true;
    flags.rule = QStringLiteral("rule");
    const Result<OptionValues::ReplayConfigFlags::Read> read = flags.read(parser);
    if (!read)
        return configUsageError(err, read.error);
    Change change;
    change.overrides = read.value->overrides;
    change.clearRounds = read.value->clearRounds;
    if (!QFileInfo::exists(path)) {
        err << "error: " << path << ": no such project file\n";
        return 1;
    }

    // Opened for writing first: an older project is upgraded (and takes its
    // configuration from its history). Without a change a project that
    // another process holds is still shown.
    std::optional<ReplayConfig> previous;
    {
        StoreResult<std::unique_ptr<ProjectWriter>> writer = ProjectWriter::open(path);
        if (!writer.ok() && (change.any() || !writer.error.contains(QStringLiteral("already open for writing"))))
            return CommandLine::runtimeError(err, writer.error);
        if (change.any()) {
            StoreResult<std::unique_ptr<ProjectReader>> reader = ProjectFiles::openReader(path);
            if (!reader.ok())
                return CommandLine::runtimeError(err, reader.error);
            const StoreResult<StoredReplayConfig> current = (*reader.value)->replayConfig();
            if (!current.ok())
                return CommandLine::runtimeError(err, current.error);
            previous = current.value->config;
            const StoreResult<Done> set = (*writer.value)->setReplayConfig(change.applyTo(current.value->config));
            if (!set.ok())
                return CommandLine::runtimeError(err, set.error);
        }
    }

    Result<ProjectSnapshot> snapshot = loadSnapshot(path);
    if (!snapshot.ok())
        return CommandLine::runtimeError(err, snapshot.error);
    const StoredReplayConfig config = snapshot.value->config;
    const QJsonArray stale = staleJson(*snapshot.value);
    const bool changed = previous && !(*previous == config.config);

    if (!parser.isSet(json)) {
        out << "replay configuration of " << QFileInfo(path).absoluteFilePath() << " (" << originText(config) << ")\n";
        out << "  W        " << config.config.workers << '\n';
        out << "  lambda   " << QString::number(config.config.lambda) << '\n';
        out << "  betas    " << betasText(config.config.betas) << '\n';
        out << "  K        " << (config.config.rounds ? QString::number(*config.config.rounds) : QStringLiteral("none")) << '\n';
        out << "  valuation " << valuationName(config.config.valuation)
            << (config.config.valuation == Valuation::Imagined ? QStringLiteral(" (C %1 completions per world)").arg(config.config.completions)
                                                                : QStringLiteral(" (C %1 when imagined)").arg(config.config.completions))
            << '\n';
        out << "  rule     " << imaginationRuleName(config.config.rule) << '\n';
        if (changed)
            out << "changed from " << previous->label() << '\n';
        if (stale.isEmpty()) {
            out << "no stale values: every version with results has them under this configuration\n";
        } else {
            out << stale.size() << (stale.size() == 1 ? " version has" : " versions have")
                << " stale values (computed under another configuration, or not covering every world and beta):\n";
            for (const QJsonValue &v : stale) {
                const QJsonObject o = v.toObject();
                out << "  " << o.value(QStringLiteral("name")).toString();
                QStringList labels;
                for (const QJsonValue &c : o.value(QStringLiteral("computed_under")).toArray())
                    labels.append(c.toObject().value(QStringLiteral("label")).toString());
                out << (labels.isEmpty() ? QStringLiteral("  (incomplete under this configuration)")
                                         : QStringLiteral("  computed under ") + labels.join(QStringLiteral("; ")))
                    << '\n';
            }
            if (!parser.isSet(replay))
                out << "replay them under this configuration with --replay\n";
        }
        const QJsonArray others = othersJson(*snapshot.value);
        if (!others.isEmpty()) {
            out << "kept under other configurations (never averaged or compared with this one):\n";
            for (const QJsonValue &v : others) {
                const QJsonObject o = v.toObject();
                const QJsonValue value = o.value(QStringLiteral("value"));
                out << "  " << o.value(QStringLiteral("name")).toString() << "  " << o.value(QStringLiteral("label")).toString()
                    << ": " << (value.isDouble() ? QString::number(value.toDouble(), 'f', 4) : QStringLiteral("no value")) << '\n';
            }
        }
    }

    QJsonArray replayed;
    int rc = 0;
    if (parser.isSet(replay)) {
        int done = 0;
        for (const QJsonValue &v : stale) {
            const QJsonObject o = v.toObject();
            const QString name = o.value(QStringLiteral("name")).toString();
            err << "replaying " << name << " (" << ++done << '/' << stale.size() << ") under " << config.config.label()
                << '\n'
                << Qt::flush;
            ProjectReplayRequest request;
            request.project = path;
            request.versionId = PolicyVersionId(o.value(QStringLiteral("id")).toInteger());
            const Result<ProjectReplayOutcome> outcome = ProjectReplay::run(request);
            QJsonObject row{{QStringLiteral("id"), o.value(QStringLiteral("id"))}, {QStringLiteral("name"), name}};
            if (!outcome.ok()) {
                row.insert(QStringLiteral("value"), QJsonValue(QJsonValue::Null));
                row.insert(QStringLiteral("error"), outcome.error);
                err << "error: " << name << ": " << outcome.error << '\n';
                rc = 1;
            } else {
                const ReplayResult &r = outcome.value->result;
                QString error = outcome.value->storeError.isEmpty() ? r.firstError() : outcome.value->storeError;
                row.insert(QStringLiteral("value"), r.value ? QJsonValue(*r.value) : QJsonValue(QJsonValue::Null));
                row.insert(QStringLiteral("error"), error.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(error));
                if (!outcome.value->storeError.isEmpty()) {
                    err << "error: " << name << ": " << error << '\n';
                    rc = 1;
                }
                if (!parser.isSet(json)) {
                    out << "replayed " << name << ": "
                        << (r.value ? QStringLiteral("value %1").arg(QString::number(*r.value, 'f', 4))
                                    : error.isEmpty() ? QStringLiteral("no value") : QStringLiteral("error: ") + error)
                        << '\n';
                }
            }
            replayed.append(row);
        }
    }

    if (parser.isSet(json)) {
        QJsonObject o{{QStringLiteral("project"), QFileInfo(path).absoluteFilePath()},
                      {QStringLiteral("config"), config.config.toJson()},
                      {QStringLiteral("label"), config.config.label()},
                      {QStringLiteral("origin"), replayConfigOriginName(config.origin)},
                      {QStringLiteral("updated"), config.updated.isValid() ? QJsonValue(config.updated.toString(Qt::ISODateWithMs))
                                                                           : QJsonValue(QJsonValue::Null)},
                      {QStringLiteral("changed"), changed},
                      {QStringLiteral("previous"), previous ? QJsonValue(previous->toJson()) : QJsonValue(QJsonValue::Null)},
                      {QStringLiteral("stale"), stale},
                      {QStringLiteral("other_results"), othersJson(*snapshot.value)},
                      {QStringLiteral("replayed"), replayed}};
        if (parser.isSet(replay)) {
            Result<ProjectSnapshot> after = loadSnapshot(path);
            if (after.ok())
                o.insert(QStringLiteral("stale_after"), staleJson(*after.value));
        }
        out << QJsonDocument(o).toJson(QJsonDocument::Indented);
    }
    return rc;
}

} // namespace dreamrsi
