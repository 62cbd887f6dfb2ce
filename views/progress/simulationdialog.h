#pragma once

#include "project/projectsimulations.h"
#include "replay/replayworld.h"
#include "store/storetypes.h"

#include <QDialog>
#include <QList>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTimer;

namespace dreamrsi {

class CounterfactualLoop;

/// "Simulate the Loop…": the counterfactual loop (docs/online.md) over the
/// open project's worlds or the tree files of a folder, run on a worker
/// thread with live progress, a log and Stop. Its result is stored beside the
/// project when one is open for writing, and handed to the Progress tab.
class SimulationDialog final : public QDialog
{
    Q_OBJECT
public:
    /// `projectWorlds`: the open project's finished iterations (may be empty);
    /// `projectPath`: where to store the result, empty when it cannot be stored;
    /// `rememberFor`: the open project (read-only ones too) whose last form
    /// the dialog restores and keeps (T, worlds, M, W, K, β, seed, repeats,
    /// policy, arms); empty: the defaults, nothing kept. Its replay
    /// configuration, read off the GUI thread as `dreamrsi loop --project`
    /// reads it, gives the dreams' valuation and C by default and is the one
    /// the log says a dream's configuration overrides.
    SimulationDialog(QList<ReplayWorld> projectWorlds, QString projectPath, QWidget *parent = nullptr,
                     QString rememberFor = QString());
    ~SimulationDialog() override;

    bool isRunning() const { return m_running; }
    /// The project's replay configuration once read; none before, without a
    /// project, or when it could not be read (then the defaults apply).
    const std::optional<ReplayConfig> &projectConfig() const { return m_projectConfig; }
    /// Why the project's replay configuration could not be read (empty when it was).
    const QString &projectError() const { return m_projectError; }
    /// Whether the project's replay configuration is still being read.
    bool isReadingProject() const { return m_readingProject; }

    /// A line of the loop's log as shown: a dream's "replay configuration:
    /// … (overrides the project's …)" names `project`'s configuration (the
    /// in-memory dream knows none, and names the defaults); other lines as
    /// they are.
    static QString logLine(const QString &line, const std::optional<ReplayConfig> &project);

public slots:
    void start();
    void stop();

signals:
    /// The run ended with a result (also after Stop: the runs so far).
    void simulated(const QString &label, const dreamrsi::SimulationCurves &curves);

protected:
    void done(int result) override;

private:
    void log(const QString &line);
    /// The form as last left for `m_rememberFor` (UiState::simulationForm, one per project).
    void restoreForm();
    void saveForm() const;
    void updateState();
    int worldCount() const;
    /// Counts the folder's tree files off the GUI thread (a network folder
    /// can take long), a moment after the last keystroke.
    void countFolder();
    /// Reads the project's replay configuration off the GUI thread.
    void readProjectConfig();
    /// The valuation box set to the project's valuation (or the defaults').
    void showProjectValuation();

    QTimer *m_folderDebounce = nullptr;
    QString m_countedFolder;   ///< the folder m_folderWorlds was counted for
    int m_folderWorlds = 0;

    QList<ReplayWorld> m_projectWorlds;
    QString m_projectPath;
    QString m_rememberFor;
    QRadioButton *m_fromProject = nullptr;
    QRadioButton *m_fromFolder = nullptr;
    QLineEdit *m_folder = nullptr;
    QPushButton *m_browse = nullptr;
    QSpinBox *m_iterations = nullptr;
    int m_wantedIterations = 5; ///< T as last set by the researcher
    QSpinBox *m_versions = nullptr;
    QSpinBox *m_workers = nullptr;
    QSpinBox *m_rounds = nullptr;
    QCheckBox *m_fixBeta = nullptr;
    QDoubleSpinBox *m_beta = nullptr;
    QSpinBox *m_seed = nullptr;
    QSpinBox *m_repeats = nullptr;
    QComboBox *m_policy = nullptr;
    QComboBox *m_arms = nullptr;
    QCheckBox *m_guard = nullptr;
    QCheckBox *m_floor = nullptr;   ///< CounterfactualSettings::floor
    QComboBox *m_valuation = nullptr;
    bool m_formRemembered = false; ///< the form was read back from an earlier run for this project
    bool m_valuationChosen = false; ///< the researcher picked one: the project's read later does not replace it
    std::optional<ReplayConfig> m_projectConfig;
    QString m_projectError;
    bool m_readingProject = false;
    QProgressBar *m_progress = nullptr;
    QPlainTextEdit *m_log = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_stop = nullptr;
    std::shared_ptr<CounterfactualLoop> m_loop;
    bool m_running = false;
};

} // namespace dreamrsi
