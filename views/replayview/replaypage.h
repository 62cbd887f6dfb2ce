#pragma once

#include "session/preferences.h"
#include "stepperstate.h"

#include <QPointer>
#include <QTimer>
#include "figures/figuresource.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QComboBox;
class QCustomPlot;
class QLabel;
class QSlider;
class QToolButton;

namespace dreamrsi {

class JobTracker;
class TreeView;
class Workspace;

/// The Replay tab: two policy versions replayed over the same world and β,
/// side by side on the tree, round by round, with their anytime curves
/// below. Episodes run on worker threads; a newer request makes older
/// answers stale, so the view never shows a mix of settings.
class ReplayPage final : public QWidget, public FigureSource
{
    Q_OBJECT
public:
    explicit ReplayPage(Workspace *workspace, QWidget *parent = nullptr);
    ~ReplayPage() override;

    /// The person's preferences: the stepper's speed follows the play
    /// interval, the episodes run under the script limits (run again when
    /// they change); the defaults without any.
    void setPreferences(const Preferences *preferences);
    /// The replay configuration episodes run under (its W, λ, K and β grid):
    /// the open project's, else the loose files' one.
    void setReplayConfig(const ReplayConfig &config);
    void setDark(bool dark);

    // FigureSource
    QString figureName() const override;
    FigureExport::Painter figurePainter() override;
    FigureTable figureData() const override;
    /// Picks world, versions and β and starts the two replays.
    void compare(const QString &world, const QString &versionA, const QString &versionB, double beta);

    const StepperState &state(int side) const { return m_state[side]; }
    /// The version shown on a side (0 or 1).
    QString versionName(int side) const;
    TreeView *treeView(int side) const { return m_views[side]; }
    QCustomPlot *plot() const { return m_plot; }
    bool isRunning() const { return m_pending > 0; }
    bool isPlaying() const { return m_play.isActive(); }
    /// ▶ while stopped (also after the last round), ⏸ while playing.
    QToolButton *playButton() const { return m_playButton; }
    int position() const { return m_position; }
    int roundCount() const;

public slots:
    void stepForward();
    void stepBack();
    void togglePlay();
    void restart();

signals:
    void episodesReady();
    void cellActivated(int side, int cellIndex);

private:
    void rebuildChoices();
    void scheduleRun();
    void run();
    void showPosition();
    double beta() const;

    Workspace *m_workspace;
    QPointer<const Preferences> m_preferences;
    ReplayConfig m_config; ///< until told: the loose files' defaults (revealed)
    bool m_dark = false;
    QComboBox *m_world = nullptr;
    QComboBox *m_beta = nullptr;
    QComboBox *m_version[2] = {nullptr, nullptr};
    QToolButton *m_back = nullptr;
    QToolButton *m_forward = nullptr;
    QToolButton *m_playButton = nullptr;
    QToolButton *m_restart = nullptr;
    QSlider *m_speed = nullptr;
    QLabel *m_roundLabel = nullptr;
    QLabel *m_sideLabel[2] = {nullptr, nullptr};
    TreeView *m_views[2] = {nullptr, nullptr};
    QCustomPlot *m_plot = nullptr;
    StepperState m_state[2];
    int m_position = 0;
    int m_pending = 0;
    JobTracker *m_tracker = nullptr;   ///< scope "replay page": a new run makes older answers stale
    /// Cancels the traced replays in flight (one child process per side, each
    /// waited for on a worker thread) when a newer run starts.
    std::shared_ptr<std::atomic_bool> m_cancelRun;
    QTimer m_debounce;
    QTimer m_play;
};

} // namespace dreamrsi
