#pragma once

#include "appsettings.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace dreamrsi {

/// Edits AppSettings: theme, replay parameters (W, λ, β grid, script time
/// limit, the replay process's memory and wall-clock limits), the stepper's playback speed
/// and the cluster (Slurm) defaults of Launch Round.
class SettingsDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit SettingsDialog(const AppSettings &settings, QWidget *parent = nullptr);

    AppSettings settings() const;
    void accept() override;

private:
    QComboBox *m_theme = nullptr;
    QSpinBox *m_workers = nullptr;
    QDoubleSpinBox *m_lambda = nullptr;
    QLineEdit *m_betas = nullptr;
    QSpinBox *m_timeLimit = nullptr;
    QSpinBox *m_memoryLimit = nullptr;
    QSpinBox *m_wallLimit = nullptr;
    QSpinBox *m_playInterval = nullptr;
    // Cluster (Slurm) defaults
    QLineEdit *m_slurmPartition = nullptr;
    QLineEdit *m_slurmAccount = nullptr;
    QLineEdit *m_slurmQos = nullptr;
    QLineEdit *m_slurmSbatchArgs = nullptr;
    QLineEdit *m_slurmSharedDir = nullptr;
};

} // namespace dreamrsi
