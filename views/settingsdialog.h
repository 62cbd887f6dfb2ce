#pragma once

#include "appsettings.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace dreamrsi {

/// Edits AppSettings: theme, replay parameters (W, λ, β grid, script time
/// limit, the replay process's memory and wall-clock limits) and the stepper's playback speed.
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
};

} // namespace dreamrsi
