#pragma once

#include "loop/round/roundoptions.h"
#include "loop/round/roundtypes.h"
#include "backend/slurmsettings.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace dreamrsi {

class Preferences;

/// Launch Round (docs/online.md#commands, the GUI twin of `dreamrsi round`): task,
/// agent kind, model, base URL or command, whether the provider's key is in
/// the environment, W, K1, policy version, β, seed, budget caps and where
/// evaluations run (local, or Slurm with partition, account, QOS, extra sbatch
/// arguments and shared directory, defaulting to the settings' Cluster
/// values). The last
/// choices are remembered (UiState::launchRoundForm) when the dialog is
/// accepted, the cluster and the agent time limit as the preferences
/// (Settings shows the same values); keys are never stored.
class LaunchRoundDialog final : public QDialog
{
    Q_OBJECT
public:
    /// `policyNames`: stored versions of the project, offered beside the
    /// built-ins. `preferences` give the cluster and the agent time limit and
    /// take them back when the dialog is accepted (the ones in QSettings when null).
    LaunchRoundDialog(const QStringList &policyNames, Preferences *preferences, QWidget *parent = nullptr);

    /// The round as chosen and where it evaluates: what `dreamrsi round`
    /// reads from its command line (resume 0).
    RoundOptions options() const;
    /// The round as chosen (resume 0).
    RoundConfig config() const;
    /// The Slurm backend's settings when "slurm" is chosen; nothing for local.
    std::optional<SlurmSettings> slurmSettings() const;
    /// Fields by name for tests: "task", "agent", "model", "workers", "rounds", …
    QWidget *field(const QString &name) const;

    /// The project the round runs in: what Check (the preflight,
    /// docs/online.md#before-a-round-preflight-and-cost) checks and
    /// estimates against. Without one, Check is off.
    void setProjectPath(const QString &path);
    /// Runs the preflight off the GUI thread and shows its report below the
    /// form (the Check button); `checkFinished` tells when it is shown.
    void check();

    void accept() override;

signals:
    void checkFinished(bool ok);

private:
    void updateAgentFields();
    /// Shows a check's report: failed lines in red, the pane tall enough for it.
    void showReport(const QString &text);
    /// Hides the report once an option it was made with changes.
    void dropStaleReport();
    void load();
    void save() const;

    Preferences *m_preferences;
    QComboBox *m_task = nullptr;
    QComboBox *m_agent = nullptr;
    QLineEdit *m_model = nullptr;
    QLineEdit *m_baseUrl = nullptr;
    QLineEdit *m_command = nullptr;
    QLineEdit *m_allowEnv = nullptr;
    QLabel *m_keyStatus = nullptr;
    QSpinBox *m_workers = nullptr;
    QSpinBox *m_rounds = nullptr;
    QComboBox *m_policy = nullptr;
    QCheckBox *m_policyBeta = nullptr;
    QDoubleSpinBox *m_beta = nullptr;
    QSpinBox *m_seed = nullptr;
    QSpinBox *m_maxCalls = nullptr;
    QSpinBox *m_maxTokens = nullptr;
    QDoubleSpinBox *m_maxUsd = nullptr;
    QSpinBox *m_probe = nullptr; ///< −1: automatic; 0: off; N: at most N probe calls
    QCheckBox *m_earlyProbe = nullptr; ///< `--probe early` instead of m_probe's budget
    QComboBox *m_backend = nullptr;
    QLineEdit *m_partition = nullptr;
    QLineEdit *m_account = nullptr;
    QLineEdit *m_qos = nullptr;
    QLineEdit *m_sbatchArgs = nullptr;
    QLineEdit *m_sharedDir = nullptr;
    QSpinBox *m_agentLimit = nullptr;
    QPushButton *m_check = nullptr;
    QPlainTextEdit *m_checkReport = nullptr;
    bool m_checkStale = false; ///< an option changed while a check ran
    QString m_projectPath;
};

} // namespace dreamrsi
