#include "dreamingdialog.h"

#include "approvaldialog.h"
#include "tree/unifieddiff.h"
#include "session/replayjobs.h"
#include "models/workspace.h"

#include "agent/agentfactory.h"
#include "loop/dream/agentpolicydeveloper.h"
#include "loop/dream/policyimprover.h"
#include "store/projectstore.h"

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
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace dreamrsi {

namespace {

// The value the dream judges by, then the value on the revealed history and
// on the imagined completions (both known for the deployed version and the proposal).
enum Column { IndexColumn, NameColumn, DeveloperColumn, ValueColumn, RevealedColumn, ImaginedColumn, ErrorColumn, ColumnCount };

QString valueText(const std::optional<double> &v)
{
    return v ? QString::number(*v, 'f', 4) : QStringLiteral("—");
}

} // namespace

DreamingDialog::DreamingDialog(Workspace &workspace, ProjectStore *store, const AppSettings &settings, QWidget *parent)
    : QDialog(parent)
    , m_workspace(workspace)
    , m_store(store)
    , m_settings(settings)
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
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, 1000000);
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

    auto *form = new QFormLayout;
    form->addRow(tr("&Versions:"), m_versions);
    form->addRow(tr("&Agent:"), m_agent);
    form->addRow(tr("&Model:"), m_model);
    form->addRow(tr("&Base URL:"), m_baseUrl);
    form->addRow(tr("&Seed:"), m_seed);
    form->addRow(tr("Replay:"), m_grid);
    form->addRow(tr("Valuation:"), m_valuation);
    auto syncAgent = [this] {
        const bool http = m_agent->currentData().toString() != QLatin1String("builtin");
        m_model->setEnabled(http);
        m_baseUrl->setEnabled(http);
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

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("dreamVersionsTable"));
    m_table->setHorizontalHeaderLabels({tr("#"), tr("Version"), tr("Written by"), tr("Mean value"), tr("Revealed history"),
                                        tr("Imagined completions"), tr("Error")});
    m_table->horizontalHeaderItem(ValueColumn)->setToolTip(tr("The value the dream judges the version by (its valuation)"));
    m_table->horizontalHeaderItem(RevealedColumn)
        ->setToolTip(tr("Mean value over the history worlds as the deployed policies revealed them"));
    m_table->horizontalHeaderItem(ImaginedColumn)
        ->setToolTip(tr("Mean value over the imagined completions of the history worlds"));
    m_table->horizontalHeader()->setSectionResizeMode(ErrorColumn, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &DreamingDialog::showSelected);

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

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_detail);
    splitter->addWidget(m_log);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
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
    resize(900, 700);
    updateButtons();
}

DreamingDialog::~DreamingDialog()
{
    // The worker keeps the dreamer alive until it returns; it stops soon.
    if (m_dreamer)
        m_dreamer->cancel();
}

void DreamingDialog::log(const QString &line)
{
    m_log->appendPlainText(line);
}

void DreamingDialog::updateButtons()
{
    m_start->setEnabled(!m_running);
    m_cancel->setEnabled(m_running);
    m_versions->setEnabled(!m_running);
    m_agent->setEnabled(!m_running);
    const bool selected = !m_table->selectedItems().isEmpty();
    m_review->setEnabled(!m_running && (m_report.proposal() || selected));
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
    QList<DreamWorld> worlds;
    int approximateLeftOut = 0;
    for (const WorldEntry &w : m_workspace.worlds()) {
        if (w.iteration == 0 || !w.tree)
            continue;
        // Approximate worlds (imported runs with forks or orphans) only when Settings include them.
        if (w.tree->meta().approximate && !m_settings.includeApproximate) {
            ++approximateLeftOut;
            continue;
        }
        worlds.append(DreamWorld{w.iteration, ReplayWorld{w.name, w.tree}});
    }
    if (approximateLeftOut > 0)
        log(tr("%n approximate world(s) left out; Settings ▸ Include approximate worlds dreams in them too.", nullptr,
               approximateLeftOut));
    if (worlds.isEmpty()) {
        log(tr("The project has no iteration to dream in. Import trees or run a round first."));
        return false;
    }
    const QString kind = m_agent->currentData().toString();
    std::shared_ptr<PolicyDeveloper> developer;
    if (kind == QLatin1String("builtin")) {
        developer = std::make_shared<PolicyImprover>();
    } else {
        AgentConfig config;
        config.kind = kind;
        config.model = m_model->text().trimmed();
        config.baseUrl = m_baseUrl->text().trimmed();
        config.seed = quint64(m_seed->value());
        Result<std::unique_ptr<ChatModel>> model = createChatModel(config);
        if (!model) {
            log(tr("Cannot use the %1 agent: %2").arg(kind, model.error));
            return false;
        }
        const Result<QString> prompt = AgentPolicyDeveloper::loadPrompt();
        if (!prompt.ok()) {
            log(prompt.error);
            return false;
        }
        developer = std::make_shared<AgentPolicyDeveloper>(std::shared_ptr<ChatModel>(std::move(*model.value)), *prompt.value);
    }

    DreamSettings settings;
    settings.versions = m_versions->value();
    settings.limits = m_settings.scriptLimits();
    settings.seed = quint64(m_seed->value());

    // Deleted on the GUI thread whichever thread lets go of it last.
    m_dreamer = std::shared_ptr<Dreamer>(new Dreamer(m_store, developer), [](Dreamer *d) { d->deleteLater(); });
    connect(m_dreamer.get(), &Dreamer::message, this, &DreamingDialog::log);
    connect(m_dreamer.get(), &Dreamer::versionReady, this, &DreamingDialog::onVersion);
    connect(m_dreamer.get(), &Dreamer::stepStarted, this, [this](int index, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(index);
    });
    m_report = DreamReport();
    m_arrived.clear();
    m_table->setRowCount(0);
    m_detail->clear();
    m_progress->setRange(0, settings.versions);
    m_progress->setValue(0);
    m_running = true;
    updateButtons();
    log(tr("Dreaming: %1 versions over %2 worlds with %3").arg(settings.versions).arg(worlds.size()).arg(m_agent->currentText()));
    QtConcurrent::run([dreamer = m_dreamer, worlds, settings] { return dreamer->run(worlds, settings); })
        .then(this, [this](const DreamReport &report) { onFinished(report); });
    return true;
}

void DreamingDialog::cancel()
{
    if (m_dreamer && m_running) {
        m_dreamer->cancel();
        log(tr("Cancelling…"));
    }
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
                     new QTableWidgetItem(version.index == 0 ? tr("deployed") : version.developer));
    m_table->setItem(row, ValueColumn, new QTableWidgetItem(valueText(version.developed.value)));
    m_table->setItem(row, RevealedColumn, new QTableWidgetItem(valueText(version.revealedValue)));
    m_table->setItem(row, ImaginedColumn, new QTableWidgetItem(valueText(version.imaginedValue)));
    m_table->setItem(row, ErrorColumn, new QTableWidgetItem(version.developed.error));
    if (!version.developed.error.isEmpty())
        m_table->item(row, ErrorColumn)->setToolTip(version.developed.error);
    m_progress->setValue(version.index + 1);
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
        log(tr("Deployed %1: revealed history %2, imagined completions %3")
                .arg(deployed->developed.version.name, valueText(deployed->revealedValue), valueText(deployed->imaginedValue)));
    if (const DreamVersion *p = report.proposal(); p && p->index != 0)
        log(tr("Proposal %1: revealed history %2, imagined completions %3")
                .arg(p->developed.version.name, valueText(p->revealedValue), valueText(p->imaginedValue)));
    reloadOtherValuation();
    if (!report.error.isEmpty())
        log(tr("Dreaming stopped: %1").arg(report.error));
    else if (report.cancelled)
        log(tr("Dreaming cancelled after %n version(s).", nullptr, int(report.versions.size())));
    if (const DreamVersion *p = report.proposal()) {
        log(tr("Proposed: %1 (mean value %2)").arg(p->developed.version.name, QString::number(*p->developed.value, 'f', 4)));
        for (int row = 0; row < m_table->rowCount(); ++row) {
            if (m_table->item(row, NameColumn)->text() == p->developed.version.name) {
                for (int c = 0; c < ColumnCount; ++c) {
                    QFont f = m_table->item(row, c)->font();
                    f.setBold(true);
                    m_table->item(row, c)->setFont(f);
                }
                m_table->item(row, NameColumn)->setText(tr("%1 (proposed)").arg(p->developed.version.name));
                m_table->selectRow(row);
            }
        }
    }
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

void DreamingDialog::review()
{
    QString name;
    const QList<QTableWidgetItem *> items = m_table->selectedItems();
    if (!items.isEmpty()) {
        const int arrived = m_table->item(items.first()->row(), IndexColumn)->data(Qt::UserRole).toInt();
        if (arrived >= 0 && arrived < m_arrived.size())
            name = m_arrived.at(arrived).developed.version.name;
    }
    if (name.isEmpty() && m_report.proposal())
        name = m_report.proposal()->developed.version.name;
    if (name.isEmpty())
        return;
    auto *dialog = new ApprovalDialog(m_workspace, name, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { emit approvalRequested(dialog->approval()); });
    dialog->open();
}

} // namespace dreamrsi
