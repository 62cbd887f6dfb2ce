#include "simulationdialog.h"

#include "loop/counterfactual/counterfactualloop.h"
#include "loop/dream/policyimprover.h"
#include "policy/builtinpolicies.h"
#include "session/uistate.h"
#include "store/projectfiles.h"
#include "store/replaybounds.h"
#include "store/projectreader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace dreamrsi {

SimulationDialog::SimulationDialog(QList<ReplayWorld> projectWorlds, QString projectPath, QWidget *parent, QString rememberFor)
    : QDialog(parent)
    , m_projectWorlds(std::move(projectWorlds))
    , m_projectPath(std::move(projectPath))
    , m_rememberFor(std::move(rememberFor))
{
    setWindowTitle(tr("Simulate the Loop"));
    setObjectName(QStringLiteral("simulationDialog"));

    auto *intro = new QLabel(tr("Runs the recursive loop with recorded worlds standing in for the discovery agent: "
                                "iteration t deploys the current policy on world t as one replay episode, only the "
                                "cells it revealed join the history, and a dream over that history picks the next "
                                "policy. Fixed exploration keeps the starting policy. Exact and cheap, so it can be "
                                "repeated over many world orders."));
    intro->setWordWrap(true);

    m_fromProject = new QRadioButton(tr("The open project's worlds (%n)", nullptr, int(m_projectWorlds.size())));
    m_fromProject->setObjectName(QStringLiteral("fromProject"));
    m_fromFolder = new QRadioButton(tr("Tree files in a folder:"));
    m_fromFolder->setObjectName(QStringLiteral("fromFolder"));
    m_folder = new QLineEdit;
    m_folder->setObjectName(QStringLiteral("folder"));
    m_browse = new QPushButton(tr("Browse…"));
    auto *folderRow = new QHBoxLayout;
    folderRow->addWidget(m_fromFolder);
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(m_browse);
    (m_projectWorlds.isEmpty() ? m_fromFolder : m_fromProject)->setChecked(true);
    m_fromProject->setEnabled(!m_projectWorlds.isEmpty());

    auto spin = [](int low, int high, int value, const char *name) {
        auto *s = new QSpinBox;
        s->setRange(low, high);
        s->setValue(value);
        s->setObjectName(QLatin1String(name));
        return s;
    };
    m_iterations = spin(1, 100000, 5, "iterations");
    m_versions = spin(1, 50, 4, "versions");
    // W and K as a new project's until the project's are read (readProjectConfig), within the bounds every W and K keeps.
    m_workers = spin(ReplayBounds::MinWorkers, ReplayBounds::MaxWorkers, ReplayConfig().workers, "workers");
    m_rounds = spin(0, ReplayBounds::MaxRounds, 0, "rounds");
    m_rounds->setSpecialValueText(tr("no limit"));
    m_fixBeta = new QCheckBox(tr("Fixed β"));
    m_beta = new QDoubleSpinBox;
    m_beta->setRange(0.0, 1.0);
    m_beta->setSingleStep(0.05);
    m_beta->setValue(0.5);
    m_beta->setEnabled(false);
    auto *betaRow = new QHBoxLayout;
    betaRow->addWidget(m_fixBeta);
    betaRow->addWidget(m_beta, 1);
    m_seed = spin(0, 1000000, 0, "seed");
    m_repeats = spin(1, 10000, 20, "repeats");
    m_policy = new QComboBox;
    m_policy->setObjectName(QStringLiteral("policy"));
    for (const QString &name : BuiltinPolicies::names())
        m_policy->addItem(QStringLiteral("builtin:") + name);
    m_policy->setCurrentText(QStringLiteral("builtin:portfolio"));
    m_arms = new QComboBox;
    m_arms->setObjectName(QStringLiteral("arms"));
    m_arms->addItem(tr("Dream-RSI against fixed exploration"));
    m_arms->addItem(tr("Dream-RSI only"));
    m_arms->addItem(tr("Fixed exploration only"));
    m_guard = new QCheckBox(tr("Also run Dream-RSI with the quality guard"));
    m_guard->setObjectName(QStringLiteral("guard"));
    m_guard->setToolTip(tr("A proposal that reaches less of the history's quality than the deployed version "
                           "(at the deployment β) is refused for the best version that does not"));
    m_floor = new QCheckBox(tr("Dreams keep the hardest world (floor check)"));
    m_floor->setObjectName(QStringLiteral("floor"));
    m_floor->setChecked(true);
    m_floor->setToolTip(tr("A dream proposes only a version that reaches, on its hardest history world at the "
                           "deployment β, what the starting policy reaches on its own hardest world"));

    m_valuation = new QComboBox;
    m_valuation->setObjectName(QStringLiteral("valuation"));
    // The data: what CounterfactualSettings is given (docs/online.md#valuation).
    m_valuation->addItem(QString(), QStringLiteral("imagined"));
    m_valuation->addItem(QString(), QStringLiteral("revealed"));
    m_valuation->addItem(tr("Oracle: the complete recorded worlds"), QStringLiteral("oracle"));
    m_valuation->setToolTip(tr("What the dreams value versions over: imagined completions of the revealed worlds, "
                               "the history as revealed, or (known only here, where the worlds are recorded) the "
                               "complete worlds behind it. The default is the project's."));
    showProjectValuation();
    connect(m_valuation, &QComboBox::activated, this, [this] { m_valuationChosen = true; });

    auto *form = new QFormLayout;
    form->addRow(tr("Worlds:"), m_fromProject);
    form->addRow(QString(), folderRow);
    form->addRow(tr("Iterations (T):"), m_iterations);
    form->addRow(tr("Versions per dream (M):"), m_versions);
    form->addRow(tr("Workers (W):"), m_workers);
    form->addRow(tr("Round limit (K):"), m_rounds);
    form->addRow(tr("Budget preference:"), betaRow);
    form->addRow(tr("Seed:"), m_seed);
    form->addRow(tr("Repeats:"), m_repeats);
    form->addRow(tr("Starting policy:"), m_policy);
    form->addRow(tr("Arms:"), m_arms);
    form->addRow(QString(), m_guard);
    form->addRow(QString(), m_floor);
    form->addRow(tr("Dreams value versions over:"), m_valuation);
    // Under the form, not in a row of it: a wrapped label in a form row got
    // too little height, and its row's "Developer:" was clipped.
    auto *developer = new QLabel(tr("<b>Developer:</b> new versions are written by the built-in policy improver "
                                    "(no key, no cost)."));
    developer->setObjectName(QStringLiteral("developer"));
    developer->setWordWrap(true);

    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("progress"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("log"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(5000);
    m_log->setMinimumHeight(120);

    m_start = new QPushButton(tr("&Start"));
    m_start->setObjectName(QStringLiteral("start"));
    m_start->setDefault(true);
    m_stop = new QPushButton(tr("S&top"));
    m_stop->setObjectName(QStringLiteral("stop"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(m_start, QDialogButtonBox::ActionRole);
    buttons->addButton(m_stop, QDialogButtonBox::ActionRole);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(developer);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(m_log, 1);
    layout->addWidget(buttons);

    connect(m_fixBeta, &QCheckBox::toggled, m_beta, &QWidget::setEnabled);
    // The T the researcher chose, kept while the source of worlds changes.
    connect(m_iterations, &QSpinBox::valueChanged, this, [this](int value) { m_wantedIterations = value; });
    connect(m_fromProject, &QRadioButton::toggled, this, &SimulationDialog::updateState);
    m_folderDebounce = new QTimer(this);
    m_folderDebounce->setSingleShot(true);
    m_folderDebounce->setInterval(250);
    connect(m_folderDebounce, &QTimer::timeout, this, &SimulationDialog::countFolder);
    connect(m_folder, &QLineEdit::textChanged, this, [this] {
        m_folderDebounce->start();
        updateState();
    });
    connect(m_arms, &QComboBox::currentIndexChanged, this, &SimulationDialog::updateState);
    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder of Tree Files"), m_folder->text());
        if (!dir.isEmpty()) {
            m_folder->setText(dir);
            m_fromFolder->setChecked(true);
        }
    });
    connect(m_start, &QPushButton::clicked, this, &SimulationDialog::start);
    connect(m_stop, &QPushButton::clicked, this, &SimulationDialog::stop);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    restoreForm();
    readProjectConfig();
    updateState();
}

void SimulationDialog::readProjectConfig()
{
    if (m_rememberFor.isEmpty())
        return;
    m_readingProject = true;
    const QString project = m_rememberFor;
    QtConcurrent::run([project]() -> Result<ReplayConfig> {
        // As `dreamrsi loop --worlds … --project P` reads it.
        if (!QFileInfo(project).isFile())
            return Result<ReplayConfig>::failure(QStringLiteral("%1: no such project file").arg(project));
        StoreResult<std::unique_ptr<ProjectReader>> reader = ProjectFiles::openReader(project);
        if (!reader.ok())
            return reader.failureAs<ReplayConfig>();
        const StoreResult<StoredReplayConfig> config = (*reader.value)->replayConfig();
        if (!config.ok())
            return config.failureAs<ReplayConfig>();
        return Result<ReplayConfig>::success(config.value->config);
    }).then(this, [this](const Result<ReplayConfig> &read) {
        const std::optional<ReplayConfig> config = read.value;
        // Said, not hidden: the study then starts from the defaults.
        m_projectError = read.error;
        if (!read.ok())
            m_log->appendPlainText(tr("The project's replay configuration could not be read (%1); the defaults apply.")
                                       .arg(read.error));
        m_readingProject = false;
        m_projectConfig = config;
        if (config && !m_formRemembered) { // the study starts where the project's replays do
            m_workers->setValue(config->workers);
            m_rounds->setValue(config->rounds.value_or(0));
        }
        if (!m_valuationChosen)
            showProjectValuation();
        updateState();
    });
}

void SimulationDialog::showProjectValuation()
{
    const ReplayConfig config = m_projectConfig.value_or(ReplayConfig());
    const QString whose = m_projectConfig ? tr("the project's") : tr("the default");
    m_valuation->setItemText(0, config.valuation == Valuation::Imagined
                                    ? tr("Imagined completions, C %1 (%2)").arg(config.completions).arg(whose)
                                    : tr("Imagined completions, C %1").arg(config.completions));
    m_valuation->setItemText(1, config.valuation == Valuation::Revealed ? tr("The history as revealed (%1)").arg(whose)
                                                                        : tr("The history as revealed"));
    m_valuation->setCurrentIndex(config.valuation == Valuation::Imagined ? 0 : 1);
}

QString SimulationDialog::logLine(const QString &line, const std::optional<ReplayConfig> &project)
{
    // The dream in memory has no project and says so (dreamer.cpp,
    // configure()); the dialog names the project's configuration it read.
    static const QRegularExpression said(
        QStringLiteral("^(.*replay configuration: )(.*) \\((?:overrides the project's .* for this dream|the project's|this dream's; no project)\\)$"));
    const QRegularExpressionMatch m = said.match(line);
    if (!m.hasMatch())
        return line;
    const QString ran = m.captured(2);
    if (!project)
        return m.captured(1) + ran + tr(" (no project configuration read; a new project's is %1)").arg(ReplayConfig().label());
    if (ran == project->label())
        return m.captured(1) + ran + tr(" (the project's)");
    return m.captured(1) + ran + tr(" (overrides the project's %1 for this simulation)").arg(project->label());
}

void SimulationDialog::restoreForm()
{
    if (m_rememberFor.isEmpty())
        return;
    const std::optional<UiState::SimulationForm> last = UiState::simulationForm(m_rememberFor);
    if (!last)
        return;
    m_formRemembered = true;
    m_folder->setText(last->folder);
    if (last->fromFolder || m_projectWorlds.isEmpty())
        m_fromFolder->setChecked(true);
    else
        m_fromProject->setChecked(true);
    m_wantedIterations = last->iterations;
    {
        const QSignalBlocker block(m_iterations);
        m_iterations->setValue(m_wantedIterations);
    }
    m_versions->setValue(last->versions);
    m_workers->setValue(last->workers.value_or(ReplayConfig().workers));
    m_rounds->setValue(last->rounds);
    m_fixBeta->setChecked(last->fixBeta);
    m_beta->setValue(last->beta);
    m_seed->setValue(last->seed);
    m_repeats->setValue(last->repeats);
    if (m_policy->findText(last->policy) >= 0)
        m_policy->setCurrentText(last->policy);
    m_arms->setCurrentIndex(std::clamp(last->arms, 0, m_arms->count() - 1));
    m_guard->setChecked(last->guard);
    m_floor->setChecked(last->floor);
}

void SimulationDialog::saveForm() const
{
    if (m_rememberFor.isEmpty())
        return;
    UiState::SimulationForm form;
    form.fromFolder = m_fromFolder->isChecked();
    form.folder = m_folder->text();
    form.iterations = m_wantedIterations;
    form.versions = m_versions->value();
    form.workers = m_workers->value();
    form.rounds = m_rounds->value();
    form.fixBeta = m_fixBeta->isChecked();
    form.beta = m_beta->value();
    form.seed = m_seed->value();
    form.repeats = m_repeats->value();
    form.policy = m_policy->currentText();
    form.arms = m_arms->currentIndex();
    form.guard = m_guard->isChecked();
    form.floor = m_floor->isChecked();
    UiState::setSimulationForm(m_rememberFor, form);
}

void SimulationDialog::done(int result)
{
    saveForm();
    QDialog::done(result);
}

SimulationDialog::~SimulationDialog()
{
    // The worker keeps its own reference to the loop and finishes soon after.
    if (m_loop)
        m_loop->stop();
}

int SimulationDialog::worldCount() const
{
    if (m_fromProject->isChecked())
        return int(m_projectWorlds.size());
    return m_countedFolder == m_folder->text() ? m_folderWorlds : 0;
}

void SimulationDialog::countFolder()
{
    const QString folder = m_folder->text();
    QtConcurrent::run([folder] {
        const QDir dir(folder);
        return folder.isEmpty() || !dir.exists() ? 0 : int(dir.entryList({QStringLiteral("*.json")}, QDir::Files).size());
    }).then(this, [this, folder](int count) {
        m_countedFolder = folder;
        m_folderWorlds = count;
        updateState();
    });
}

void SimulationDialog::updateState()
{
    const int worlds = worldCount();
    // T is at most the number of worlds. While none are known (a folder not
    // chosen or still being counted) the chosen T stays as it is, and once
    // they are, it comes back as far as they allow.
    if (worlds > 0) {
        const QSignalBlocker block(m_iterations);
        m_iterations->setMaximum(worlds);
        m_iterations->setValue(std::min(m_wantedIterations, worlds));
    }
    const bool fixedOnly = m_arms->currentIndex() == 2;
    m_versions->setEnabled(!m_running && !fixedOnly);
    m_guard->setEnabled(!m_running && !fixedOnly);
    m_floor->setEnabled(!m_running && !fixedOnly);
    m_valuation->setEnabled(!m_running && !fixedOnly);
    // The project's valuation is known before a run starts with it.
    m_start->setEnabled(!m_running && !m_readingProject && worlds > 0);
    m_stop->setEnabled(m_running);
    if (!m_running)
        m_status->setText(worlds > 0 ? tr("%n world(s) to draw from.", nullptr, worlds)
                                     : tr("Choose a folder of tree files (*.json), or open a project with finished iterations."));
}

void SimulationDialog::log(const QString &line)
{
    m_log->appendPlainText(logLine(line, m_projectConfig));
}

void SimulationDialog::stop()
{
    if (m_loop) {
        m_loop->stop();
        m_status->setText(tr("Stopping after the current iteration…"));
        m_stop->setEnabled(false);
    }
}

void SimulationDialog::start()
{
    if (m_running)
        return;
    saveForm(); // what a run was started with is kept, whatever happens next
    // As `dreamrsi loop --worlds … --project P` starts: the project's replay
    // configuration (W, K, λ, β grid, valuation, C), then what the form sets.
    CounterfactualSettings s = CounterfactualSettings::forProject(m_projectConfig);
    if (m_fromProject->isChecked()) {
        s.worlds = m_projectWorlds;
    } else {
        const QDir dir(m_folder->text());
        for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            s.worldPaths.append(dir.filePath(name));
    }
    s.iterations = m_iterations->value();
    s.versions = m_versions->value();
    s.workers = m_workers->value();
    s.maxRounds = m_rounds->value() > 0 ? std::optional<int>(m_rounds->value()) : std::nullopt;
    if (m_fixBeta->isChecked())
        s.beta = m_beta->value();
    s.seed = quint64(m_seed->value());
    s.episodeSeed = quint32(m_seed->value());
    s.repeats = m_repeats->value();
    s.policyArgument = m_policy->currentText();
    // The valuation: the project's unless chosen here (C is the project's).
    const QString valuation = m_valuation->currentData().toString();
    s.oracle = valuation == QLatin1String("oracle");
    if (!s.oracle)
        s.valuation = valuationFromName(valuation).value_or(s.valuation);
    s.arms.clear();
    if (m_arms->currentIndex() != 2)
        s.arms.append(CounterfactualArm::Dream);
    if (m_arms->currentIndex() != 2 && m_guard->isChecked())
        s.arms.append(CounterfactualArm::Guarded);
    s.floor = m_floor->isChecked();
    if (m_arms->currentIndex() != 1)
        s.arms.append(CounterfactualArm::Fixed);

    m_loop = std::make_shared<CounterfactualLoop>(m_arms->currentIndex() == 2 ? nullptr : std::make_shared<PolicyImprover>());
    connect(m_loop.get(), &CounterfactualLoop::message, this, &SimulationDialog::log, Qt::QueuedConnection);
    connect(m_loop.get(), &CounterfactualLoop::progress, this, [this](int done, int total) {
        m_progress->setRange(0, std::max(1, total));
        m_progress->setValue(done);
        m_status->setText(tr("%1 of %2 iterations simulated.").arg(done).arg(total));
    }, Qt::QueuedConnection);
    m_running = true;
    m_log->clear();
    updateState();
    m_status->setText(tr("Simulating…"));

    QPointer<SimulationDialog> self(this);
    const std::shared_ptr<CounterfactualLoop> loop = m_loop;
    QtConcurrent::run([loop, s] {
        const CounterfactualReport report = loop->run(s);
        return std::make_pair(report, QJsonDocument(CounterfactualLoop::toJson(report, s)).toJson(QJsonDocument::Indented));
    }).then(this, [self, loop](const std::pair<CounterfactualReport, QByteArray> &result) {
        if (!self)
            return;
        self->m_running = false;
        self->m_loop.reset();
        self->updateState();
        const CounterfactualReport &report = result.first;
        if (!report.error.isEmpty()) {
            self->m_status->setText(tr("The simulation could not run: %1").arg(report.error));
            self->log(report.error);
            return;
        }
        const Result<SimulationCurves> curves = ProjectSimulations::curvesFromJson(result.second);
        if (!curves.ok()) {
            self->m_status->setText(report.stopped ? tr("Stopped before any iteration finished.")
                                                   : tr("The simulation gave no result: %1").arg(curves.error));
            return;
        }
        QString where;
        if (!self->m_projectPath.isEmpty()) {
            const Result<QString> saved = ProjectSimulations::save(self->m_projectPath, result.second);
            where = saved.ok() ? tr(" Stored as %1.").arg(QDir::toNativeSeparators(*saved.value))
                               : tr(" It could not be stored: %1").arg(saved.error);
        }
        self->m_status->setText((report.stopped ? tr("Stopped; the runs so far are shown in the Progress tab.")
                                                : tr("Done; the result is shown in the Progress tab."))
                                + where);
        emit self->simulated(report.stopped ? tr("Simulation (stopped)") : tr("Simulation"), *curves.value);
    });
}

} // namespace dreamrsi
