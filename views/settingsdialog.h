#pragma once

#include "appsettings.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace dreamrsi {

/// Edits AppSettings: theme, replay parameters (W, λ, β grid, script time
/// limit, the replay process's memory and wall-clock limits), the stepper's
/// playback speed and, on the Agents page, the price table (model, USD per
/// million input and output tokens). The same page takes an API key per
/// provider for this session: accept() hands it to SessionKeys, never to
/// AppSettings or QSettings. The Cluster box holds the Slurm defaults of
/// Launch Round.
class SettingsDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit SettingsDialog(const AppSettings &settings, QWidget *parent = nullptr);

    AppSettings settings() const;
    void accept() override;

private:
    QWidget *createAgentsPage(const AppSettings &settings);
    void fillPrices(const PriceTable &prices);
    void addPriceRow(const ModelPrice &price);
    /// The table's prices; nullopt with `*error` naming the bad row.
    std::optional<PriceTable> pricesFromTable(QString *error) const;

    QComboBox *m_theme = nullptr;
    QSpinBox *m_workers = nullptr;
    QDoubleSpinBox *m_lambda = nullptr;
    QLineEdit *m_betas = nullptr;
    QSpinBox *m_timeLimit = nullptr;
    QSpinBox *m_memoryLimit = nullptr;
    QSpinBox *m_wallLimit = nullptr;
    QSpinBox *m_playInterval = nullptr;
    QTableWidget *m_prices = nullptr;
    PriceTable m_initialPrices; ///< what settings() keeps while the table is invalid
    QList<QPair<QString, QLineEdit *>> m_keys; ///< provider kind → key field
    // Cluster (Slurm) defaults
    QLineEdit *m_slurmPartition = nullptr;
    QLineEdit *m_slurmAccount = nullptr;
    QLineEdit *m_slurmQos = nullptr;
    QLineEdit *m_slurmSbatchArgs = nullptr;
    QLineEdit *m_slurmSharedDir = nullptr;
};

} // namespace dreamrsi
