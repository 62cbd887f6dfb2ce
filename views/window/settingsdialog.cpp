#include "settingsdialog.h"

#include "agent/httpchatmodel.h"
#include "agent/sessionkeys.h"
#include "backend/slurmsettings.h"
#include "store/replaybounds.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace dreamrsi {

namespace {

enum PriceColumn { ModelColumn, InputColumn, OutputColumn };

/// Prices are edited with a spin box that allows cents of a cent.
class PriceDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        if (index.column() == ModelColumn)
            return QStyledItemDelegate::createEditor(parent, option, index);
        auto *spin = new QDoubleSpinBox(parent);
        spin->setRange(0.0, 1e6);
        spin->setDecimals(4);
        spin->setSingleStep(0.05);
        spin->setFrame(false);
        return spin;
    }
};

} // namespace

SettingsDialog::SettingsDialog(const AppSettings &settings, QWidget *parent)
    : QDialog(parent)
    , m_initial(settings)
{
    setWindowTitle(tr("Settings"));
    auto *form = new QFormLayout;
    m_theme = new QComboBox;
    m_theme->addItems({tr("Follow the system"), tr("Light"), tr("Dark")});
    m_theme->setCurrentIndex(int(settings.theme));
    form->addRow(tr("Colour theme:"), m_theme);
    m_userName = new QLineEdit(settings.userName);
    m_userName->setObjectName(QStringLiteral("userName"));
    m_userName->setPlaceholderText(settings.steeringName());
    m_userName->setToolTip(tr("Recorded with every intervention you make in a live round and every approval."));
    form->addRow(tr("Your name:"), m_userName);
    m_replayScope = new QLabel(tr("Replays of tree files (no project is open):"));
    m_replayScope->setObjectName(QStringLiteral("replayScope"));
    m_replayScope->setWordWrap(true);
    form->addRow(m_replayScope);
    m_workers = new QSpinBox;
    m_workers->setObjectName(QStringLiteral("replayWorkers"));
    m_workers->setRange(ReplayBounds::MinWorkers, ReplayBounds::MaxWorkers);
    m_workers->setValue(settings.workers);
    m_workers->setToolTip(tr("W: the most attempts a policy may run in one round."));
    form->addRow(tr("Parallel workers (W):"), m_workers);
    m_lambda = new QDoubleSpinBox;
    m_lambda->setObjectName(QStringLiteral("replayLambda"));
    m_lambda->setRange(0, ReplayBounds::MaxLambda);
    m_lambda->setDecimals(3);
    m_lambda->setSingleStep(0.05);
    m_lambda->setValue(settings.lambda);
    m_lambda->setToolTip(tr("Weight of the parallelism penalty in the value."));
    form->addRow(tr("Penalty weight (λ):"), m_lambda);
    m_betas = new QLineEdit(AppSettings::formatBetas(settings.betas));
    m_betas->setObjectName(QStringLiteral("replayBetas"));
    m_betas->setToolTip(tr("Budget preferences of a sweep, comma separated, each in [0, 1]."));
    form->addRow(tr("β grid:"), m_betas);
    m_rounds = new QSpinBox;
    m_rounds->setObjectName(QStringLiteral("replayRounds"));
    m_rounds->setRange(0, ReplayBounds::MaxRounds); // 0: no limit
    m_rounds->setSpecialValueText(tr("no limit"));
    m_rounds->setToolTip(tr("K: the most rounds a replayed episode may take."));
    form->addRow(tr("Round limit (K):"), m_rounds);
    form->setRowVisible(m_rounds, false); // only a project's configuration has a K
    m_valuation = new QComboBox;
    m_valuation->setObjectName(QStringLiteral("replayValuation"));
    m_valuation->addItem(tr("Imagined completions"), int(Valuation::Imagined));
    m_valuation->addItem(tr("Revealed history"), int(Valuation::Revealed));
    m_valuation->setToolTip(tr("What a dream values a version over: C imagined completions of every history world "
                               "(cells the deployed policy never revealed drawn from a model of the history), or the "
                               "history worlds as they were revealed."));
    form->addRow(tr("Valuation:"), m_valuation);
    m_completions = new QSpinBox;
    m_completions->setObjectName(QStringLiteral("replayCompletions"));
    m_completions->setRange(ReplayBounds::MinCompletions, ReplayBounds::MaxCompletions);
    m_completions->setValue(ReplayConfig().completions);
    m_completions->setToolTip(tr("C: the imagined completions drawn of each history world."));
    form->addRow(tr("Completions (C):"), m_completions);
    m_rule = new QComboBox;
    m_rule->setObjectName(QStringLiteral("replayRule"));
    m_rule->addItem(tr("Capped at the history's best"), int(ImaginationRule::Capped));
    m_rule->addItem(tr("Widened where the history is blind"), int(ImaginationRule::Widened));
    m_rule->addItem(tr("Uncertain where the history is blind"), int(ImaginationRule::Uncertain));
    m_rule->addItem(tr("Uncertain near the deepest gain"), int(ImaginationRule::Anchored));
    m_rule->setToolTip(tr("How imagined scores are drawn where the history holds no evidence: capped at the best "
                          "score the history revealed; widened: at a depth with too few values, allowed up to that "
                          "best plus the largest gain the task has shown; uncertain: at such a depth, a gain drawn "
                          "from a prior as wide as the task's first scores are spread; anchored: the same, but only "
                          "within %1 attempts of the deepest depth where the history gained, capped further out. "
                          "Values drawn under another rule are kept apart.")
                           .arg(anchoredWindow()));
    form->addRow(tr("Imagination rule:"), m_rule);
    connect(m_valuation, &QComboBox::currentIndexChanged, this, [this] {
        const bool imagined = Valuation(m_valuation->currentData().toInt()) == Valuation::Imagined;
        m_completions->setEnabled(imagined);
        m_rule->setEnabled(imagined);
    });
    // Only a project's configuration has a valuation.
    form->setRowVisible(m_valuation, false);
    form->setRowVisible(m_completions, false);
    form->setRowVisible(m_rule, false);
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
    m_includeApproximate = new QCheckBox(tr("Include approximate worlds"));
    m_includeApproximate->setObjectName(QStringLiteral("includeApproximate"));
    m_includeApproximate->setChecked(settings.includeApproximate);
    m_includeApproximate->setToolTip(tr("Imported runs with forks or orphans only approximate their genealogy as "
                                        "chains: a fork is replayed as a new idea. Replays and dreams leave them out "
                                        "unless this is checked; results over them are labelled."));
    form->addRow(QString(), m_includeApproximate);
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
    auto *general = new QWidget;
    general->setLayout(form);
    auto *tabs = new QTabWidget;
    tabs->addTab(general, tr("General"));
    tabs->addTab(createAgentsPage(settings), tr("Agents"));
    auto *clusterPage = new QWidget;
    auto *clusterLayout = new QVBoxLayout(clusterPage);
    clusterLayout->addWidget(cluster);
    clusterLayout->addStretch();
    tabs->addTab(clusterPage, tr("Cluster"));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(tabs);
    layout->addWidget(buttons);
}

QWidget *SettingsDialog::createAgentsPage(const AppSettings &settings)
{
    m_initialPrices = settings.prices;
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);

    // The one agent time limit setting, which Launch Round shows too.
    auto *limitForm = new QFormLayout;
    m_agentTimeLimit = new QSpinBox;
    m_agentTimeLimit->setObjectName(QStringLiteral("agentTimeLimit"));
    m_agentTimeLimit->setRange(0, AppSettings::MaxAgentTimeLimitMin);
    m_agentTimeLimit->setSuffix(tr(" min"));
    m_agentTimeLimit->setSpecialValueText(tr("no limit"));
    m_agentTimeLimit->setValue(settings.agentTimeLimitMin);
    m_agentTimeLimit->setToolTip(tr("An agent call of a round still at work after this long is killed and its "
                                    "attempt stored as an agent failure. Launch Round starts from this value."));
    limitForm->addRow(tr("Agent time limit per call:"), m_agentTimeLimit);
    layout->addLayout(limitForm);

    auto *keysBox = new QGroupBox(tr("API keys for this session"));
    auto *keysForm = new QFormLayout(keysBox);
    auto *keysNote = new QLabel(tr("A key typed here is kept in memory until the workbench closes: it is never saved "
                                   "in the settings, a project, an export or a log. Leave a field empty to use the "
                                   "provider's environment variable."));
    keysNote->setWordWrap(true);
    keysForm->addRow(keysNote);
    const QList<QPair<QString, QString>> providers{{QStringLiteral("openai"), tr("OpenAI-compatible:")},
                                                   {QStringLiteral("anthropic"), tr("Anthropic:")},
                                                   {QStringLiteral("gemini"), tr("Gemini:")}};
    for (const auto &[kind, label] : providers) {
        const auto info = httpProviderInfo(kind);
        auto *edit = new QLineEdit(SessionKeys::get(kind));
        edit->setEchoMode(QLineEdit::Password);
        edit->setClearButtonEnabled(true);
        edit->setObjectName(QStringLiteral("apiKey_") + kind);
        const QString variable = info ? info->keyVariable : QString();
        edit->setPlaceholderText(qEnvironmentVariableIsEmpty(qPrintable(variable))
                                     ? tr("not set ($%1 is empty)").arg(variable)
                                     : tr("from $%1").arg(variable));
        keysForm->addRow(label, edit);
        m_keys.append({kind, edit});
    }
    layout->addWidget(keysBox);

    auto *pricesBox = new QGroupBox(tr("Prices (USD per million tokens)"));
    auto *pricesLayout = new QVBoxLayout(pricesBox);
    auto *pricesNote = new QLabel(tr("Every agent call is priced with this table. A model that is not listed costs 0; "
                                     "a dated model name (\"claude-sonnet-4-5-20250929\") takes the price of its "
                                     "family (\"claude-sonnet-4-5\")."));
    pricesNote->setWordWrap(true);
    pricesLayout->addWidget(pricesNote);
    m_prices = new QTableWidget(0, 3);
    m_prices->setObjectName(QStringLiteral("priceTable"));
    m_prices->setHorizontalHeaderLabels({tr("Model"), tr("Input $/M"), tr("Output $/M")});
    m_prices->horizontalHeader()->setSectionResizeMode(ModelColumn, QHeaderView::Stretch);
    m_prices->verticalHeader()->setVisible(false);
    m_prices->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_prices->setItemDelegate(new PriceDelegate(m_prices));
    fillPrices(settings.prices);
    pricesLayout->addWidget(m_prices);
    auto *rowButtons = new QHBoxLayout;
    auto *add = new QPushButton(tr("Add"));
    auto *remove = new QPushButton(tr("Remove"));
    auto *defaults = new QPushButton(tr("Restore defaults"));
    add->setObjectName(QStringLiteral("addPrice"));
    remove->setObjectName(QStringLiteral("removePrice"));
    rowButtons->addWidget(add);
    rowButtons->addWidget(remove);
    rowButtons->addStretch();
    rowButtons->addWidget(defaults);
    pricesLayout->addLayout(rowButtons);
    connect(add, &QPushButton::clicked, this, [this] {
        addPriceRow({tr("new-model"), 0.0, 0.0});
        const int row = m_prices->rowCount() - 1;
        m_prices->setCurrentCell(row, ModelColumn);
        m_prices->editItem(m_prices->item(row, ModelColumn));
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        QList<int> rows;
        const QList<QTableWidgetItem *> selected = m_prices->selectedItems();
        for (const QTableWidgetItem *item : selected)
            if (!rows.contains(item->row()))
                rows.append(item->row());
        if (rows.isEmpty() && m_prices->currentRow() >= 0)
            rows.append(m_prices->currentRow());
        std::sort(rows.begin(), rows.end(), std::greater<>());
        for (int row : rows)
            m_prices->removeRow(row);
    });
    connect(defaults, &QPushButton::clicked, this, [this] { fillPrices(PriceTable::defaults()); });
    layout->addWidget(pricesBox, 1);
    return page;
}

void SettingsDialog::fillPrices(const PriceTable &prices)
{
    m_prices->setRowCount(0);
    const QList<ModelPrice> list = prices.prices();
    for (const ModelPrice &price : list)
        addPriceRow(price);
}

void SettingsDialog::addPriceRow(const ModelPrice &price)
{
    const int row = m_prices->rowCount();
    m_prices->insertRow(row);
    m_prices->setItem(row, ModelColumn, new QTableWidgetItem(price.model));
    auto *in = new QTableWidgetItem;
    in->setData(Qt::EditRole, price.inputPerMillion);
    auto *out = new QTableWidgetItem;
    out->setData(Qt::EditRole, price.outputPerMillion);
    m_prices->setItem(row, InputColumn, in);
    m_prices->setItem(row, OutputColumn, out);
}

Result<PriceTable> SettingsDialog::pricesFromTable() const
{
    using Read = Result<PriceTable>;
    PriceTable table;
    QSet<QString> seen;
    for (int row = 0; row < m_prices->rowCount(); ++row) {
        const QTableWidgetItem *modelItem = m_prices->item(row, ModelColumn);
        const QString model = modelItem ? modelItem->text().trimmed() : QString();
        if (model.isEmpty())
            return Read::failure(tr("Row %1 of the price table has no model name.").arg(row + 1));
        if (seen.contains(model))
            return Read::failure(tr("The price table lists the model \"%1\" twice.").arg(model));
        seen.insert(model);
        double values[2] = {0.0, 0.0};
        for (int c = 0; c < 2; ++c) {
            const QTableWidgetItem *item = m_prices->item(row, InputColumn + c);
            bool ok = false;
            values[c] = item ? item->data(Qt::EditRole).toDouble(&ok) : 0.0;
            if (!ok || !(values[c] >= 0.0))
                return Read::failure(tr("The %1 price of \"%2\" must be a number of dollars, 0 or more.")
                                         .arg(c == 0 ? tr("input") : tr("output"), model));
        }
        table.setPrice({model, values[0], values[1]});
    }
    return Read::success(table);
}

void SettingsDialog::setProjectReplayConfig(const ReplayConfig &config, const QString &projectName)
{
    m_projectConfig = true;
    m_replayScope->setText(tr("Replay configuration of the project %1: its dreams, replays, values, approvals and "
                              "plots all use it. Values computed under another configuration are kept, but not "
                              "compared with these.")
                               .arg(projectName));
    m_workers->setValue(config.workers);
    m_lambda->setValue(config.lambda);
    m_betas->setText(AppSettings::formatBetas(config.betas));
    m_rounds->setValue(config.rounds.value_or(0));
    m_valuation->setCurrentIndex(m_valuation->findData(int(config.valuation)));
    m_completions->setValue(config.completions);
    m_completions->setEnabled(config.valuation == Valuation::Imagined);
    m_rule->setCurrentIndex(m_rule->findData(int(config.rule)));
    m_rule->setEnabled(config.valuation == Valuation::Imagined);
    if (auto *form = qobject_cast<QFormLayout *>(m_rounds->parentWidget() ? m_rounds->parentWidget()->layout() : nullptr)) {
        form->setRowVisible(m_rounds, true);
        form->setRowVisible(m_valuation, true);
        form->setRowVisible(m_completions, true);
        form->setRowVisible(m_rule, true);
    }
}

std::optional<ReplayConfig> SettingsDialog::projectReplayConfig() const
{
    if (!m_projectConfig)
        return std::nullopt;
    ReplayConfig c;
    c.workers = m_workers->value();
    c.lambda = m_lambda->value();
    c.betas = AppSettings::parseBetas(m_betas->text()).value_or(c.betas);
    std::sort(c.betas.begin(), c.betas.end());
    c.betas.erase(std::unique(c.betas.begin(), c.betas.end()), c.betas.end());
    if (m_rounds->value() > 0)
        c.rounds = m_rounds->value();
    c.valuation = Valuation(m_valuation->currentData().toInt());
    c.completions = m_completions->value();
    c.rule = ImaginationRule(m_rule->currentData().toInt());
    return c;
}

AppSettings SettingsDialog::settings() const
{
    AppSettings s;
    s.theme = AppSettings::Theme(m_theme->currentIndex());
    if (m_projectConfig) {
        s.workers = m_initial.workers;
        s.lambda = m_initial.lambda;
        s.betas = m_initial.betas;
    } else {
        s.workers = m_workers->value();
        s.lambda = m_lambda->value();
        s.betas = AppSettings::parseBetas(m_betas->text()).value_or(s.betas);
    }
    s.scriptTimeLimitMs = m_timeLimit->value();
    s.replayMemoryLimitMb = m_memoryLimit->value();
    s.replayWallLimitS = m_wallLimit->value();
    s.includeApproximate = m_includeApproximate->isChecked();
    s.playIntervalMs = m_playInterval->value();
    s.prices = pricesFromTable().valueOr(m_initialPrices);
    s.slurmPartition = m_slurmPartition->text().trimmed();
    s.slurmAccount = m_slurmAccount->text().trimmed();
    s.slurmQos = m_slurmQos->text().trimmed();
    s.slurmSbatchArgs = m_slurmSbatchArgs->text().trimmed();
    s.slurmSharedDir = m_slurmSharedDir->text().trimmed();
    s.userName = m_userName->text().trimmed();
    s.agentTimeLimitMin = m_agentTimeLimit->value();
    return s;
}

void SettingsDialog::accept()
{
    if (!AppSettings::parseBetas(m_betas->text())) {
        QMessageBox::warning(this, windowTitle(), tr("The β grid must be a comma-separated list of numbers between 0 and 1."));
        return;
    }
    if (const Result<QStringList> words = SlurmSettings::splitArguments(m_slurmSbatchArgs->text()); !words.ok()) {
        QMessageBox::warning(this, windowTitle(), tr("Extra sbatch arguments: %1").arg(words.error));
        return;
    }
    if (const Result<PriceTable> prices = pricesFromTable(); !prices) {
        QMessageBox::warning(this, windowTitle(), prices.error);
        return;
    }
    for (const auto &[kind, edit] : std::as_const(m_keys))
        SessionKeys::set(kind, edit->text());
    QDialog::accept();
}

} // namespace dreamrsi
