#include "settingsdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLineEdit>
#include <QMessageBox>
#include <QSpinBox>

#include "loop/slurmsettings.h"
#include <QVBoxLayout>

namespace dreamrsi {

SettingsDialog::SettingsDialog(const AppSettings &settings, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Settings"));
    auto *form = new QFormLayout;
    m_theme = new QComboBox;
    m_theme->addItems({tr("Follow the system"), tr("Light"), tr("Dark")});
    m_theme->setCurrentIndex(int(settings.theme));
    form->addRow(tr("Colour theme:"), m_theme);
    m_workers = new QSpinBox;
    m_workers->setRange(1, 1000);
    m_workers->setValue(settings.workers);
    m_workers->setToolTip(tr("W: the most attempts a policy may run in one round."));
    form->addRow(tr("Parallel workers (W):"), m_workers);
    m_lambda = new QDoubleSpinBox;
    m_lambda->setRange(0, 10);
    m_lambda->setDecimals(3);
    m_lambda->setSingleStep(0.05);
    m_lambda->setValue(settings.lambda);
    m_lambda->setToolTip(tr("Weight of the parallelism penalty in the value."));
    form->addRow(tr("Penalty weight (λ):"), m_lambda);
    m_betas = new QLineEdit(AppSettings::formatBetas(settings.betas));
    m_betas->setToolTip(tr("Budget preferences of a sweep, comma separated, each in [0, 1]."));
    form->addRow(tr("β grid:"), m_betas);
    m_timeLimit = new QSpinBox;
    m_timeLimit->setRange(10, 600000);
    m_timeLimit->setSuffix(tr(" ms"));
    m_timeLimit->setValue(settings.scriptTimeLimitMs);
    form->addRow(tr("Script time limit per call:"), m_timeLimit);
    m_memoryLimit = new QSpinBox;
    m_memoryLimit->setRange(256, 1 << 20);
    m_memoryLimit->setSingleStep(256);
    m_memoryLimit->setSuffix(tr(" MiB"));
    m_memoryLimit->setValue(settings.replayMemoryLimitMb);
    m_memoryLimit->setToolTip(tr("Replays run in a separate dreamrsi process; it is stopped when its address space "
                                 "grows past this."));
    form->addRow(tr("Replay process memory limit:"), m_memoryLimit);
    m_wallLimit = new QSpinBox;
    m_wallLimit->setRange(5, 86400);
    m_wallLimit->setSuffix(tr(" s"));
    m_wallLimit->setValue(settings.replayWallLimitS);
    m_wallLimit->setToolTip(tr("A replay process still running after this long is stopped."));
    form->addRow(tr("Replay process time limit:"), m_wallLimit);
    m_playInterval = new QSpinBox;
    m_playInterval->setRange(30, 10000);
    m_playInterval->setSuffix(tr(" ms"));
    m_playInterval->setValue(settings.playIntervalMs);
    form->addRow(tr("Stepper: time per round:"), m_playInterval);

    // Cluster: defaults of the Slurm backend in Launch Round.
    auto *cluster = new QGroupBox(tr("Cluster (Slurm)"));
    auto *clusterForm = new QFormLayout(cluster);
    m_slurmPartition = new QLineEdit(settings.slurmPartition);
    m_slurmPartition->setObjectName(QStringLiteral("slurmPartition"));
    m_slurmPartition->setPlaceholderText(tr("the cluster's default partition"));
    clusterForm->addRow(tr("Partition:"), m_slurmPartition);
    m_slurmAccount = new QLineEdit(settings.slurmAccount);
    m_slurmAccount->setObjectName(QStringLiteral("slurmAccount"));
    clusterForm->addRow(tr("Account:"), m_slurmAccount);
    m_slurmQos = new QLineEdit(settings.slurmQos);
    m_slurmQos->setObjectName(QStringLiteral("slurmQos"));
    clusterForm->addRow(tr("QOS:"), m_slurmQos);
    m_slurmSbatchArgs = new QLineEdit(settings.slurmSbatchArgs);
    m_slurmSbatchArgs->setObjectName(QStringLiteral("slurmSbatchArgs"));
    m_slurmSbatchArgs->setPlaceholderText(tr("e.g. --constraint=avx2"));
    clusterForm->addRow(tr("Extra sbatch arguments:"), m_slurmSbatchArgs);
    m_slurmSharedDir = new QLineEdit(settings.slurmSharedDir);
    m_slurmSharedDir->setObjectName(QStringLiteral("slurmSharedDir"));
    m_slurmSharedDir->setPlaceholderText(tr("~/.cache/dreamrsi/slurm"));
    m_slurmSharedDir->setToolTip(tr("A directory every compute node sees at the same path."));
    clusterForm->addRow(tr("Shared work directory:"), m_slurmSharedDir);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(cluster);
    layout->addWidget(buttons);
}

AppSettings SettingsDialog::settings() const
{
    AppSettings s;
    s.theme = AppSettings::Theme(m_theme->currentIndex());
    s.workers = m_workers->value();
    s.lambda = m_lambda->value();
    s.betas = AppSettings::parseBetas(m_betas->text()).value_or(s.betas);
    s.scriptTimeLimitMs = m_timeLimit->value();
    s.replayMemoryLimitMb = m_memoryLimit->value();
    s.replayWallLimitS = m_wallLimit->value();
    s.playIntervalMs = m_playInterval->value();
    s.slurmPartition = m_slurmPartition->text().trimmed();
    s.slurmAccount = m_slurmAccount->text().trimmed();
    s.slurmQos = m_slurmQos->text().trimmed();
    s.slurmSbatchArgs = m_slurmSbatchArgs->text().trimmed();
    s.slurmSharedDir = m_slurmSharedDir->text().trimmed();
    return s;
}

void SettingsDialog::accept()
{
    if (!AppSettings::parseBetas(m_betas->text())) {
        QMessageBox::warning(this, windowTitle(), tr("The β grid must be a comma-separated list of numbers between 0 and 1."));
        return;
    }
    QString bad;
    SlurmSettings::splitArguments(m_slurmSbatchArgs->text(), &bad);
    if (!bad.isEmpty()) {
        QMessageBox::warning(this, windowTitle(), tr("Extra sbatch arguments: %1").arg(bad));
        return;
    }
    QDialog::accept();
}

} // namespace dreamrsi
