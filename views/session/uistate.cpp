#include "uistate.h"

#include <QFileInfo>
#include <QSettings>

namespace dreamrsi {

namespace {

constexpr auto RecentFilesKey = "recentFiles";
constexpr auto RecentProjectsKey = "recentProjects";
constexpr auto RecentServersKey = "recentServers";
constexpr auto LastDirKey = "lastDir";
constexpr auto LastProjectDirKey = "lastProjectDir";
constexpr auto GeometryKey = "mainWindow/geometry";
constexpr auto StateKey = "mainWindow/state";
constexpr auto LaunchRoundGroup = "launchRound";

QString key(const char *name)
{
    return QLatin1String(name);
}

void prepend(const char *name, const QString &entry)
{
    QSettings settings;
    QStringList entries = settings.value(key(name)).toStringList();
    entries.removeAll(entry);
    entries.prepend(entry);
    while (entries.size() > UiState::MaxRecent)
        entries.removeLast();
    settings.setValue(key(name), entries);
}

/// A project's group under `prefix`: its absolute path, made a valid key.
QString projectGroup(const QString &prefix, const QString &project)
{
    return prefix + QString::fromLatin1(QFileInfo(project).absoluteFilePath().toUtf8().toHex());
}

QString compareGroup(const QString &project)
{
    if (project.isEmpty())
        return QStringLiteral("compare/none");
    return projectGroup(QStringLiteral("compare/"), project);
}

QString simulationGroup(const QString &project)
{
    return projectGroup(QStringLiteral("simulation/"), project);
}

} // namespace

QStringList UiState::recentFiles()
{
    return QSettings().value(key(RecentFilesKey)).toStringList();
}

QStringList UiState::recentProjects()
{
    return QSettings().value(key(RecentProjectsKey)).toStringList();
}

QStringList UiState::recentServers()
{
    return QSettings().value(key(RecentServersKey)).toStringList();
}

void UiState::addRecentFile(const QString &path)
{
    prepend(RecentFilesKey, path);
}

void UiState::addRecentProject(const QString &path)
{
    prepend(RecentProjectsKey, path);
}

void UiState::addRecentServer(const QString &url)
{
    prepend(RecentServersKey, url);
}

void UiState::clearRecentFilesAndProjects()
{
    QSettings settings;
    settings.remove(key(RecentFilesKey));
    settings.remove(key(RecentProjectsKey));
}

void UiState::clearRecentServers()
{
    QSettings().remove(key(RecentServersKey));
}

QString UiState::lastDir()
{
    return QSettings().value(key(LastDirKey)).toString();
}

void UiState::setLastDir(const QString &dir)
{
    QSettings().setValue(key(LastDirKey), dir);
}

QString UiState::lastProjectDir()
{
    return QSettings().value(key(LastProjectDirKey)).toString();
}

void UiState::setLastProjectDir(const QString &dir)
{
    QSettings().setValue(key(LastProjectDirKey), dir);
}

QByteArray UiState::windowGeometry()
{
    return QSettings().value(key(GeometryKey)).toByteArray();
}

QByteArray UiState::windowState()
{
    return QSettings().value(key(StateKey)).toByteArray();
}

void UiState::setWindowLayout(const QByteArray &geometry, const QByteArray &state)
{
    QSettings settings;
    settings.setValue(key(GeometryKey), geometry);
    settings.setValue(key(StateKey), state);
}

UiState::ExportForm UiState::exportForm()
{
    QSettings settings;
    ExportForm form;
    if (settings.contains(QStringLiteral("export/dir")))
        form.dir = settings.value(QStringLiteral("export/dir")).toString();
    form.suffix = settings.value(QStringLiteral("export/suffix"), form.suffix).toString();
    form.widthMm = settings.value(QStringLiteral("export/widthMm"), form.widthMm).toDouble();
    form.heightMm = settings.value(QStringLiteral("export/heightMm"), form.heightMm).toDouble();
    form.dpi = settings.value(QStringLiteral("export/dpi"), form.dpi).toInt();
    form.data = settings.value(QStringLiteral("export/data"), form.data).toBool();
    return form;
}

void UiState::setExportForm(const ExportForm &form)
{
    QSettings settings;
    if (form.dir)
        settings.setValue(QStringLiteral("export/dir"), *form.dir);
    settings.setValue(QStringLiteral("export/suffix"), form.suffix);
    settings.setValue(QStringLiteral("export/widthMm"), form.widthMm);
    settings.setValue(QStringLiteral("export/heightMm"), form.heightMm);
    settings.setValue(QStringLiteral("export/dpi"), form.dpi);
    settings.setValue(QStringLiteral("export/data"), form.data);
}

UiState::CompareSet UiState::compareSet(const QString &project)
{
    QSettings settings;
    settings.beginGroup(compareGroup(project));
    CompareSet set;
    const int n = settings.beginReadArray(QStringLiteral("sources"));
    for (int i = 0; i < n; ++i) {
        settings.setArrayIndex(i);
        CompareSet::Source source;
        source.kind = settings.value(QStringLiteral("kind")).toInt();
        source.path = settings.value(QStringLiteral("path")).toString();
        source.label = settings.value(QStringLiteral("label")).toString();
        source.iterations = settings.value(QStringLiteral("iterations")).toString();
        set.sources.append(source);
    }
    settings.endArray();
    if (settings.contains(QStringLiteral("axis")))
        set.axis = settings.value(QStringLiteral("axis")).toString();
    set.metric = settings.value(QStringLiteral("metric")).toString();
    return set;
}

void UiState::setCompareSet(const QString &project, const CompareSet &set)
{
    QSettings settings;
    settings.beginGroup(compareGroup(project));
    settings.remove(QString());
    if (set.axis)
        settings.setValue(QStringLiteral("axis"), *set.axis);
    settings.setValue(QStringLiteral("metric"), set.metric);
    settings.beginWriteArray(QStringLiteral("sources"), int(set.sources.size()));
    for (int i = 0; i < int(set.sources.size()); ++i) {
        const CompareSet::Source &source = set.sources.at(i);
        settings.setArrayIndex(i);
        settings.setValue(QStringLiteral("kind"), source.kind);
        settings.setValue(QStringLiteral("path"), source.path);
        settings.setValue(QStringLiteral("label"), source.label);
        settings.setValue(QStringLiteral("iterations"), source.iterations);
    }
    settings.endArray();
}

std::optional<UiState::SimulationForm> UiState::simulationForm(const QString &project)
{
    QSettings settings;
    settings.beginGroup(simulationGroup(project));
    if (!settings.contains(QStringLiteral("iterations")))
        return std::nullopt;
    SimulationForm form;
    form.fromFolder = settings.value(QStringLiteral("fromFolder")).toBool();
    form.folder = settings.value(QStringLiteral("folder")).toString();
    form.iterations = settings.value(QStringLiteral("iterations"), form.iterations).toInt();
    form.versions = settings.value(QStringLiteral("versions"), form.versions).toInt();
    if (settings.contains(QStringLiteral("workers")))
        form.workers = settings.value(QStringLiteral("workers")).toInt();
    form.rounds = settings.value(QStringLiteral("rounds"), form.rounds).toInt();
    form.fixBeta = settings.value(QStringLiteral("fixBeta"), form.fixBeta).toBool();
    form.beta = settings.value(QStringLiteral("beta"), form.beta).toDouble();
    form.seed = settings.value(QStringLiteral("seed"), form.seed).toInt();
    form.repeats = settings.value(QStringLiteral("repeats"), form.repeats).toInt();
    form.policy = settings.value(QStringLiteral("policy")).toString();
    form.arms = settings.value(QStringLiteral("arms"), form.arms).toInt();
    form.guard = settings.value(QStringLiteral("guard"), form.guard).toBool();
    form.floor = settings.value(QStringLiteral("floor"), form.floor).toBool();
    return form;
}

void UiState::setSimulationForm(const QString &project, const SimulationForm &form)
{
    QSettings settings;
    settings.beginGroup(simulationGroup(project));
    settings.setValue(QStringLiteral("fromFolder"), form.fromFolder);
    settings.setValue(QStringLiteral("folder"), form.folder);
    settings.setValue(QStringLiteral("iterations"), form.iterations);
    settings.setValue(QStringLiteral("versions"), form.versions);
    if (form.workers)
        settings.setValue(QStringLiteral("workers"), *form.workers);
    settings.setValue(QStringLiteral("rounds"), form.rounds);
    settings.setValue(QStringLiteral("fixBeta"), form.fixBeta);
    settings.setValue(QStringLiteral("beta"), form.beta);
    settings.setValue(QStringLiteral("seed"), form.seed);
    settings.setValue(QStringLiteral("repeats"), form.repeats);
    settings.setValue(QStringLiteral("policy"), form.policy);
    settings.setValue(QStringLiteral("arms"), form.arms);
    settings.setValue(QStringLiteral("guard"), form.guard);
    settings.setValue(QStringLiteral("floor"), form.floor);
}

UiState::LaunchRoundForm UiState::launchRoundForm()
{
    QSettings s;
    s.beginGroup(key(LaunchRoundGroup));
    LaunchRoundForm form;
    if (s.contains(QStringLiteral("task")))
        form.task = s.value(QStringLiteral("task")).toString();
    form.agent = s.value(QStringLiteral("agent"), form.agent).toString();
    form.model = s.value(QStringLiteral("model")).toString();
    form.baseUrl = s.value(QStringLiteral("baseUrl")).toString();
    form.command = s.value(QStringLiteral("command")).toString();
    form.allowEnv = s.value(QStringLiteral("allowEnv")).toString();
    if (s.contains(QStringLiteral("workers")))
        form.workers = s.value(QStringLiteral("workers")).toInt();
    form.rounds = s.value(QStringLiteral("rounds"), form.rounds).toInt();
    form.policy = s.value(QStringLiteral("policy")).toString();
    form.policyBeta = s.value(QStringLiteral("policyBeta"), form.policyBeta).toBool();
    form.beta = s.value(QStringLiteral("beta"), form.beta).toDouble();
    form.seed = s.value(QStringLiteral("seed"), form.seed).toInt();
    form.maxCalls = s.value(QStringLiteral("maxCalls"), form.maxCalls).toInt();
    form.maxTokens = s.value(QStringLiteral("maxTokens"), form.maxTokens).toInt();
    form.maxUsd = s.value(QStringLiteral("maxUsd"), form.maxUsd).toDouble();
    form.backend = s.value(QStringLiteral("backend"), form.backend).toString();
    for (const char *name : {"partition", "account", "qos", "sbatchArgs", "sharedDir"}) {
        if (s.contains(key(name)))
            form.oldCluster.append({key(name), s.value(key(name)).toString()});
    }
    return form;
}

void UiState::setLaunchRoundForm(const LaunchRoundForm &form)
{
    QSettings s;
    s.beginGroup(key(LaunchRoundGroup));
    s.setValue(QStringLiteral("task"), form.task.value_or(QString()));
    s.setValue(QStringLiteral("agent"), form.agent);
    s.setValue(QStringLiteral("model"), form.model);
    s.setValue(QStringLiteral("baseUrl"), form.baseUrl);
    s.setValue(QStringLiteral("command"), form.command);
    s.setValue(QStringLiteral("allowEnv"), form.allowEnv);
    if (form.workers)
        s.setValue(QStringLiteral("workers"), *form.workers);
    s.setValue(QStringLiteral("rounds"), form.rounds);
    s.setValue(QStringLiteral("policy"), form.policy);
    s.setValue(QStringLiteral("policyBeta"), form.policyBeta);
    s.setValue(QStringLiteral("beta"), form.beta);
    s.setValue(QStringLiteral("seed"), form.seed);
    s.setValue(QStringLiteral("maxCalls"), form.maxCalls);
    s.setValue(QStringLiteral("maxTokens"), form.maxTokens);
    s.setValue(QStringLiteral("maxUsd"), form.maxUsd);
    s.setValue(QStringLiteral("backend"), form.backend);
    // The cluster is stored once, as the preferences (AppSettings::slurm).
    for (const char *name : {"partition", "account", "qos", "sbatchArgs", "sharedDir"})
        s.remove(key(name));
}

} // namespace dreamrsi
