#pragma once

#include "agent/pricetable.h"
#include "store/storetypes.h"

#include <QList>
#include <QString>

#include <optional>

namespace dreamrsi {

/// The workbench's preferences, kept in QSettings.
struct AppSettings
{
    enum class Theme { System, Light, Dark };
    Theme theme = Theme::System;
    /// W, λ and the β grid of replays of loose tree files (no project open).
    /// With a project open, the workbench replays under the project's replay
    /// configuration instead (withReplayConfig()); Settings edits that one.
    int workers = 10;                               ///< W of replays started from the GUI
    double lambda = 0.1;                            ///< λ of the value
    QList<double> betas{0.0, 0.25, 0.5, 0.75, 1.0}; ///< the β grid
    std::optional<int> replayRounds;                ///< K of the replays; only a project's configuration sets it (not saved)
    /// The valuation replays from the window value versions under, and its
    /// C: a project's configuration sets them (not saved); tree files opened
    /// without a project are replayed as they are. Imagined: a sweep replays
    /// C completions of every world (seed 0, docs/online.md#valuation).
    Valuation valuation = Valuation::Revealed;
    int completions = 8;
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
    /// These settings with W, λ, β and K of `config` (a project's).
    AppSettings withReplayConfig(const ReplayConfig &config) const;
    /// W, λ, β and K as a replay configuration.
    ReplayConfig replayConfig() const;
    static QString formatBetas(const QList<double> &betas);
};

} // namespace dreamrsi
