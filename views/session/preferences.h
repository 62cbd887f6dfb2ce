#pragma once

#include "appsettings.h"

#include <QObject>

namespace dreamrsi {

/// The person's preferences (AppSettings) as one observable object
/// (docs/architecture.md#decided-once): read from QSettings once, changed
/// through set(), which saves them and says what changed, one signal per
/// group of fields and only for a group that did change, then changed().
/// The window owns one (MainWindow::preferences()) and hands it to what
/// uses it; each user reads settings() when it needs a value and connects
/// to the signals it reacts to (the theme, the stepper's speed, …): nothing
/// pushes copies around.
class Preferences final : public QObject
{
    Q_OBJECT
public:
    /// The preferences in QSettings (AppSettings::load()); set() saves them there.
    explicit Preferences(QObject *parent = nullptr);
    /// Preferences held in memory only, from `initial`: set() saves nothing
    /// and leaves PriceTable::current() alone (a dialog shown by itself, tests).
    explicit Preferences(const AppSettings &initial, QObject *parent = nullptr);
    ~Preferences() override;

    const AppSettings &settings() const { return m_settings; }
    /// `preferences`' settings, the defaults when there are none.
    static const AppSettings &of(const Preferences *preferences);
    /// Whether set() writes QSettings.
    bool isStored() const { return m_stored; }

    /// Takes `settings`, saves them (when stored) and emits the signal of
    /// each group that changed, then changed(); nothing when none did.
    void set(const AppSettings &settings);
    /// set() with one field changed.
    void setTheme(AppSettings::Theme theme);
    void setAgentTimeLimitMin(int minutes);

signals:
    void themeChanged(dreamrsi::AppSettings::Theme theme);
    /// W, λ or the β grid of loose tree files (AppSettings::looseReplayConfig).
    void looseReplayChanged();
    /// The script time limit or the replay child's memory or wall-clock limit (AppSettings::scriptLimits).
    void scriptLimitsChanged();
    void includeApproximateChanged(bool include);
    void playIntervalChanged(int intervalMs);
    void pricesChanged();
    /// The Slurm cluster defaults (AppSettings::slurm).
    void slurmChanged();
    void agentTimeLimitChanged(int minutes);
    void userNameChanged(const QString &userName);
    /// After the signals of the groups, once per set() that changed anything.
    void changed();

private:
    AppSettings m_settings;
    bool m_stored = true;
};

} // namespace dreamrsi
