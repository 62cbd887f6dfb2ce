#pragma once

#include "agent/pricetable.h"
#include "backend/slurmsettings.h"
#include "policy/scriptlimits.h"
#include "store/storetypes.h"

#include <QList>
#include <QString>

#include <optional>

namespace dreamrsi {

/// A person's preferences for the workbench, kept in QSettings. Nothing of
/// a project lives here: with a project open, replays run under the
/// project's replay configuration (MainWindow::replayConfig), which the
/// window hands to the jobs beside these preferences.
struct AppSettings
{
    enum class Theme { System, Light, Dark };
    Theme theme = Theme::System;
    /// W, λ and the β grid of replays of loose tree files (no project open):
    /// looseReplayConfig(). With a project open, Settings edits the
    /// project's replay configuration instead.
    int workers = 10;                               ///< W of replays started from the GUI
    double lambda = 0.1;                            ///< λ of the value
    QList<double> betas{0.0, 0.25, 0.5, 0.75, 1.0}; ///< the β grid
    int scriptTimeLimitMs = 2000;
    /// Whether replays from the window include approximate worlds (imported
    /// runs with forks or orphans, docs/tree-format.md#imported-runs); their
    /// results are labelled either way.
    bool includeApproximate = false;
    /// Replays started from the GUI run in a child `dreamrsi` process with
    /// this address-space limit and this wall-clock limit.
    int replayMemoryLimitMb = 4096;
    int replayWallLimitS = 600;
    int playIntervalMs = 600;                       ///< stepper speed: one round per interval
    /// USD per million tokens per model (docs/online.md#cost-and-budgets). API keys are not
    /// settings: they stay in memory (SessionKeys).
    PriceTable prices = PriceTable::defaults();
    /// Cluster defaults of the Launch Round dialog (Slurm backend): partition,
    /// account, QOS, extra sbatch arguments (one line, split like a shell),
    /// shared work directory; empty = Slurm's or the backend's default.
    QString slurmPartition;
    QString slurmAccount;
    QString slurmQos;
    QString slurmSbatchArgs;
    QString slurmSharedDir;
    /// The cluster of these preferences as the Slurm backend takes it
    /// (sbatch arguments split as a shell would; an open quote drops them:
    /// the preferences dialog refuses one).
    SlurmSettings slurm() const;
    /// The wall-clock limit of one agent call in a round, in minutes (0: no
    /// limit): a call still at work after it is killed and its attempt stored
    /// as an agent failure (docs/online.md#is-it-alive). One setting, edited
    /// in Settings and in Launch Round (agentTimeLimitKey()).
    int agentTimeLimitMin = DefaultAgentTimeLimitMin;
    static constexpr int DefaultAgentTimeLimitMin = 15;
    static constexpr int MaxAgentTimeLimitMin = 7 * 24 * 60;
    /// Reads and writes that one setting alone (Launch Round remembers it
    /// without touching the rest).
    static int loadAgentTimeLimitMin();
    static void saveAgentTimeLimitMin(int minutes);
    /// "Your name": who steers a live round or approves a version from this
    /// workbench (recorded with each intervention); empty = the login name.
    QString userName;
    /// Who acts from this workbench: userName, else $USER, else the
    /// account's login name from the system (SteeringInbox::accountName);
    /// empty when none names anybody.
    QString personName() const;
    /// personName(), else "unknown" (a steering request is sent anyway).
    QString steeringName() const;

    /// Reads QSettings; also installs `prices` as PriceTable::current().
    static AppSettings load();
    /// Writes QSettings; also installs `prices` as PriceTable::current().
    void save() const;
    /// "0, 0.25, 0.5" → list; nothing when a value is not in [0, 1].
    static std::optional<QList<double>> parseBetas(const QString &text);
    /// The replay configuration of loose tree files: W, λ and β of these
    /// preferences, no K, valued as revealed (tree files are replayed as they are).
    ReplayConfig looseReplayConfig() const;
    /// The script time limit and the child replay's memory and wall-clock
    /// limits, as every replay job takes them.
    ScriptLimits scriptLimits() const;
    static QString formatBetas(const QList<double> &betas);
};

} // namespace dreamrsi
