#include "launchrounddialog.h"

#include "session/preferences.h"
#include "session/uistate.h"

#include "agent/agentfactory.h"
#include "agent/commandagentpresets.h"
#include "eval/taskregistry.h"
#include "loop/round/roundpreflight.h"
#include "policy/builtinpolicies.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHash>
#include <QPlainTextEdit>
#include <QtConcurrent/QtConcurrentRun>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTextCursor>
#include <QTextBlock>
#include <QScreen>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

QString keyVariable(const QString &kind)
{
    if (kind == QLatin1String("openai"))
        return QStringLiteral("OPENAI_API_KEY");
    if (kind == QLatin1String("anthropic"))
        return QStringLiteral("ANTHROPIC_API_KEY");
    if (kind == QLatin1String("gemini"))
        return QStringLiteral("GEMINI_API_KEY");
    return {};
}

} // namespace

LaunchRoundDialog::LaunchRoundDialog(const QStringList &policyNames, Preferences *preferences, QWidget *parent)
    : QDialog(parent)
    , m_preferences(preferences ? preferences : new Preferences(this))
{
    setWindowTitle(tr("Launch Round"));
    auto *form = new QFormLayout;

    m_task = new QComboBox;
    m_task->setObjectName(QStringLiteral("task"));
    m_task->setEditable(true);
    m_task->addItems(TaskRegistry::names());
    m_task->setToolTip(tr("A built-in task, or the folder of a custom task (problem.md, initial program, task.json)"));
    auto *browse = new QPushButton(tr("Folder…"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Task Folder"));
        if (!dir.isEmpty())
            m_task->setCurrentText(dir);
    });
    auto *taskRow = new QHBoxLayout;
    taskRow->addWidget(m_task, 1);
    taskRow->addWidget(browse);
    // A row whose field is a layout gets no buddy from the form, and a label
    // without one shows its '&' literally: these labels are made here.
    auto *taskLabel = new QLabel(tr("&Task:"));
    taskLabel->setBuddy(m_task);
    form->addRow(taskLabel, taskRow);

    m_agent = new QComboBox;
    m_agent->setObjectName(QStringLiteral("agent"));
    m_agent->addItems(discoveryAgentKinds());
    form->addRow(tr("&Agent:"), m_agent);
    m_model = new QLineEdit;
    m_model->setObjectName(QStringLiteral("model"));
    m_model->setPlaceholderText(tr("the provider's default"));
    form->addRow(tr("&Model:"), m_model);
    m_baseUrl = new QLineEdit;
    m_baseUrl->setObjectName(QStringLiteral("baseUrl"));
    m_baseUrl->setPlaceholderText(tr("the provider's public endpoint"));
    form->addRow(tr("Base &URL:"), m_baseUrl);
    m_command = new QLineEdit;
    m_command->setObjectName(QStringLiteral("command"));
    m_command->setPlaceholderText(tr("run in the attempt's workspace with /bin/sh -c"));
    form->addRow(tr("Comma&nd:"), m_command);
    // Names only: a value typed here would be remembered in the settings file.
    m_allowEnv = new QLineEdit;
    m_allowEnv->setObjectName(QStringLiteral("allowEnv"));
    m_allowEnv->setPlaceholderText(tr("variables let through to the command, e.g. MY_API_KEY, MY_BASE_URL"));
    m_allowEnv->setToolTip(tr("The command runs with only PATH, HOME and its DREAMRSI_ variables; the variables named "
                              "here (comma-separated) are copied from this program's environment. Values whose names "
                              "look secret are hidden in the logs."));
    form->addRow(tr("En&vironment:"), m_allowEnv);
    m_keyStatus = new QLabel;
    m_keyStatus->setObjectName(QStringLiteral("keyStatus"));
    m_keyStatus->setWordWrap(true); // a long status wraps instead of widening the dialog
    form->addRow(tr("Key:"), m_keyStatus);

    m_workers = new QSpinBox;
    m_workers->setObjectName(QStringLiteral("workers"));
    m_workers->setRange(RoundConfig::MinWorkers, RoundConfig::MaxWorkers);
    m_workers->setValue(RoundConfig::DefaultWorkers);
    form->addRow(tr("&Workers (W):"), m_workers);
    m_rounds = new QSpinBox;
    m_rounds->setObjectName(QStringLiteral("rounds"));
    m_rounds->setRange(0, 100000);
    m_rounds->setSpecialValueText(tr("no limit"));
    form->addRow(tr("&Rounds (K1):"), m_rounds);

    m_policy = new QComboBox;
    m_policy->setObjectName(QStringLiteral("policy"));
    // Each entry's data is its PolicyChoice in argument form (what the
    // settings keep and `round --policy` takes), made by PolicyChoice.
    m_policy->addItem(tr("Latest approved (else builtin:portfolio)"), PolicyChoice::latestApproved().toArgument());
    for (const QString &name : BuiltinPolicies::names()) {
        const QString argument = PolicyChoice::builtin(name).toArgument();
        m_policy->addItem(argument, argument);
    }
    const QString manual = PolicyChoice::manual().toArgument();
    for (const QString &name : policyNames) {
        const QString argument = PolicyChoice::stored(name).toArgument();
        if (m_policy->findData(argument) < 0 && argument != manual)
            m_policy->addItem(name, argument);
    }
    // Manual exploration: the live round asks for every batch (docs/steering.md).
    m_policy->addItem(tr("manual (you pick every batch in the live tree)"), manual);
    form->addRow(tr("&Policy:"), m_policy);
    m_policyBeta = new QCheckBox(tr("the policy's default"));
    m_policyBeta->setObjectName(QStringLiteral("policyBeta"));
    m_policyBeta->setChecked(true);
    m_beta = new QDoubleSpinBox;
    m_beta->setObjectName(QStringLiteral("beta"));
    m_beta->setRange(0.0, 1.0);
    m_beta->setSingleStep(0.05);
    m_beta->setDecimals(2);
    m_beta->setValue(0.5);
    m_beta->setEnabled(false);
    connect(m_policyBeta, &QCheckBox::toggled, m_beta, [this](bool on) { m_beta->setEnabled(!on); });
    auto *betaRow = new QHBoxLayout;
    betaRow->addWidget(m_beta);
    betaRow->addWidget(m_policyBeta, 1);
    auto *betaLabel = new QLabel(tr("&Beta (β):"));
    betaLabel->setBuddy(m_beta);
    form->addRow(betaLabel, betaRow);
    m_seed = new QSpinBox;
    m_seed->setObjectName(QStringLiteral("seed"));
    m_seed->setRange(0, std::numeric_limits<int>::max());
    form->addRow(tr("&Seed:"), m_seed);
    m_maxCalls = new QSpinBox;
    m_maxCalls->setObjectName(QStringLiteral("maxCalls"));
    m_maxCalls->setRange(0, 10000000);
    m_maxCalls->setSpecialValueText(tr("no cap"));
    form->addRow(tr("Max a&gent calls:"), m_maxCalls);
    m_maxTokens = new QSpinBox;
    m_maxTokens->setObjectName(QStringLiteral("maxTokens"));
    m_maxTokens->setRange(0, std::numeric_limits<int>::max());
    m_maxTokens->setSingleStep(10000);
    m_maxTokens->setSpecialValueText(tr("no cap"));
    m_maxTokens->setToolTip(tr("Stop the round once its agent calls have used this many tokens, in and out together"));
    form->addRow(tr("Max to&kens:"), m_maxTokens);
    m_maxUsd = new QDoubleSpinBox;
    m_maxUsd->setObjectName(QStringLiteral("maxUsd"));
    m_maxUsd->setRange(0.0, 1e6);
    m_maxUsd->setDecimals(2);
    m_maxUsd->setPrefix(QStringLiteral("$ "));
    m_maxUsd->setSpecialValueText(tr("no cap"));
    form->addRow(tr("Max c&ost:"), m_maxUsd);
    m_agentLimit = new QSpinBox;
    m_agentLimit->setObjectName(QStringLiteral("agentTimeLimit"));
    m_agentLimit->setRange(0, AppSettings::MaxAgentTimeLimitMin);
    m_agentLimit->setValue(AppSettings::DefaultAgentTimeLimitMin);
    m_agentLimit->setSuffix(tr(" min"));
    m_agentLimit->setSpecialValueText(tr("no limit"));
    m_agentLimit->setToolTip(tr("An agent call still at work after this long is killed and its attempt "
                                "stored as an agent failure."));
    form->addRow(tr("Agent time l&imit:"), m_agentLimit);
    m_probe = new QSpinBox;
    m_probe->setObjectName(QStringLiteral("probe"));
    m_probe->setRange(-1, ProbeSetting::MaxCalls);
    m_probe->setValue(-1);
    m_probe->setSpecialValueText(tr("automatic"));
    m_probe->setSuffix(tr(" calls at most"));
    m_probe->setToolTip(tr("Probe calls after the policy's last batch, where the world model of the task's history is "
                           "blind (a depth or a direction with fewer than 3 values). Automatic: up to %1 when the round "
                           "deploys a dreamed version, none otherwise; 0: no probes.")
                            .arg(ProbeSetting::AutoCalls));
    form->addRow(tr("Probe &calls:"), m_probe);
    m_earlyProbe = new QCheckBox(tr("Earl&y probes: up to %1 calls in the task's first %2 rounds while none has shown a "
                                    "refinement pay, then %3")
                                     .arg(ProbeSetting::EarlyCalls)
                                     .arg(ProbeSetting::EarlyDeployments)
                                     .arg(ProbeSetting::AutoCalls));
    m_earlyProbe->setObjectName(QStringLiteral("earlyProbe"));
    m_earlyProbe->setToolTip(tr("--probe early: more evidence where the first rounds decide whether dreams learn depth. "
                                "Not the default: on recorded worlds it gained attainment on some world sets and "
                                "cost calls and more collapses on others (README, \"Early probes\")."));
    connect(m_earlyProbe, &QCheckBox::toggled, m_probe, [this](bool early) { m_probe->setEnabled(!early); });
    form->addRow(QString(), m_earlyProbe);

    // Where evaluations run.
    m_backend = new QComboBox;
    m_backend->setObjectName(QStringLiteral("backend"));
    m_backend->addItem(tr("This machine"), QStringLiteral("local"));
    m_backend->addItem(tr("Slurm cluster"), QStringLiteral("slurm"));
    form->addRow(tr("&Evaluate on:"), m_backend);
    const AppSettings &defaults = m_preferences->settings();
    auto clusterField = [&](const char *name, const QString &value, const QString &label, const QString &placeholder) {
        auto *edit = new QLineEdit(value);
        edit->setObjectName(QString::fromLatin1(name));
        edit->setPlaceholderText(placeholder);
        form->addRow(label, edit);
        return edit;
    };
    m_partition = clusterField("partition", defaults.slurmPartition, tr("Partition:"), tr("the cluster's default"));
    m_account = clusterField("account", defaults.slurmAccount, tr("Account:"), QString());
    m_qos = clusterField("qos", defaults.slurmQos, tr("QOS:"), QString());
    m_sbatchArgs = clusterField("sbatchArgs", defaults.slurmSbatchArgs, tr("Extra sbatch arguments:"), QString());
    m_sharedDir = clusterField("sharedDir", defaults.slurmSharedDir, tr("Shared work directory:"),
                               tr("~/.cache/dreamrsi/slurm"));
    auto updateBackend = [this] {
        const bool slurm = m_backend->currentData().toString() == QLatin1String("slurm");
        for (QLineEdit *e : {m_partition, m_account, m_qos, m_sbatchArgs, m_sharedDir})
            e->setEnabled(slurm);
    };
    connect(m_backend, &QComboBox::currentIndexChanged, this, updateBackend);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Launch"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Check: the preflight, before any paid call (docs/online.md#before-a-round-preflight-and-cost).
    m_check = buttons->addButton(tr("C&heck"), QDialogButtonBox::ActionRole);
    m_check->setObjectName(QStringLiteral("check"));
    m_check->setToolTip(tr("Check the agent, the evaluator, the backend and the project, and estimate the "
                           "round's calls, cost and time, without starting it"));
    m_check->setEnabled(false);
    connect(m_check, &QPushButton::clicked, this, &LaunchRoundDialog::check);
    m_checkReport = new QPlainTextEdit;
    m_checkReport->setObjectName(QStringLiteral("checkReport"));
    m_checkReport->setReadOnly(true);
    m_checkReport->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_checkReport->setMinimumHeight(150);
    m_checkReport->setVisible(false);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_checkReport, 1);
    layout->addWidget(buttons);

    connect(m_agent, &QComboBox::currentTextChanged, this, &LaunchRoundDialog::updateAgentFields);
    load();
    updateAgentFields();
    updateBackend();
    // Any change to what a check checks drops its report.
    connect(m_task, &QComboBox::currentTextChanged, this, &LaunchRoundDialog::dropStaleReport);
    connect(m_agent, &QComboBox::currentTextChanged, this, &LaunchRoundDialog::dropStaleReport);
    connect(m_policy, &QComboBox::currentIndexChanged, this, &LaunchRoundDialog::dropStaleReport);
    connect(m_backend, &QComboBox::currentIndexChanged, this, &LaunchRoundDialog::dropStaleReport);
    for (QLineEdit *e : {m_model, m_baseUrl, m_command, m_allowEnv, m_partition, m_account, m_qos, m_sbatchArgs, m_sharedDir})
        connect(e, &QLineEdit::textChanged, this, &LaunchRoundDialog::dropStaleReport);
    for (QSpinBox *box : {m_workers, m_rounds, m_seed, m_maxCalls, m_maxTokens, m_probe})
        connect(box, &QSpinBox::valueChanged, this, &LaunchRoundDialog::dropStaleReport);
    connect(m_beta, &QDoubleSpinBox::valueChanged, this, &LaunchRoundDialog::dropStaleReport);
    connect(m_maxUsd, &QDoubleSpinBox::valueChanged, this, &LaunchRoundDialog::dropStaleReport);
    connect(m_policyBeta, &QCheckBox::toggled, this, &LaunchRoundDialog::dropStaleReport);
    connect(m_earlyProbe, &QCheckBox::toggled, this, &LaunchRoundDialog::dropStaleReport);
}

QWidget *LaunchRoundDialog::field(const QString &name) const
{
    return findChild<QWidget *>(name);
}

void LaunchRoundDialog::setProjectPath(const QString &path)
{
    m_projectPath = path;
    m_check->setEnabled(!path.isEmpty());
}

void LaunchRoundDialog::check()
{
    if (m_projectPath.isEmpty() || !m_check->isEnabled())
        return;
    m_check->setEnabled(false);
    m_checkStale = false;
    m_checkReport->setVisible(true);
    m_checkReport->setPlainText(tr("Checking the project, the agent, the backend and the evaluator…"));
    auto *watcher = new QFutureWatcher<PreflightReport>(this);
    connect(watcher, &QFutureWatcher<PreflightReport>::finished, this, [this, watcher] {
        const PreflightReport report = watcher->result();
        watcher->deleteLater();
        m_check->setEnabled(true);
        if (m_checkStale) {
            dropStaleReport();
            return;
        }
        showReport(report.toText());
        emit checkFinished(report.ok());
    });
    const RoundOptions chosen = options();
    const QString project = m_projectPath;
    watcher->setFuture(QtConcurrent::run([chosen, project] { return RoundPreflight::run(chosen, project); }));
}

void LaunchRoundDialog::showReport(const QString &text)
{
    m_checkReport->setPlainText(text);
    // Only what failed in red: the failed checks and the verdict (a failed
    // check painted every line, the passing ones too).
    const QColor failed(0xb0, 0x00, 0x20);
    for (QTextBlock block = m_checkReport->document()->begin(); block.isValid(); block = block.next()) {
        if (!block.text().startsWith(QLatin1String("FAILED")) && !block.text().startsWith(QLatin1String("not ready")))
            continue;
        QTextCursor cursor(block);
        cursor.select(QTextCursor::BlockUnderCursor);
        QTextCharFormat format;
        format.setForeground(failed);
        cursor.mergeCharFormat(format);
    }
    // Tall enough for the whole report (it scrolled at 8 lines), at most
    // half the screen; the dialog grows with it.
    const QFontMetrics fm(m_checkReport->font());
    const double textWidth = std::max(80.0, m_checkReport->viewport()->width() - 2 * m_checkReport->document()->documentMargin());
    int lines = 0;
    for (const QString &line : text.split(QLatin1Char('\n')))
        lines += std::max(1, int(std::ceil(fm.horizontalAdvance(line) / (0.9 * textWidth))));
    const int wanted = (lines + 1) * fm.lineSpacing() + 2 * m_checkReport->frameWidth()
                       + 2 * int(std::ceil(m_checkReport->document()->documentMargin()));
    const int most = screen() ? screen()->availableGeometry().height() / 2 : 600;
    m_checkReport->setMinimumHeight(std::clamp(wanted, 150, std::max(150, most)));
    resize(width(), std::max(height(), sizeHint().height()));
}

void LaunchRoundDialog::dropStaleReport()
{
    // A report says what was checked: once the round's options change it
    // no longer does (a failed check stayed after switching agents).
    if (!m_check->isEnabled()) {
        m_checkStale = true; // a check under way: its report comes for the old options
        return;
    }
    if (m_checkReport->isHidden())
        return;
    m_checkReport->clear();
    m_checkReport->setMinimumHeight(150);
    m_checkReport->setVisible(false);
    resize(width(), sizeHint().height());
}

void LaunchRoundDialog::updateAgentFields()
{
    const QString kind = m_agent->currentText();
    const bool http = !keyVariable(kind).isEmpty();
    m_model->setEnabled(http);
    m_baseUrl->setEnabled(http);
    m_command->setEnabled(kind == QLatin1String("command"));
    m_allowEnv->setEnabled(kind == QLatin1String("command"));
    if (!http) {
        m_keyStatus->setText(kind == QLatin1String("builtin") ? tr("none needed (offline, deterministic)")
                                                               : tr("none needed"));
    } else {
        const QString variable = keyVariable(kind);
        // Only an OpenAI-compatible endpoint can be a local server without a key.
        m_keyStatus->setText(!qEnvironmentVariableIsEmpty(variable.toLatin1().constData()) ? tr("%1 is set").arg(variable)
                             : kind == QLatin1String("openai")
                                 ? tr("%1 is not set (a local OpenAI-compatible server may need none)").arg(variable)
                                 : tr("%1 is not set").arg(variable));
    }
}

RoundOptions LaunchRoundDialog::options() const
{
    return RoundOptions{config(), slurmSettings()};
}

RoundConfig LaunchRoundDialog::config() const
{
    RoundConfig c;
    c.task = m_task->currentText().trimmed();
    c.agent.kind = m_agent->currentText();
    c.agent.model = m_model->text().trimmed();
    c.agent.baseUrl = m_baseUrl->text().trimmed();
    c.agent.command = m_command->text();
    if (c.agent.kind == QLatin1String("command"))
        c.agent.allowedEnvironment = parseAllowedEnvironment(m_allowEnv->text(), true).valueOr({});
    c.workers = m_workers->value();
    if (m_rounds->value() > 0)
        c.maxRounds = m_rounds->value();
    c.policy = PolicyChoice::fromArgument(m_policy->currentData().toString());
    if (!m_policyBeta->isChecked())
        c.beta = m_beta->value();
    c.seed = quint64(m_seed->value()); // the agent's too (RoundSession::prepare)
    if (m_maxCalls->value() > 0)
        c.maxCalls = m_maxCalls->value();
    if (m_maxTokens->value() > 0)
        c.maxTokens = m_maxTokens->value();
    if (m_maxUsd->value() > 0.0)
        c.maxUsd = m_maxUsd->value();
    c.agentTimeLimitS = 60.0 * m_agentLimit->value();
    if (m_earlyProbe->isChecked())
        c.probe = ProbeSetting::early();
    else if (m_probe->value() >= 0)
        c.probe = ProbeSetting::calls(m_probe->value());
    return c;
}

std::optional<SlurmSettings> LaunchRoundDialog::slurmSettings() const
{
    if (m_backend->currentData().toString() != QLatin1String("slurm"))
        return std::nullopt;
    SlurmSettings s;
    s.partition = m_partition->text().trimmed();
    s.account = m_account->text().trimmed();
    s.qos = m_qos->text().trimmed();
    s.extraArgs = SlurmSettings::splitArguments(m_sbatchArgs->text()).valueOr({}); // accept() refused an open quote
    s.sharedDir = m_sharedDir->text().trimmed();
    return s;
}

void LaunchRoundDialog::accept()
{
    const Result<QStringList> words = SlurmSettings::splitArguments(m_sbatchArgs->text());
    if (m_backend->currentData().toString() == QLatin1String("slurm") && !words.ok()) {
        QMessageBox::warning(this, windowTitle(), tr("Extra sbatch arguments: %1").arg(words.error));
        return;
    }
    const RoundConfig c = config();
    if (c.task.isEmpty()) {
        QMessageBox::warning(this, windowTitle(), tr("Choose a task."));
        return;
    }
    if (c.agent.kind == QLatin1String("command") && c.agent.command.trimmed().isEmpty()) {
        QMessageBox::warning(this, windowTitle(), tr("The command agent needs a command."));
        return;
    }
    if (const Result<QStringList> allowed = parseAllowedEnvironment(m_allowEnv->text(), true);
        c.agent.kind == QLatin1String("command") && !allowed) {
        QMessageBox::warning(this, windowTitle(), tr("Environment: %1.").arg(allowed.error));
        return;
    }
    save();
    QDialog::accept();
}

void LaunchRoundDialog::load()
{
    const UiState::LaunchRoundForm last = UiState::launchRoundForm();
    if (last.task)
        m_task->setCurrentText(*last.task);
    const int agent = m_agent->findText(last.agent);
    if (agent >= 0)
        m_agent->setCurrentIndex(agent);
    m_model->setText(last.model);
    m_baseUrl->setText(last.baseUrl);
    m_command->setText(last.command);
    m_allowEnv->setText(last.allowEnv);
    m_workers->setValue(last.workers.value_or(RoundConfig::DefaultWorkers));
    m_rounds->setValue(last.rounds);
    const int policy = m_policy->findData(last.policy);
    if (policy >= 0)
        m_policy->setCurrentIndex(policy);
    m_policyBeta->setChecked(last.policyBeta);
    m_beta->setValue(last.beta);
    m_seed->setValue(last.seed);
    m_maxCalls->setValue(last.maxCalls);
    m_maxTokens->setValue(last.maxTokens);
    m_maxUsd->setValue(last.maxUsd);
    // Settings' too: one setting, followed while the dialog is open.
    m_agentLimit->setValue(m_preferences->settings().agentTimeLimitMin);
    connect(m_preferences, &Preferences::agentTimeLimitChanged, m_agentLimit, &QSpinBox::setValue);
    const int backend = m_backend->findData(last.backend);
    if (backend >= 0)
        m_backend->setCurrentIndex(backend);
    // The cluster fields are the preferences' (Settings ▸ Cluster), filled
    // in when the dialog was made; what an older version kept in this
    // dialog's own group fills only a field the preferences leave empty.
    const QHash<QString, QLineEdit *> cluster = {
        {QStringLiteral("partition"), m_partition}, {QStringLiteral("account"), m_account}, {QStringLiteral("qos"), m_qos},
        {QStringLiteral("sbatchArgs"), m_sbatchArgs}, {QStringLiteral("sharedDir"), m_sharedDir}};
    for (const auto &[key, value] : last.oldCluster) {
        if (QLineEdit *edit = cluster.value(key); edit && edit->text().isEmpty())
            edit->setText(value);
    }
}

void LaunchRoundDialog::save() const
{
    UiState::LaunchRoundForm form;
    form.task = m_task->currentText();
    form.agent = m_agent->currentText();
    form.model = m_model->text();
    form.baseUrl = m_baseUrl->text();
    form.command = m_command->text();
    form.allowEnv = m_allowEnv->text();
    form.workers = m_workers->value();
    form.rounds = m_rounds->value();
    form.policy = m_policy->currentData().toString();
    form.policyBeta = m_policyBeta->isChecked();
    form.beta = m_beta->value();
    form.seed = m_seed->value();
    form.maxCalls = m_maxCalls->value();
    form.maxTokens = m_maxTokens->value();
    form.maxUsd = m_maxUsd->value();
    form.backend = m_backend->currentData().toString();
    UiState::setLaunchRoundForm(form); // the cluster's old keys there removed
    // The agent time limit and the cluster are stored once, as the
    // preferences (what Settings shows and the window's re-evaluation on Slurm uses).
    AppSettings preferences = m_preferences->settings();
    preferences.agentTimeLimitMin = m_agentLimit->value();
    preferences.slurmPartition = m_partition->text().trimmed();
    preferences.slurmAccount = m_account->text().trimmed();
    preferences.slurmQos = m_qos->text().trimmed();
    preferences.slurmSbatchArgs = m_sbatchArgs->text().trimmed();
    preferences.slurmSharedDir = m_sharedDir->text().trimmed();
    m_preferences->set(preferences);
}

} // namespace dreamrsi
