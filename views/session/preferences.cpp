#include "preferences.h"

#include <algorithm>

namespace dreamrsi {

Preferences::Preferences(QObject *parent) : QObject(parent), m_settings(AppSettings::load()) {}

Preferences::Preferences(const AppSettings &initial, QObject *parent)
    : QObject(parent), m_settings(initial), m_stored(false)
{
}

Preferences::~Preferences() = default;

const AppSettings &Preferences::of(const Preferences *preferences)
{
    static const AppSettings defaults;
    return preferences ? preferences->settings() : defaults;
}

void Preferences::set(const AppSettings &settings)
{
    const AppSettings old = m_settings;
    const bool theme = settings.theme != old.theme;
    const bool looseReplay =
        settings.workers != old.workers || settings.lambda != old.lambda || settings.betas != old.betas;
    const bool limits = settings.scriptTimeLimitMs != old.scriptTimeLimitMs ||
                        settings.replayMemoryLimitMb != old.replayMemoryLimitMb ||
                        settings.replayWallLimitS != old.replayWallLimitS;
    const bool approximate = settings.includeApproximate != old.includeApproximate;
    const bool playInterval = settings.playIntervalMs != old.playIntervalMs;
    const bool prices = !(settings.prices == old.prices);
    const bool slurm = settings.slurmPartition != old.slurmPartition ||
                       settings.slurmAccount != old.slurmAccount || settings.slurmQos != old.slurmQos ||
                       settings.slurmSbatchArgs != old.slurmSbatchArgs ||
                       settings.slurmSharedDir != old.slurmSharedDir;
    const bool agentTimeLimit = settings.agentTimeLimitMin != old.agentTimeLimitMin;
    const bool userName = settings.userName != old.userName;
    if (!(theme || looseReplay || limits || approximate || playInterval || prices || slurm ||
          agentTimeLimit || userName))
        return;
    m_settings = settings;
    if (m_stored)
        m_settings.save(); // also installs the prices as PriceTable::current()
    // Every field is in place before the first signal: a slot reads settings() whole.
    if (theme)
        emit themeChanged(m_settings.theme);
    if (looseReplay)
        emit looseReplayChanged();
    if (limits)
        emit scriptLimitsChanged();
    if (approximate)
        emit includeApproximateChanged(m_settings.includeApproximate);
    if (playInterval)
        emit playIntervalChanged(m_settings.playIntervalMs);
    if (prices)
        emit pricesChanged();
    if (slurm)
        emit slurmChanged();
    if (agentTimeLimit)
        emit agentTimeLimitChanged(m_settings.agentTimeLimitMin);
    if (userName)
        emit userNameChanged(m_settings.userName);
    emit changed();
}

void Preferences::setTheme(AppSettings::Theme theme)
{
    AppSettings s = m_settings;
    s.theme = theme;
    set(s);
}

void Preferences::setAgentTimeLimitMin(int minutes)
{
    AppSettings s = m_settings;
    s.agentTimeLimitMin = std::clamp(minutes, 0, AppSettings::MaxAgentTimeLimitMin);
    set(s);
}

} // namespace dreamrsi
