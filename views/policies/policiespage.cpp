#include "policiespage.h"

#include "approvaldialog.h"
#include "tree/codehighlighter.h"
#include "models/policytablemodel.h"
#include "session/sweeprunner.h"
#include "tree/unifieddiff.h"
#include "models/workspace.h"

#include "loop/dream/policytunables.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace dreamrsi {

PoliciesPage::PoliciesPage(Workspace *workspace, SweepRunner *runner, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_runner(runner)
{
    m_model = new PolicyTableModel(workspace, this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(PolicyTableModel::SortRole);
    m_table = new QTableView;
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(PolicyTableModel::MeanValue, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_editor = new QPlainTextEdit;
    m_editor->setFont(mono);
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setTabStopDistance(QFontMetricsF(mono).horizontalAdvance(QLatin1Char(' ')) * 4);
    m_codeHighlighter = new CodeHighlighter(m_editor->document(), CodeHighlighter::Language::JavaScript);
    m_diff = new QPlainTextEdit;
    m_diff->setFont(mono);
    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diffHighlighter = new CodeHighlighter(m_diff->document(), CodeHighlighter::Language::Diff);
    m_diffAgainst = new QComboBox;
    auto *diffColumn = new QWidget;
    auto *diffLayout = new QVBoxLayout(diffColumn);
    diffLayout->setContentsMargins(0, 4, 0, 0);
    auto *diffRow = new QHBoxLayout;
    diffRow->addWidget(new QLabel(tr("Compare with:")));
    diffRow->addWidget(m_diffAgainst, 1);
    diffLayout->addLayout(diffRow);
    diffLayout->addWidget(m_diff, 1);
    // Beside the code diff, what a dream changed in numbers: the tunables
    // (docs/online.md#dreams-you-can-read) against the parent's.
    m_tunablesLabel = new QLabel;
    m_tunablesLabel->setObjectName(QStringLiteral("policiesTunablesLabel"));
    m_tunablesLabel->setWordWrap(true);
    m_tunables = new QTableWidget(0, 4);
    m_tunables->setObjectName(QStringLiteral("policiesTunables"));
    m_tunables->verticalHeader()->hide();
    m_tunables->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tunables->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tunables->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tunables->horizontalHeader()->setStretchLastSection(true);
    auto *tunablesColumn = new QWidget;
    auto *tunablesLayout = new QVBoxLayout(tunablesColumn);
    tunablesLayout->setContentsMargins(0, 4, 0, 0);
    tunablesLayout->addWidget(m_tunablesLabel);
    tunablesLayout->addWidget(m_tunables, 1);
    auto *diffPage = new QSplitter(Qt::Horizontal);
    diffPage->addWidget(diffColumn);
    diffPage->addWidget(tunablesColumn);
    diffPage->setStretchFactor(0, 3);
    diffPage->setStretchFactor(1, 2);
    m_tabs = new QTabWidget;
    m_tabs->addTab(m_editor, tr("Code"));
    m_tabs->addTab(diffPage, tr("Diff"));

    m_save = new QPushButton(tr("Save as New Version"));
    m_save->setToolTip(tr("Store the edited code as a new version derived from the selected one"));
    m_revert = new QPushButton(tr("Revert"));
    m_replay = new QPushButton(tr("Replay This Version"));
    m_replay->setToolTip(tr("Run the β sweep of the selected version in every open world"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_approve = new QPushButton(tr("Approve for Redeployment…"));
    m_approve->setToolTip(tr("Compare the selected version with the deployed one and approve it for the next "
                             "online round"));
    m_progress = new QProgressBar;
    m_progress->setTextVisible(true);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(QString());
    m_status = new QLabel;
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_save);
    buttons->addWidget(m_revert);
    buttons->addSpacing(16);
    buttons->addWidget(m_replay);
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_cancel);
    buttons->addSpacing(16);
    buttons->addWidget(m_approve);

    auto *bottom = new QWidget;
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_tabs, 1);
    bottomLayout->addLayout(buttons);
    bottomLayout->addWidget(m_status);
    // Whose values the table shows, and what is kept apart under other configurations.
    m_configLabel = new QLabel;
    m_configLabel->setObjectName(QStringLiteral("policiesReplayConfig"));
    m_configLabel->setWordWrap(true);
    m_configLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *top = new QWidget;
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_configLabel);
    topLayout->addWidget(m_table, 1);
    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(top);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &PoliciesPage::showSelected);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        if (!m_shown.isEmpty())
            selectVersion(m_shown);
        else if (m_proxy->rowCount() > 0)
            m_table->setCurrentIndex(m_proxy->index(0, 0));
        const QString against = m_diffAgainst->currentText();
        const QSignalBlocker blocker(m_diffAgainst);
        m_diffAgainst->clear();
        for (const PolicyVersion &v : m_workspace->versions())
            m_diffAgainst->addItem(v.name);
        m_diffAgainst->setCurrentIndex(std::max(0, m_diffAgainst->findText(against)));
        updateDiff();
        updateTunables(); // the parent may have arrived
    });
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        updateButtons();
        updateDiff();
        updateTunables();
    });
    connect(m_diffAgainst, &QComboBox::currentIndexChanged, this, &PoliciesPage::updateDiff);
    connect(m_save, &QPushButton::clicked, this, &PoliciesPage::saveAsNewVersion);
    connect(m_revert, &QPushButton::clicked, this, &PoliciesPage::showSelected);
    connect(m_replay, &QPushButton::clicked, this, &PoliciesPage::replaySelected);
    connect(m_cancel, &QPushButton::clicked, runner, &SweepRunner::cancel);
    connect(m_approve, &QPushButton::clicked, this, &PoliciesPage::approveSelected);
    connect(workspace, &Workspace::resultsChanged, this, &PoliciesPage::updateButtons);
    connect(workspace, &Workspace::approvalsChanged, this, &PoliciesPage::updateButtons);
    connect(workspace, &Workspace::replayConfigChanged, this, &PoliciesPage::updateConfigLabel);
    connect(workspace, &Workspace::versionsChanged, this, &PoliciesPage::updateConfigLabel);
    updateConfigLabel();
    connect(runner, &SweepRunner::started, this, [this](const QString &name) {
        m_progress->setRange(0, 0);
        m_status->setText(tr("Replaying %1…").arg(name));
        updateButtons();
    });
    connect(runner, &SweepRunner::progress, this, [this](const QString &name, int done, int total) {
        if (total > 0) {
            m_progress->setRange(0, total);
            m_progress->setValue(done);
            m_progress->setFormat(tr("%1: %v / %m episodes").arg(name));
        }
    });
    connect(runner, &SweepRunner::finished, this, [this](const QString &name, ReplayResultPtr r) {
        m_status->setText(r->ok() ? tr("%1 replayed: value %2").arg(name, r->value ? QString::number(*r->value, 'f', 4) : tr("none"))
                                  : tr("%1: %2").arg(name, r->firstError()));
    });
    connect(runner, &SweepRunner::failed, this, [this](const QString &name, const QString &message) {
        m_status->setText(tr("Replay of %1 failed: %2").arg(name, message));
    });
    connect(runner, &SweepRunner::cancelled, this, [this](const QString &name) {
        m_status->setText(tr("Replay of %1 cancelled.").arg(name));
    });
    connect(runner, &SweepRunner::idle, this, [this] {
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
        m_progress->setFormat(QString());
        updateButtons();
    });
    connect(workspace, &Workspace::worldsChanged, this, &PoliciesPage::updateButtons);
    if (m_proxy->rowCount() > 0)
        m_table->setCurrentIndex(m_proxy->index(0, 0));
    updateButtons();
}

void PoliciesPage::setDark(bool dark)
{
    m_codeHighlighter->setDark(dark);
    m_diffHighlighter->setDark(dark);
}

QString PoliciesPage::selectedVersion() const
{
    return m_table->currentIndex().data(PolicyTableModel::VersionNameRole).toString();
}

void PoliciesPage::selectVersion(const QString &name)
{
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        const QModelIndex idx = m_proxy->index(r, 0);
        if (idx.data(PolicyTableModel::VersionNameRole).toString() == name) {
            m_table->setCurrentIndex(idx);
            return;
        }
    }
}

void PoliciesPage::showSelected()
{
    const QString name = selectedVersion();
    m_shown = name;
    const int row = m_workspace->indexOfVersion(name);
    const QSignalBlocker blocker(m_editor);
    m_editor->setPlainText(row >= 0 ? m_workspace->versions().at(row).code : QString());
    m_editor->document()->setModified(false);
    m_codeHighlighter->rehighlight();
    updateDiff();
    updateTunables();
    updateButtons();
}

void PoliciesPage::updateDiff()
{
    const int other = m_workspace->indexOfVersion(m_diffAgainst->currentText());
    if (other < 0 || m_shown.isEmpty()) {
        m_diff->setPlainText(tr("Select two versions to compare."));
        return;
    }
    const PolicyVersion &o = m_workspace->versions().at(other);
    const QString label = m_editor->document()->isModified() ? tr("%1 (edited)").arg(m_shown) : m_shown;
    const QString diff = unifiedDiff(o.code, m_editor->toPlainText(), o.name, label);
    m_diff->setPlainText(diff.isEmpty() ? tr("%1 and %2 have the same code.").arg(o.name, label) : diff);
}

void PoliciesPage::updateTunables()
{
    m_tunables->setRowCount(0);
    const int row = m_workspace->indexOfVersion(m_shown);
    if (row < 0) {
        m_tunables->setHorizontalHeaderLabels({tr("Tunable"), tr("Parent"), tr("This version"), tr("Range")});
        m_tunablesLabel->setText(tr("Select a version to see its tunables."));
        return;
    }
    const PolicyVersion &v = m_workspace->versions().at(row);
    // An edit is compared with the stored version: saving makes it the parent.
    const bool edited = m_editor->document()->isModified();
    const PolicyVersion *parent = edited ? &v : nullptr;
    if (!edited && v.parent != 0) {
        for (const PolicyVersion &p : m_workspace->versions()) {
            if (p.id == v.parent)
                parent = &p;
        }
    }
    const QString label = edited ? tr("%1 (edited)").arg(m_shown) : m_shown;
    const QList<PolicyTunable> mine = PolicyTunables::parse(m_editor->toPlainText());
    const QList<PolicyTunable> theirs = parent ? PolicyTunables::parse(parent->code) : QList<PolicyTunable>();
    m_tunables->setHorizontalHeaderLabels(
        {tr("Tunable"), parent ? parent->name : tr("Parent"), label, tr("Range")});
    if (mine.isEmpty() && theirs.isEmpty()) {
        m_tunablesLabel->setText(tr("%1 has no tunables (top-level lines const NAME = number;).").arg(label));
        return;
    }
    auto find = [](const QList<PolicyTunable> &list, const QString &name) -> const PolicyTunable * {
        for (const PolicyTunable &t : list) {
            if (t.name == name)
                return &t;
        }
        return nullptr;
    };
    auto rangeText = [this](const PolicyTunable &t) {
        if (t.learned)
            return tr("learned");
        if (!t.choices.isEmpty()) {
            QStringList choices;
            for (const double c : t.choices)
                choices.append(PolicyTunables::literal(c, t.integer));
            return tr("choice %1").arg(choices.join(QLatin1Char('|')));
        }
        if (t.low && t.high)
            return tr("[%1, %2]").arg(PolicyTunables::literal(*t.low, t.integer), PolicyTunables::literal(*t.high, t.integer));
        return QString();
    };
    // In the script's order; what the parent has and this version dropped at the end.
    QList<std::pair<const PolicyTunable *, const PolicyTunable *>> rows; // (parent's, this one's)
    for (const PolicyTunable &t : mine)
        rows.emplaceBack(find(theirs, t.name), &t);
    for (const PolicyTunable &t : theirs) {
        if (!find(mine, t.name))
            rows.emplaceBack(&t, nullptr);
    }
    // Semi-transparent, so the highlight reads on the light and the dark theme.
    const QColor highlight(255, 190, 0, 80);
    int changed = 0;
    m_tunables->setRowCount(int(rows.size()));
    for (int r = 0; r < rows.size(); ++r) {
        const auto [before, after] = rows.at(r);
        const PolicyTunable &any = after ? *after : *before;
        const bool differs = parent && (!before || !after || before->value != after->value);
        changed += differs ? 1 : 0;
        const QString texts[4] = {any.name,
                                  before ? PolicyTunables::literal(before->value, before->integer) : QStringLiteral("—"),
                                  after ? PolicyTunables::literal(after->value, after->integer) : QStringLiteral("—"),
                                  rangeText(any)};
        for (int c = 0; c < 4; ++c) {
            auto *item = new QTableWidgetItem(texts[c]);
            if (c == 1 || c == 2)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (differs) {
                item->setBackground(highlight);
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
            }
            m_tunables->setItem(r, c, item);
        }
        m_tunables->item(r, 0)->setData(Qt::UserRole, differs);
    }
    if (!parent)
        m_tunablesLabel->setText(tr("Tunables of %1; it has no parent to compare with.").arg(label));
    else if (edited)
        m_tunablesLabel->setText(tr("Tunables of %1 against the stored version: %n changed.", nullptr, changed).arg(label));
    else
        m_tunablesLabel->setText(
            tr("Tunables of %1 against its parent %2: %n changed.", nullptr, changed).arg(label, parent->name));
}

void PoliciesPage::updateButtons()
{
    const bool selected = !m_shown.isEmpty();
    const bool edited = m_editor->document()->isModified();
    m_save->setEnabled(selected && edited && !m_editor->toPlainText().trimmed().isEmpty());
    m_revert->setEnabled(selected && edited);
    m_replay->setEnabled(selected && !edited && !m_workspace->worlds().isEmpty());
    m_cancel->setEnabled(m_runner->isRunning());
    const int row = m_workspace->indexOfVersion(m_shown);
    const PolicyVersion *v = row >= 0 ? &m_workspace->versions().at(row) : nullptr;
    const ReplayResultPtr r = selected ? m_workspace->result(m_shown) : nullptr;
    // Approvable: stored in a project, replayed cleanly, not already the deployed one.
    m_approve->setEnabled(v && v->id != 0 && !Workspace::isLocalId(v->id) && r && r->ok() && r->value
                          && m_workspace->deployedVersion() != v->id && m_runner->currentVersion() != m_shown);
}

QString PoliciesPage::saveAsNewVersion()
{
    const int row = m_workspace->indexOfVersion(m_shown);
    if (row < 0 || !m_editor->document()->isModified())
        return {};
    const PolicyVersion parent = m_workspace->versions().at(row);
    PolicyVersion v;
    v.name = m_workspace->freshVersionName(parent.name);
    v.code = m_editor->toPlainText();
    v.parent = parent.id;
    v.origin = PolicyOrigin::Human;
    v.created = QDateTime::currentDateTimeUtc();
    m_editor->document()->setModified(false);
    m_shown = v.name;
    m_workspace->addVersion(v);
    selectVersion(v.name);
    m_status->setText(tr("Saved as %1; %2 is unchanged.").arg(v.name, parent.name));
    emit versionCreated(m_workspace->versions().at(m_workspace->indexOfVersion(v.name)));
    return v.name;
}

ApprovalDialog *PoliciesPage::approveSelected()
{
    if (m_shown.isEmpty())
        return nullptr;
    auto *dialog = new ApprovalDialog(*m_workspace, m_shown, m_preferences, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { emit approvalRequested(dialog->approval()); });
    dialog->open();
    return dialog;
}

void PoliciesPage::replaySelected()
{
    if (!m_shown.isEmpty())
        m_runner->run({m_shown});
}

void PoliciesPage::updateConfigLabel()
{
    const std::optional<StoredReplayConfig> &config = m_workspace->replayConfig();
    if (!config) { // no project: the values are under Settings' W, λ and β
        m_configLabel->clear();
        m_configLabel->setVisible(false);
        return;
    }
    m_configLabel->setVisible(true);
    auto nameOf = [this](PolicyVersionId id) {
        for (const PolicyVersion &v : m_workspace->versions()) {
            if (v.id == id)
                return v.name;
        }
        return QString::number(id);
    };
    QString text = tr("Values under the project's replay configuration: %1.").arg(config->config.label());
    if (!m_workspace->otherResults().isEmpty()) {
        QStringList others;
        for (const ConfiguredResult &r : m_workspace->otherResults()) {
            const QString value = r.result && r.result->value ? QString::number(*r.result->value, 'f', 4) : tr("no value");
            others.append(tr("%1 under %2: %3").arg(nameOf(r.version), r.config.label(), value));
        }
        text += QLatin1Char('\n')
                + tr("Kept under other configurations, not compared with the table: %1.").arg(others.join(QStringLiteral("; ")));
    }
    if (!m_workspace->staleVersions().isEmpty()) {
        QStringList stale;
        for (const PolicyVersionId id : m_workspace->staleVersions())
            stale.append(nameOf(id));
        text += QLatin1Char('\n') + tr("Stale under this configuration (replay them): %1.").arg(stale.join(QStringLiteral(", ")));
    }
    m_configLabel->setText(text);
}

} // namespace dreamrsi
