#include "dreamingdialog.h"

#include "approvaldialog.h"
#include "tree/unifieddiff.h"
#include "session/dreamcontroller.h"
#include "session/replayjobs.h"
#include "models/workspace.h"

#include "loop/dream/policytunables.h"
#include "project/valuationworlds.h"
#include "store/projectstore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace dreamrsi {

namespace {

// The value the dream judges by, then the value on the revealed history and
// on the imagined completions (both known for the deployed version and the proposal).
enum VersionColumn { IndexColumn, NameColumn, DeveloperColumn, ValueColumn, RevealedColumn, ImaginedColumn, ErrorColumn, VersionColumnCount };

// One row per candidate the developer replayed (docs/online.md#dreams-you-can-read).
enum CandidateColumn {
    CandidateIndexColumn,
    CandidateParentColumn,
    CandidateKindColumn,
    CandidateChangesColumn,
    CandidateWhyColumn,
    CandidateValueColumn,
    CandidateStatusColumn,
    CandidateColumnCount
};

QString valueText(const std::optional<double> &v)
{
    return v ? QString::number(*v, 'f', 4) : QStringLiteral("—");
}

} // namespace

DreamingDialog::DreamingDialog(Workspace &workspace, ProjectStore *store, const Preferences *preferences, QWidget *parent)
    : QDialog(parent)
    , m_workspace(workspace)
    , m_store(store)
    , m_preferences(preferences)
{
    setWindowTitle(tr("Dreaming"));
    setObjectName(QStringLiteral("dreamingDialog"));

    m_versions = new QSpinBox(this);
    m_versions->setObjectName(QStringLiteral("dreamVersions"));
    m_versions->setRange(1, 100);
    m_versions->setValue(4);
    m_versions->setToolTip(tr("Versions per dream, the deployed one included"));
    m_agent = new QComboBox(this);
    m_agent->setObjectName(QStringLiteral("dreamAgent"));
    m_agent->addItem(tr("Built-in improver (offline)"), QStringLiteral("builtin"));
    m_agent->addItem(tr("OpenAI-compatible"), QStringLiteral("openai"));
    m_agent->addItem(tr("Anthropic"), QStringLiteral("anthropic"));
    m_agent->addItem(tr("Gemini"), QStringLiteral("gemini"));
    m_agent->addItem(tr("Command"), QStringLiteral("command"));
    m_model = new QLineEdit(this);
    m_model->setPlaceholderText(tr("provider default"));
    m_baseUrl = new QLineEdit(this);
    m_baseUrl->setPlaceholderText(tr("provider default"));
    m_command = new QLineEdit(this);
    m_command->setObjectName(QStringLiteral("dreamCommand"));
    m_command->setPlaceholderText(tr("the command line that answers the prompt on stdin"));
    m_seed = new QSpinBox(this);
    m_seed->setObjectName(QStringLiteral("dreamSeed"));
    m_seed->setRange(0, 1000000);
    m_seed->setToolTip(tr("Seeds the improver's steps and the imagined completions: values of dreams with different "
                          "seeds are not comparable"));
    m_dream = new DreamController(store, this);
    connect(m_dream, &DreamController::message, this, &DreamingDialog::logInDream);
    connect(m_dream, &DreamController::versionReady, this, &DreamingDialog::onVersion);
    connect(m_dream, &DreamController::stepStarted, this, [this](int index, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(index);
    });
    connect(m_dream, &DreamController::finished, this, &DreamingDialog::onFinished);
    connect(m_dream, &DreamController::prepared, this, [this](int worlds, int approximateLeftOut) {
        if (approximateLeftOut > 0)
            logInDream(tr("%n approximate world(s) left out; Settings ▸ Include approximate worlds dreams in them too.",
                          nullptr, approximateLeftOut));
        logInDream(tr("Dreaming: %1 versions over %2 worlds with %3").arg(m_versions->value()).arg(worlds).arg(m_agent->currentText()));
    });
    // Dreams replay under the project's one replay configuration (the Dreamer
    // reads it from the project when it starts).
    const std::optional<StoredReplayConfig> &config = workspace.replayConfig();
    m_grid = new QLabel(config ? tr("%1 (the project's replay configuration)").arg(config->config.label())
                               : tr("the project's replay configuration"),
                        this);
    m_grid->setObjectName(QStringLiteral("dreamReplayConfig"));
    m_valuation = new QLabel(config ? valuationText(config->config) : tr("the project's valuation"), this);
    m_valuation->setObjectName(QStringLiteral("dreamValuation"));
    m_valuation->setWordWrap(true);

    m_floor = new QCheckBox(tr("&Keep the hardest world"), this);
    m_floor->setObjectName(QStringLiteral("dreamFloor"));
    m_floor->setChecked(true);
    m_floor->setToolTip(tr("Propose only a version that reaches, on its hardest history world at the deployment β, "
                           "what the project's first approved version reaches on its own hardest world"));

    auto *form = new QFormLayout;
    form->addRow(tr("&Versions:"), m_versions);
    form->addRow(tr("&Agent:"), m_agent);
    form->addRow(tr("&Model:"), m_model);
    form->addRow(tr("&Base URL:"), m_baseUrl);
    form->addRow(tr("&Command:"), m_command);
    form->addRow(tr("&Seed:"), m_seed);
    form->addRow(tr("Replay:"), m_grid);
    form->addRow(tr("Valuation:"), m_valuation);
    form->addRow(tr("Floor:"), m_floor);
    auto syncAgent = [this] {
        const QString kind = m_agent->currentData().toString();
        const bool command = kind == QLatin1String("command");
        m_model->setEnabled(kind != QLatin1String("builtin") && !command);
        m_baseUrl->setEnabled(kind != QLatin1String("builtin") && !command);
        m_command->setEnabled(command);
    };
    connect(m_agent, &QComboBox::currentIndexChanged, this, syncAgent);
    syncAgent();

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("dreamProgress"));
    m_progress->setRange(0, m_versions->value());
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v of %m versions"));
    // Until a dream starts, the bar counts what Versions asks for.
    connect(m_versions, &QSpinBox::valueChanged, this, [this](int versions) {
        if (!m_running)
            m_progress->setRange(0, versions);
    });

    m_table = new QTableWidget(0, VersionColumnCount, this);
    m_table->setObjectName(QStringLiteral("dreamVersionsTable"));
    m_table->setHorizontalHeaderLabels({tr("#"), tr("Version"), tr("Written by"), tr("Mean value"), tr("Revealed history"),
                                        tr("Imagined completions"), tr("Error")});
    m_table->horizontalHeaderItem(ValueColumn)->setToolTip(tr("The value the dream judges the version by (its valuation)"));
    m_table->horizontalHeaderItem(RevealedColumn)
        ->setToolTip(tr("Mean value over the history worlds as the deployed policies revealed them"));
    m_table->horizontalHeaderItem(ImaginedColumn)
        ->setToolTip(tr("Mean value over the imagined completions of the history worlds"));
    // Headers and values whole (the two valuations' headers are long); errors take what is left.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(ErrorColumn, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Room for the deployed version and three more without scrolling: the
    // answer under the table compares the deployed version with the leader.
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height()
                              + 4 * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth());
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &DreamingDialog::showSelected);

    // Every candidate behind a version: what it changed and why, and whether
    // it counted (a repeated behaviour or one inert at the deployed β is
    // replaced, not valued again).
    m_candidateSummary = new QLabel(tr("No candidates yet."), this);
    m_candidateSummary->setObjectName(QStringLiteral("dreamCandidateSummary"));
    m_candidateSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_allCandidates = new QCheckBox(tr("&All versions"), this);
    m_allCandidates->setObjectName(QStringLiteral("dreamAllCandidates"));
    m_allCandidates->setToolTip(tr("List the candidates of every version of the dream, not only the selected one's"));
    connect(m_allCandidates, &QCheckBox::toggled, this, &DreamingDialog::showCandidates);
    m_candidates = new QTableWidget(0, CandidateColumnCount, this);
    m_candidates->setObjectName(QStringLiteral("dreamCandidatesTable"));
    m_candidates->setHorizontalHeaderLabels(
        {tr("#"), tr("Parent"), tr("Kind"), tr("What changed"), tr("Why"), tr("Value"), tr("Status")});
    m_candidates->horizontalHeaderItem(CandidateIndexColumn)->setToolTip(tr("The candidate's place in the dream"));
    m_candidates->horizontalHeaderItem(CandidateParentColumn)->setToolTip(tr("The version the candidate was derived from"));
    m_candidates->horizontalHeaderItem(CandidateKindColumn)
        ->setToolTip(tr("learned: rules set from the history's statistics; proposal: a variant the history argues for; "
                        "random: a random step"));
    m_candidates->horizontalHeaderItem(CandidateChangesColumn)->setToolTip(tr("Tunables changed against the parent"));
    m_candidates->horizontalHeaderItem(CandidateValueColumn)
        ->setToolTip(tr("Mean value under the dream's valuation; a behaviour is valued once"));
    // Columns fit their contents; the reason takes what is left. A long
    // change list or error is elided at the cap, whole in the tooltip.
    QHeaderView *header = m_candidates->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(CandidateWhyColumn, QHeaderView::Stretch);
    header->setMaximumSectionSize(420);
    m_candidates->verticalHeader()->hide();
    m_candidates->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_candidates->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_candidates->setWordWrap(false);
    m_candidates->setAlternatingRowColors(true);
    auto *candidatePage = new QWidget(this);
    auto *candidateLayout = new QVBoxLayout(candidatePage);
    candidateLayout->setContentsMargins(0, 4, 0, 0);
    auto *candidateRow = new QHBoxLayout;
    candidateRow->addWidget(m_candidateSummary, 1);
    candidateRow->addWidget(m_allCandidates);
    candidateLayout->addLayout(candidateRow);
    candidateLayout->addWidget(m_candidates, 1);

    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_detail = new QPlainTextEdit(this);
    m_detail->setObjectName(QStringLiteral("dreamDetail"));
    m_detail->setReadOnly(true);
    m_detail->setFont(mono);
    m_detail->setPlaceholderText(tr("Select a version to see its diff against its parent."));
    m_log = new QPlainTextEdit(this);
    m_log->setObjectName(QStringLiteral("dreamLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);

    m_detailTabs = new QTabWidget(this);
    m_detailTabs->setObjectName(QStringLiteral("dreamDetailTabs"));
    m_detailTabs->addTab(candidatePage, tr("Ca&ndidates"));
    m_detailTabs->addTab(m_detail, tr("&Diff and Response"));

    // The dream's answer and its noise check, under the versions it compared.
    m_check = new QLabel(this);
    m_check->setObjectName(QStringLiteral("dreamProposalCheck"));
    m_check->setWordWrap(true);
    m_check->setTextFormat(Qt::RichText);
    m_check->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_check->hide();
    auto *versionsPage = new QWidget(this);
    auto *versionsLayout = new QVBoxLayout(versionsPage);
    versionsLayout->setContentsMargins(0, 0, 0, 0);
    versionsLayout->addWidget(m_table, 1);
    versionsLayout->addWidget(m_check);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(versionsPage);
    splitter->addWidget(m_detailTabs);
    splitter->addWidget(m_log);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 4);
    splitter->setStretchFactor(2, 1);

    m_start = new QPushButton(tr("&Start Dreaming"), this);
    m_start->setObjectName(QStringLiteral("dreamStart"));
    m_cancel = new QPushButton(tr("&Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("dreamCancel"));
    m_review = new QPushButton(tr("&Review Proposal…"), this);
    m_review->setObjectName(QStringLiteral("dreamReview"));
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_start, &QPushButton::clicked, this, &DreamingDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &DreamingDialog::cancel);
    connect(m_review, &QPushButton::clicked, this, &DreamingDialog::review);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_review);
    buttons->addStretch(1);
    buttons->addWidget(close);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(splitter, 1);
    layout->addLayout(buttons);
    resize(1100, 760);
    updateButtons();
}

DreamingDialog::~DreamingDialog()
{
    m_dream->cancel(); // the workers stop soon; their answers are dropped with the controller
}

void DreamingDialog::log(const QString &line)
{
    m_log->appendPlainText(line);
}

void DreamingDialog::logInDream(const QString &line)
{
    log(m_loggedDreams.isEmpty() ? line : QStringLiteral("    ") + line);
}

void DreamingDialog::logDreamHeading(const ReplayConfig &config, quint64 seed)
{
    // Each seed draws other completions of the history worlds, so values of
    // dreams with different seeds are not comparable (docs/online.md#valuation):
    // the log groups each dream's lines under its seed and says so.
    LoggedDream dream;
    dream.number = m_loggedDreams.isEmpty() ? 1 : m_loggedDreams.constLast().number + 1;
    dream.seed = seed;
    dream.imagined = config.valuation == Valuation::Imagined;
    dream.completions = dream.imagined ? config.completions : 0;
    if (!m_log->toPlainText().isEmpty())
        log(QString());
    log(dream.imagined ? tr("Dream %1 · seed %2 · imagined valuation over C = %3 completions")
                             .arg(dream.number)
                             .arg(dream.seed)
                             .arg(dream.completions)
                       : tr("Dream %1 · seed %2 · %3").arg(dream.number).arg(dream.seed).arg(valuationText(config)));
    QStringList others;
    for (const LoggedDream &earlier : std::as_const(m_loggedDreams)) {
        if ((earlier.imagined || dream.imagined) && (earlier.seed != dream.seed || earlier.completions != dream.completions))
            others.append(tr("dream %1 (seed %2)").arg(earlier.number).arg(earlier.seed));
    }
    m_loggedDreams.append(dream);
    if (!others.isEmpty())
        logInDream(tr("This dream's values are not comparable with those of %1 above: another seed or completion count draws "
                      "other imagined completions. Compare versions within one dream.")
                       .arg(others.join(QStringLiteral(", "))));
}

QString DreamingDialog::dreamTag() const
{
    if (m_loggedDreams.isEmpty())
        return {};
    const LoggedDream &d = m_loggedDreams.constLast();
    return d.imagined ? tr("dream %1, seed %2, C = %3").arg(d.number).arg(d.seed).arg(d.completions)
                      : tr("dream %1, seed %2").arg(d.number).arg(d.seed);
}

const DreamVersion *DreamingDialog::reviewTarget() const
{
    const QList<QTableWidgetItem *> items = m_table->selectedItems();
    if (!items.isEmpty()) {
        const int arrived = m_table->item(items.first()->row(), IndexColumn)->data(Qt::UserRole).toInt();
        if (arrived >= 0 && arrived < m_arrived.size())
            return &m_arrived.at(arrived);
    }
    return m_report.proposal();
}

void DreamingDialog::updateButtons()
{
    m_start->setEnabled(!m_running);
    m_cancel->setEnabled(m_running);
    m_versions->setEnabled(!m_running);
    m_agent->setEnabled(!m_running);
    m_floor->setEnabled(!m_running);
    // A version to review: the proposal, or the row selected, unless it is
    // the deployed version itself or was approved already.
    const DreamVersion *target = reviewTarget();
    const DreamVersion *proposal = m_report.proposal();
    const bool nothingBetter = proposal && proposal->index == 0;
    const bool approved = target && !m_approved.isEmpty() && target->developed.version.name == m_approved;
    const bool reviewable = !m_running && target && target->index > 0 && !approved;
    m_review->setEnabled(reviewable);
    // When the deployed version stayed the best, the button says so instead
    // of offering it for approval; after an approval, that it is done.
    if (approved) {
        m_review->setText(tr("%1 Approved").arg(m_approved));
        m_review->setToolTip(tr("You approved %1 from this dream: there is nothing more to review for it.").arg(m_approved));
    } else if (nothingBetter && !reviewable) {
        m_review->setText(tr("Nothing Better Found"));
        const QString check = ApprovalDialog::proposalCheckText(m_report.check);
        m_review->setToolTip(
            tr("The dream found no version better than the deployed %1: there is nothing to approve. Select another "
               "version to review it anyway.")
                .arg(proposal->developed.version.name)
            + (check.isEmpty() ? QString() : QStringLiteral("\n") + check));
    } else {
        m_review->setText(tr("&Review Proposal…"));
        m_review->setToolTip(QString());
    }
}

bool DreamingDialog::start()
{
    if (m_running)
        return false;
    if (!m_store || m_store->path().isEmpty()) {
        log(tr("Open a project first: dreaming stores its versions and results there."));
        return false;
    }
    if (m_store->isReadOnly()) {
        log(tr("The project is open read-only while another process writes it; dreaming cannot store its versions."));
        return false;
    }
    // What `dreamrsi dream` is given: the developer, the settings, whether approximate worlds count.
    DreamOptions options;
    options.agentKind = m_agent->currentData().toString();
    options.model = m_model->text().trimmed();
    options.baseUrl = m_baseUrl->text().trimmed();
    options.command = m_command->text().trimmed();
    options.settings.versions = m_versions->value();
    const AppSettings &preferences = Preferences::of(m_preferences);
    options.settings.limits = preferences.scriptLimits();
    options.settings.seed = quint64(m_seed->value());
    options.settings.floorCheck = m_floor->isChecked();
    options.includeApproximate = preferences.includeApproximate;
    if (const QString problem = options.problem(); !problem.isEmpty()) {
        log(tr("Cannot dream: %1").arg(problem));
        return false;
    }
    clearDream();
    showCandidates();
    {
        // The completions are drawn with the dream's seed (the project's valuation, as the Dreamer reads it).
        const std::optional<StoredReplayConfig> &config = m_workspace.replayConfig();
        logDreamHeading(config ? config->config : ReplayConfig(), options.settings.seed);
    }
    m_progress->setRange(0, options.settings.versions);
    m_progress->setValue(0);
    m_running = true;
    updateButtons();
    logInDream(tr("Reading the project's worlds…"));
    m_dream->start(options);
    return true;
}

void DreamingDialog::clearDream()
{
    m_report = DreamReport();
    m_approved.clear();
    m_arrived.clear();
    m_table->setRowCount(0);
    m_check->hide();
    m_detail->clear();
}

void DreamingDialog::cancel()
{
    if (m_running) {
        m_dream->cancel();
        logInDream(tr("Cancelling…"));
    }
}

void DreamingDialog::showReport(const DreamReport &report)
{
    if (m_running)
        return;
    clearDream();
    logDreamHeading(report.config, report.imagineSeed);
    m_progress->setRange(0, int(report.versions.size()));
    m_progress->setValue(0);
    for (const DreamVersion &v : report.versions)
        onVersion(v);
    onFinished(report);
}

void DreamingDialog::onVersion(const DreamVersion &version)
{
    m_arrived.append(version);
    const PolicyVersion &v = version.developed.version;
    m_workspace.addVersion(v);
    if (version.developed.result)
        m_workspace.setResult(v.name, version.developed.result);

    const int row = m_table->rowCount();
    m_table->insertRow(row);
    auto *index = new QTableWidgetItem(QString::number(version.index));
    index->setData(Qt::UserRole, int(m_arrived.size() - 1));
    m_table->setItem(row, IndexColumn, index);
    m_table->setItem(row, NameColumn, new QTableWidgetItem(v.name));
    m_table->setItem(row, DeveloperColumn,
                     new QTableWidgetItem(version.index == 0                       ? tr("deployed")
                                          : version.developer == QLatin1String("floor") ? tr("the floor (first approved)")
                                                                                        : version.developer));
    m_table->setItem(row, ValueColumn, new QTableWidgetItem(valueText(version.developed.value)));
    m_table->setItem(row, RevealedColumn, new QTableWidgetItem(valueText(version.revealedValue)));
    m_table->setItem(row, ImaginedColumn, new QTableWidgetItem(valueText(version.imaginedValue)));
    m_table->setItem(row, ErrorColumn, new QTableWidgetItem(version.developed.error));
    if (!version.developed.error.isEmpty())
        m_table->item(row, ErrorColumn)->setToolTip(version.developed.error);
    m_progress->setValue(version.index + 1);
    // Listing every version's candidates (nothing selected yet): this one's join them.
    if (m_table->selectedItems().isEmpty() || m_allCandidates->isChecked())
        showCandidates();
}

void DreamingDialog::onFinished(const DreamReport &report)
{
    m_running = false;
    m_report = report;
    // The dream's valuation as it ran, and the deployed version's and the
    // proposal's other number (valued once the dream had chosen).
    m_valuation->setText(valuationText(report.config, report.imagineSeed));
    for (const DreamVersion &v : report.versions) {
        for (int row = 0; row < m_table->rowCount(); ++row) {
            const int arrived = m_table->item(row, IndexColumn)->data(Qt::UserRole).toInt();
            if (arrived < 0 || arrived >= m_arrived.size() || m_arrived.at(arrived).index != v.index)
                continue;
            m_arrived[arrived].revealedValue = v.revealedValue;
            m_arrived[arrived].imaginedValue = v.imaginedValue;
            m_table->item(row, RevealedColumn)->setText(valueText(v.revealedValue));
            m_table->item(row, ImaginedColumn)->setText(valueText(v.imaginedValue));
        }
    }
    if (const DreamVersion *deployed = report.versions.isEmpty() ? nullptr : &report.versions.first())
        logInDream(tr("Deployed %1: revealed history %2, imagined completions %3 (%4)")
                       .arg(deployed->developed.version.name, valueText(deployed->revealedValue),
                            valueText(deployed->imaginedValue), dreamTag()));
    if (const DreamVersion *p = report.proposal(); p && p->index != 0)
        logInDream(tr("Proposal %1: revealed history %2, imagined completions %3 (%4)")
                       .arg(p->developed.version.name, valueText(p->revealedValue), valueText(p->imaginedValue), dreamTag()));
    reloadOtherValuation();
    if (!report.error.isEmpty())
        logInDream(tr("Dreaming stopped: %1").arg(report.error));
    else if (report.cancelled)
        logInDream(tr("Dreaming cancelled after %n version(s).", nullptr, int(report.versions.size())));
    const QString check = ApprovalDialog::proposalCheckText(report.check);
    if (const QString floor = floorCheckText(report.floor); !floor.isEmpty())
        logInDream(tr("Floor check: %1.").arg(floor));
    if (const DreamVersion *p = report.proposal(); p && p->index == 0) {
        logInDream(tr("Nothing better than the deployed version %1 (mean value %2, %3): no proposal to approve.")
                       .arg(p->developed.version.name, QString::number(*p->developed.value, 'f', 4), dreamTag()));
        if (!check.isEmpty())
            logInDream(tr("Noise check: %1.").arg(check));
    } else if (p) {
        logInDream(tr("Proposed: %1 (mean value %2, %3)")
                       .arg(p->developed.version.name, QString::number(*p->developed.value, 'f', 4), dreamTag()));
        if (!check.isEmpty())
            logInDream(tr("Noise check: %1.").arg(check));
        for (int row = 0; row < m_table->rowCount(); ++row) {
            if (m_table->item(row, NameColumn)->text() == p->developed.version.name) {
                for (int c = 0; c < VersionColumnCount; ++c) {
                    QFont f = m_table->item(row, c)->font();
                    f.setBold(true);
                    m_table->item(row, c)->setFont(f);
                }
                m_table->item(row, NameColumn)->setText(tr("%1 (proposed)").arg(p->developed.version.name));
                m_table->selectRow(row);
            }
        }
    }
    // Versions that led but fell below the floor are marked as such.
    for (int row = 0; row < m_table->rowCount(); ++row) {
        QTableWidgetItem *name = m_table->item(row, NameColumn);
        if (report.floor.refused.contains(name->text())) {
            name->setText(tr("%1 (below the floor; not proposed)").arg(name->text()));
            name->setToolTip(floorCheckText(report.floor));
        }
    }
    // The candidate that led but did not beat the noise is marked as such.
    if (report.check.measured && !report.check.passed) {
        for (int row = 0; row < m_table->rowCount(); ++row) {
            QTableWidgetItem *name = m_table->item(row, NameColumn);
            if (name->text() == report.check.candidate) {
                name->setText(tr("%1 (led; not proposed)").arg(report.check.candidate));
                name->setToolTip(check);
            }
        }
    }
    m_check->setText(answerText(report));
    m_check->setToolTip(report.check.measured ? tr("Second completion seed of the noise check: %1").arg(report.check.secondSeed)
                                              : QString());
    m_check->setVisible(!m_check->text().isEmpty());
    // The dream's own list: also the candidates of a step cut short by Cancel.
    showCandidates();
    updateButtons();
    emit dreamFinished();
}

QString DreamingDialog::valuationText(const ReplayConfig &config, std::optional<quint64> seed)
{
    if (config.valuation == Valuation::Revealed)
        return tr("revealed history: each version's mean value over the history worlds as the deployed policies "
                  "revealed them");
    const QString text = tr("imagined completions: each version's mean value over C = %1 completions of every history "
                            "world drawn from a model of the history")
                             .arg(config.completions);
    return seed ? tr("%1 (seed %2)").arg(text).arg(*seed) : text;
}

QString DreamingDialog::floorCheckText(const FloorCheck &f)
{
    if (!f.measured)
        return {};
    const auto number = [](const std::optional<double> &v) { return v ? QString::number(*v, 'g', 3) : tr("none"); };
    if (!f.floor)
        return tr("%1 reaches no attainment on these worlds: no floor to keep").arg(f.floorVersion);
    const QString floor = tr("the floor %1 (what %2 reaches on its hardest history world at β %3)")
                              .arg(number(f.floor), f.floorVersion, number(f.beta));
    if (f.repair) {
        return f.chosen.isEmpty() ? tr("the deployed version reaches %1 on its hardest world, below %2, and no version keeps it")
                                        .arg(number(f.deployedWorst), floor)
                                  : tr("the deployed version reaches %1 on its hardest world, below %2: %3 keeps it and is "
                                       "proposed in its place")
                                        .arg(number(f.deployedWorst), floor, f.chosen);
    }
    if (f.passed)
        return tr("%1 reaches %2 on its hardest world and keeps %3").arg(f.candidate, number(f.candidateWorst), floor);
    return f.chosen.isEmpty() ? tr("%1 reaches %2 on its hardest world, below %3: not proposed")
                                    .arg(f.candidate, number(f.candidateWorst), floor)
                              : tr("%1 reaches %2 on its hardest world, below %3: not proposed; %4 keeps it")
                                    .arg(f.candidate, number(f.candidateWorst), floor, f.chosen);
}

QString DreamingDialog::answerText(const DreamReport &report)
{
    const DreamVersion *p = report.proposal();
    if (!p)
        return report.versions.isEmpty() ? QString() : tr("<b>No version scored:</b> nothing to propose.");
    const QString floor = floorCheckText(report.floor);
    const QString answer = answerWithoutFloor(report, p);
    return floor.isEmpty() || (report.floor.passed && !report.floor.repair)
               ? answer
               : QStringLiteral("%1 %2").arg(answer, tr("Floor check: %1.").arg(floor).toHtmlEscaped());
}

QString DreamingDialog::answerWithoutFloor(const DreamReport &report, const DreamVersion *p)
{
    const DevelopedVersion &deployed = report.versions.first().developed;
    const QString deployedName = deployed.version.name.toHtmlEscaped();
    const QString name = p->developed.version.name.toHtmlEscaped();
    const QString head = p->index == 0 ? tr("Nothing better than %1.").arg(deployedName) : tr("Proposal: %1.").arg(name);
    if (report.check.measured)
        return QStringLiteral("<b>%1</b> %2.").arg(head, ApprovalDialog::proposalCheckText(report.check).toHtmlEscaped());
    if (p->index == 0)
        return report.floor.refused.isEmpty()
                   ? QStringLiteral("<b>%1</b> %2").arg(head, tr("No candidate led the deployed version."))
                   : QStringLiteral("<b>%1</b>").arg(head); // the candidates that led fell below the floor (said next)
    // A repair: the deployed version fell below the floor (said next), no lead to speak of.
    if (report.floor.repair)
        return QStringLiteral("<b>%1</b>").arg(head);
    // A proposal the noise check did not look at: its lead, and why there was no check.
    QString why;
    if (report.oracle)
        why = tr("the oracle valuation draws no completions: no noise to check");
    else if (report.config.valuation == Valuation::Revealed)
        why = tr("the revealed history draws no completions: no noise to check");
    else if (report.cancelled)
        why = tr("the dream was cancelled before the noise check");
    else
        why = tr("not checked against the noise");
    if (!deployed.value || !deployed.error.isEmpty())
        return QStringLiteral("<b>%1</b> %2").arg(head, tr("The deployed version %1 has no value (%2).").arg(deployedName, why));
    return QStringLiteral("<b>%1</b> %2")
        .arg(head, tr("%1 leads %2 by %3 (%4).", "candidate leads deployed by lead (why there was no noise check)")
                       .arg(name, deployedName, QString::number(*p->developed.value - *deployed.value, 'g', 3), why));
}

void DreamingDialog::reloadOtherValuation()
{
    // The approval dialog shows both valuations' values from stored records:
    // the dream stored the other valuation's episodes of the deployed version
    // and the proposal; read them back off the GUI thread.
    if (!m_store || m_store->path().isEmpty() || m_report.versions.isEmpty())
        return;
    const ReplayConfig config = m_report.config; // the project's, as the dream ran under it
    m_store->replayResults().then(this, [this, config](StoreResult<QList<ReplayResultRecord>> records) {
        if (!records.ok())
            return;
        m_workspace.setOtherValuationResults(
            ReplayJobs::otherValuationResults(*records.value, m_workspace.worlds(), m_workspace.versions(), config));
        emit otherValuationLoaded();
    });
}

void DreamingDialog::showSelected()
{
    updateButtons();
    showCandidates();
    const QList<QTableWidgetItem *> items = m_table->selectedItems();
    if (items.isEmpty())
        return;
    const int arrived = m_table->item(items.first()->row(), IndexColumn)->data(Qt::UserRole).toInt();
    if (arrived < 0 || arrived >= m_arrived.size())
        return;
    const DreamVersion &version = m_arrived.at(arrived);
    const PolicyVersion &v = version.developed.version;
    QString parentName, parentCode;
    for (const PolicyVersion &p : m_workspace.versions()) {
        if (p.id == v.parent && v.parent != 0) {
            parentName = p.name;
            parentCode = p.code;
        }
    }
    QStringList text;
    if (!version.developed.error.isEmpty())
        text << tr("Error: %1").arg(version.developed.error) << QString();
    if (v.code.isEmpty())
        text << tr("(no script)");
    else if (parentName.isEmpty())
        text << v.code;
    else {
        const QString diff = unifiedDiff(parentCode, v.code, parentName, v.name);
        text << (diff.isEmpty() ? tr("(identical to %1)").arg(parentName) : diff);
    }
    if (!v.response.isEmpty())
        text << QString() << tr("Response:") << v.response;
    m_detail->setPlainText(text.join(QLatin1Char('\n')));
}

void DreamingDialog::showCandidates()
{
    const DreamVersion *selected = nullptr;
    if (!m_allCandidates->isChecked()) {
        const QList<QTableWidgetItem *> items = m_table->selectedItems();
        if (!items.isEmpty()) {
            const int arrived = m_table->item(items.first()->row(), IndexColumn)->data(Qt::UserRole).toInt();
            if (arrived >= 0 && arrived < m_arrived.size())
                selected = &m_arrived.at(arrived);
        }
    }
    // Which version each kept candidate became (the versions carry their own candidates).
    QHash<int, QString> keptAs;
    QList<CandidateRecord> arrived;
    for (const DreamVersion &v : std::as_const(m_arrived)) {
        for (const CandidateRecord &c : v.candidates) {
            arrived.append(c);
            if (c.kept)
                keptAs.insert(c.index, v.developed.version.name);
        }
    }
    // After the dream its report lists every candidate, those of a step
    // cancelled before it wrote a version too; while it runs, what arrived.
    const QList<CandidateRecord> shown = selected ? selected->candidates
                                         : !m_report.candidates.isEmpty() ? m_report.candidates
                                                                          : arrived;

    // Counted as the dream JSON counts them (CandidateCounts).
    const CandidateCounts counts = CandidateCounts::of(shown);
    const int total = counts.total;
    const int inert = counts.inert;
    const int distinct = counts.distinct();
    QString summary;
    if (total == 0) {
        if (!selected)
            summary = m_running ? tr("No candidates yet.") : tr("No candidates.");
        else if (selected->index == 0)
            summary = tr("%1 is the deployed version: it has no candidates.").arg(selected->developed.version.name);
        else
            summary = tr("%1 was written without candidates (an agent writes the version itself).")
                          .arg(selected->developed.version.name);
    } else {
        summary = tr("%1, %2 (%3 %)", "N candidates, D distinct behaviours (their share in percent)")
                      .arg(tr("%n candidate(s)", nullptr, total), tr("%n distinct behaviour(s)", nullptr, distinct))
                      .arg(qRound(100.0 * distinct / total));
        if (inert > 0)
            summary += tr("; %n changed nothing at the deployed β", nullptr, inert);
        summary = selected ? tr("%1: %2").arg(selected->developed.version.name, summary) : tr("All versions: %1").arg(summary);
    }
    m_candidateSummary->setText(summary);

    const QColor wasted = palette().color(QPalette::Disabled, QPalette::Text);
    m_candidates->setRowCount(0);
    m_candidates->setRowCount(total);
    for (int row = 0; row < total; ++row) {
        const CandidateRecord &c = shown.at(row);
        QString kind = c.kind;
        if (c.kind == QLatin1String("learned"))
            kind = tr("learned");
        else if (c.kind == QLatin1String("proposal"))
            kind = tr("proposal");
        else if (c.kind == QLatin1String("random"))
            kind = tr("random");
        QStringList changes;
        for (const TunableChange &t : c.changes)
            changes.append(tr("%1 %2 → %3", "tunable: old value → new value")
                               .arg(t.name, PolicyTunables::literal(t.from, t.integer), PolicyTunables::literal(t.to, t.integer)));
        QString status;
        if (c.kept)
            status = keptAs.contains(c.index) ? tr("kept: %1").arg(keptAs.value(c.index)) : tr("kept");
        else if (c.duplicate && c.duplicateOf >= 0)
            status = tr("same behaviour as candidate %1").arg(c.duplicateOf + 1);
        else if (c.duplicate)
            status = tr("same behaviour as a version");
        else if (c.inertAtDeployedBeta)
            status = tr("changes nothing at the deployed β");
        else if (!c.error.isEmpty())
            status = c.error;
        else
            status = tr("not kept");
        const QString texts[CandidateColumnCount] = {
            QString::number(c.index + 1),
            c.parent,
            kind,
            // A learned candidate may only rewrite the learned tables (no tunable).
            changes.isEmpty() ? (c.kind == QLatin1String("learned") ? tr("learned tables") : tr("nothing")) : changes.join(QStringLiteral(", ")),
            c.why,
            valueText(c.value),
            status};
        for (int column = 0; column < CandidateColumnCount; ++column) {
            auto *item = new QTableWidgetItem(texts[column]);
            if (column == CandidateChangesColumn && !changes.isEmpty())
                item->setToolTip(changes.join(QLatin1Char('\n')));
            else if (column == CandidateWhyColumn || column == CandidateStatusColumn)
                item->setToolTip(texts[column]);
            if (column == CandidateIndexColumn || column == CandidateValueColumn)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c.kept) {
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
            } else if (c.duplicate || c.inertAtDeployedBeta) {
                // Replaced, not counted: greyed like a disabled entry.
                item->setForeground(wasted);
            }
            m_candidates->setItem(row, column, item);
        }
        m_candidates->item(row, CandidateIndexColumn)->setData(Qt::UserRole, c.index);
    }
}

void DreamingDialog::review()
{
    if (!m_review->isEnabled())
        return; // nothing to review: the deployed version stayed the best, or it is approved (the button says so)
    const DreamVersion *target = reviewTarget();
    if (!target)
        return;
    const QString name = target->developed.version.name;
    auto *dialog = new ApprovalDialog(m_workspace, name, m_preferences, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The dream's noise check, when it was about this version.
    dialog->setProposalCheck(m_report.check);
    connect(dialog, &QDialog::accepted, this, [this, dialog, name] {
        m_approved = name;
        updateButtons();
        emit approvalRequested(dialog->approval());
    });
    dialog->open();
}

} // namespace dreamrsi
