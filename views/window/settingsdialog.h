#pragma once

#include "session/appsettings.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace dreamrsi {

/// Edits AppSettings: theme, replay parameters (W, λ, β grid — or, with a
/// project open, that project's replay configuration with its K — script
/// time limit, the replay process's memory and wall-clock limits), the stepper's
/// playback speed and, on the Agents page, the price table (model, USD per
/// million input and output tokens). The same page takes an API key per
/// provider for this session: accept() hands it to SessionKeys, never to
/// AppSettings or QSettings; and the agent time limit per call (Launch
/// Round's too: one setting). The Cluster box holds the Slurm defaults of
/// Launch Round.
class SettingsDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit SettingsDialog(const AppSettings &settings, QWidget *parent = nullptr);

    /// The workbench's preferences. While a project's replay configuration
    /// is shown, W, λ and β are the ones the dialog was opened with.
    AppSettings settings() const;
    /// Shows (and lets the user change) the open project's replay
    /// configuration in place of the workbench's W, λ and β, with its K, valuation and C.
    void setProjectReplayConfig(const ReplayConfig &config, const QString &projectName);
    /// The project's replay configuration as edited; nothing when no project's is shown.
    std::optional<ReplayConfig> projectReplayConfig() const;
    void accept() override;

private:
    QWidget *createAgentsPage(const AppSettings &settings);
    void fillPrices(const PriceTable &prices);
    void addPriceRow(const ModelPrice &price);
    /// The table's prices, or a failure naming the bad row.
    Result<PriceTable> pricesFromTable() const;

    QComboBox *m_theme = nullptr;
    QSpinBox *m_workers = nullptr;
    QDoubleSpinBox *m_lambda = nullptr;
    QLineEdit *m_betas = nullptr;
    QSpinBox *m_rounds = nullptr;       ///< K of the project's configuration; 0 = none
    QComboBox *m_valuation = nullptr;   ///< the project's valuation (imagined or revealed)
    QSpinBox *m_completions = nullptr;  ///< C of the project's configuration
    QComboBox *m_rule = nullptr;        ///< the imagination rule of the project's configuration
    QLabel *m_replayScope = nullptr;    ///< whose W, λ and β the fields above are
    AppSettings m_initial;              ///< W, λ and β kept while a project's are shown
    bool m_projectConfig = false;
    QSpinBox *m_timeLimit = nullptr;
    QSpinBox *m_memoryLimit = nullptr;
    QSpinBox *m_wallLimit = nullptr;
    QCheckBox *m_includeApproximate = nullptr; ///< replays include approximate worlds
    QSpinBox *m_playInterval = nullptr;
    QTableWidget *m_prices = nullptr;
    PriceTable m_initialPrices; ///< what settings() keeps while the table is invalid
    QList<QPair<QString, QLineEdit *>> m_keys; ///< provider kind → key field
    QSpinBox *m_agentTimeLimit = nullptr;      ///< AppSettings::agentTimeLimitMin
    // Cluster (Slurm) defaults
    QLineEdit *m_slurmPartition = nullptr;
    QLineEdit *m_slurmAccount = nullptr;
    QLineEdit *m_slurmQos = nullptr;
    QLineEdit *m_slurmSbatchArgs = nullptr;
    QLineEdit *m_slurmSharedDir = nullptr;
    QLineEdit *m_userName = nullptr;
};

} // namespace dreamrsi
