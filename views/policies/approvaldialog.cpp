#include "approvaldialog.h"

#include "session/preferences.h"

#include "models/workspace.h"

#include "loop/dream/dreamer.h"

#include <QColor>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace dreamrsi {

ApprovalInputs ApprovalDialog::inputsOf(const Workspace &workspace)
{
    ApprovalInputs in;
    for (const WorldEntry &w : workspace.worlds())
        in.worlds.append({w.name, w.iteration, w.tree});
    for (const PolicyVersion &v : workspace.versions())
        in.versions.append({v, v.id != 0 && !Workspace::isLocalId(v.id), workspace.result(v.name),
                            workspace.otherValuationResult(v.name)});
    in.deployed = workspace.deployedVersion();
    if (workspace.replayConfig()) {
        in.config = workspace.replayConfig()->config;
        in.otherConfig = ApprovalRules::otherValuation(*in.config);
    }
    return in;
}

ApprovalComparison ApprovalDialog::compare(const Workspace &workspace, const QString &candidate)
{
    return ApprovalRules::compare(inputsOf(workspace), candidate);
}

QString ApprovalDialog::blockerText(const ApprovalComparison &c)
{
    return ApprovalRules::describe(c); // core's wording, translated (approvalcomparison.cpp)
}

QString ApprovalDialog::warningText(const ApprovalComparison &c, ApprovalWarning warning)
{
    return ApprovalRules::describe(c, warning);
}

QString ApprovalDialog::valuationName(Valuation valuation)
{
    return valuation == Valuation::Imagined ? tr("imagined completions") : tr("revealed history");
}

QString ApprovalDialog::valuationText(const ApprovalComparison &c)
{
    if (!c.otherConfig)
        return {};
    const Valuation other = c.otherConfig->valuation;
    const Valuation own = other == Valuation::Imagined ? Valuation::Revealed : Valuation::Imagined;
    auto number = [](const std::optional<double> &v) { return v ? QString::number(*v, 'f', 4) : tr("—"); };
    // Revealed first, then imagined, whichever the configuration judges by.
    const std::optional<double> &candidateRevealed = own == Valuation::Revealed ? c.candidateValue : c.candidateOtherValue;
    const std::optional<double> &candidateImagined = own == Valuation::Imagined ? c.candidateValue : c.candidateOtherValue;
    const std::optional<double> &baselineRevealed = own == Valuation::Revealed ? c.baselineValue : c.baselineOtherValue;
    const std::optional<double> &baselineImagined = own == Valuation::Imagined ? c.baselineValue : c.baselineOtherValue;
    const int completions = c.otherConfig->completions; // the same C under both
    QString text = tr("Valuation: <b>%1</b> (the values above).").arg(valuationName(own).toHtmlEscaped());
    text += QLatin1Char(' ')
          + tr("%1: revealed history %2, imagined completions (C %3) %4.")
                .arg(c.candidate.toHtmlEscaped(), number(candidateRevealed))
                .arg(completions)
                .arg(number(candidateImagined));
    if (!c.baseline.isEmpty())
        text += QLatin1Char(' ')
              + tr("%1: revealed history %2, imagined completions %3.")
                    .arg(c.baseline.toHtmlEscaped(), number(baselineRevealed), number(baselineImagined));
    if (!c.candidateOtherValue || (!c.baseline.isEmpty() && !c.baselineOtherValue))
        text += QLatin1Char(' ') + tr("— : nothing stored under %1 yet (a dream stores both numbers for the deployed "
                                      "version and its proposal).")
                                       .arg(valuationName(other).toHtmlEscaped());
    return text;
}

QString ApprovalDialog::proposalCheckText(const ProposalCheck &c)
{
    if (!c.measured)
        return {};
    const auto number = [](double v) { return QString::number(v, 'g', 3); };
    const QString lead = tr("%1 leads %2 by %3", "candidate leads deployed by lead").arg(c.candidate, c.deployed, number(c.lead));
    if (!c.noise || !c.secondLead) {
        // Passed without a noise: the deployed version had no value to measure the lead against.
        return c.passed ? tr("%1 has no value: the lead of %2 was not measured against the noise")
                              .arg(c.deployed, c.candidate)
                        : tr("%1; the two could not both be valued under the second completion seed → not proposed")
                              .arg(lead);
    }
    QString verdict;
    if (c.passed)
        verdict = tr("beats the noise, proposed");
    else if (c.lead <= *c.noise)
        verdict = tr("inside the noise, not proposed");
    else
        verdict = tr("does not hold under the second seed, not proposed");
    const QString second = *c.secondLead > 0 ? QStringLiteral("+") + number(*c.secondLead) : number(*c.secondLead);
    return tr("%1; noise %2 (how far %3 moved between two completion seeds); lead under the second seed %4 → %5",
              "lead; noise (how far the deployed version moved between two seeds); the lead under the second seed → verdict")
        .arg(lead, number(*c.noise), c.deployed, second, verdict);
}

void ApprovalDialog::setProposalCheck(const ProposalCheck &check)
{
    const QString text = check.candidate == m_comparison.candidate ? proposalCheckText(check) : QString();
    // A lead inside the noise is a warning, in the colour of the others.
    m_check->setText(text.isEmpty() ? QString()
                                    : tr("<b>The dream's noise check:</b> %1.")
                                          .arg(check.passed ? text.toHtmlEscaped()
                                                            : QStringLiteral("<span style='color:#b8860b'>%1</span>")
                                                                  .arg(text.toHtmlEscaped())));
    m_check->setToolTip(text.isEmpty() ? QString()
                                       : tr("%1 and %2 valued again over completions drawn with a second seed (%3); "
                                            "a candidate is proposed only when its lead is larger than the deployed "
                                            "version's change between the seeds and holds under the second seed.")
                                             .arg(check.deployed, check.candidate)
                                             .arg(check.secondSeed));
    m_check->setVisible(!text.isEmpty());
}

ApprovalDialog::ApprovalDialog(const Workspace &workspace, const QString &candidate, const Preferences *preferences,
                               QWidget *parent)
    : QDialog(parent)
    , m_comparison(compare(workspace, candidate))
{
    setWindowTitle(tr("Approve %1 for Redeployment").arg(candidate));
    auto *intro = new QLabel(
        m_comparison.baseline.isEmpty()
            ? tr("The next online round will run <b>%1</b>. No other version has a result to compare it with.")
                  .arg(candidate.toHtmlEscaped())
            : tr("The next online round will run <b>%1</b> instead of the %2 <b>%3</b>. Compare them world by world "
                 "before you approve.")
                  .arg(candidate.toHtmlEscaped(),
                       m_comparison.baselineRole == QLatin1String("deployed") ? tr("deployed version")
                                                                               : tr("best other version"),
                       m_comparison.baseline.toHtmlEscaped()));
    intro->setWordWrap(true);
    const ApprovalInputs inputs = inputsOf(workspace);
    auto *config = new QLabel(inputs.config ? tr("Both values are under the project's replay configuration: %1.")
                                                  .arg(inputs.config->label())
                                            : tr("Values under the replay settings of the workbench (no project is open)."));
    config->setObjectName(QStringLiteral("approvalReplayConfig"));
    config->setWordWrap(true);
    auto *valuation = new QLabel(valuationText(m_comparison));
    valuation->setObjectName(QStringLiteral("approvalValuation"));
    valuation->setWordWrap(true);
    valuation->setVisible(!valuation->text().isEmpty());

    // A dream's noise check of the candidate (setProposalCheck); hidden otherwise.
    m_check = new QLabel;
    m_check->setObjectName(QStringLiteral("approvalProposalCheck"));
    m_check->setWordWrap(true);
    m_check->setTextFormat(Qt::RichText);
    m_check->hide();

    m_table = new QTableWidget;
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    fillTable();

    auto *notes = new QLabel;
    notes->setWordWrap(true);
    QStringList lines;
    if (!m_comparison.approvable())
        lines.append(QStringLiteral("<span style='color:#d62728'><b>%1</b></span>").arg(blockerText(m_comparison).toHtmlEscaped()));
    for (const ApprovalWarning w : m_comparison.warnings)
        lines.append(QStringLiteral("<span style='color:#b8860b'>%1</span>").arg(warningText(m_comparison, w).toHtmlEscaped()));
    notes->setText(lines.join(QStringLiteral("<br>")));
    notes->setVisible(!lines.isEmpty());

    // Settings' "Your name", else $USER, else the account's login name; never a
    // made-up one (an approval names a person).
    m_who = new QLineEdit(Preferences::of(preferences).personName());
    m_who->setPlaceholderText(tr("Your name"));
    m_note = new QPlainTextEdit;
    m_note->setPlaceholderText(tr("Why this version should run next (kept with the approval)"));
    m_note->setMaximumHeight(90);
    auto *form = new QFormLayout;
    form->addRow(tr("Approved by:"), m_who);
    form->addRow(tr("Note:"), m_note);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_approve = buttons->addButton(tr("Approve"), QDialogButtonBox::AcceptRole);
    m_approve->setEnabled(m_comparison.approvable() && !m_who->text().trimmed().isEmpty());
    connect(m_who, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_approve->setEnabled(m_comparison.approvable() && !text.trimmed().isEmpty());
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(config);
    layout->addWidget(valuation);
    layout->addWidget(m_check);
    layout->addWidget(m_table, 1);
    layout->addWidget(notes);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(760, 460);
}

void ApprovalDialog::fillTable()
{
    const QJsonObject &e = m_comparison.evidence;
    const bool withBaseline = !m_comparison.baseline.isEmpty();
    QStringList headers{tr("World"), tr("%1: value").arg(m_comparison.candidate), tr("HV"), tr("Penalty")};
    if (withBaseline)
        headers << tr("%1: value").arg(m_comparison.baseline) << tr("Δ value");
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    const QJsonArray worlds = e.value(QLatin1String("worlds")).toArray();
    const bool other = m_comparison.otherConfig.has_value();
    m_table->setRowCount(int(worlds.size()) + (other ? 2 : 1));
    auto cell = [](const QJsonValue &v) {
        auto *item = new QTableWidgetItem(v.isDouble() ? QString::number(v.toDouble(), 'f', 4) : QStringLiteral("—"));
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        return item;
    };
    auto delta = [&cell](const QJsonValue &a, const QJsonValue &b) {
        QTableWidgetItem *item = cell(a.isDouble() && b.isDouble() ? QJsonValue(a.toDouble() - b.toDouble()) : QJsonValue());
        if (a.isDouble() && b.isDouble() && a.toDouble() != b.toDouble())
            item->setForeground(a.toDouble() > b.toDouble() ? QColor(0x2c, 0xa0, 0x2c) : QColor(0xd6, 0x27, 0x28));
        return item;
    };
    for (int r = 0; r < worlds.size(); ++r) {
        const QJsonObject w = worlds.at(r).toObject();
        const QJsonObject c = w.value(QLatin1String("candidate")).toObject();
        const QJsonObject b = w.value(QLatin1String("baseline")).toObject();
        m_table->setItem(r, 0, new QTableWidgetItem(w.value(QLatin1String("world")).toString()));
        m_table->setItem(r, 1, cell(c.value(QLatin1String("value"))));
        m_table->setItem(r, 2, cell(c.value(QLatin1String("hypervolume"))));
        m_table->setItem(r, 3, cell(c.value(QLatin1String("penalty"))));
        if (withBaseline) {
            m_table->setItem(r, 4, cell(b.value(QLatin1String("value"))));
            m_table->setItem(r, 5, delta(c.value(QLatin1String("value")), b.value(QLatin1String("value"))));
        }
    }
    const int mean = int(worlds.size());
    const QJsonObject value = e.value(QLatin1String("value")).toObject();
    auto *label = new QTableWidgetItem(
        other ? tr("Mean value (%1)").arg(valuationName(m_comparison.otherConfig->valuation == Valuation::Imagined
                                                            ? Valuation::Revealed
                                                            : Valuation::Imagined))
              : tr("Mean value"));
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    m_table->setItem(mean, 0, label);
    m_table->setItem(mean, 1, cell(value.value(QLatin1String("candidate"))));
    m_table->item(mean, 1)->setFont(bold);
    if (withBaseline) {
        m_table->setItem(mean, 4, cell(value.value(QLatin1String("baseline"))));
        m_table->setItem(mean, 5, delta(value.value(QLatin1String("candidate")), value.value(QLatin1String("baseline"))));
        m_table->item(mean, 5)->setFont(bold);
    }
    if (other) {
        // The same versions under the other valuation, from stored records.
        const int row = mean + 1;
        const QJsonValue c = m_comparison.candidateOtherValue ? QJsonValue(*m_comparison.candidateOtherValue) : QJsonValue();
        const QJsonValue b = m_comparison.baselineOtherValue ? QJsonValue(*m_comparison.baselineOtherValue) : QJsonValue();
        auto *otherLabel = new QTableWidgetItem(tr("Mean value (%1)").arg(valuationName(m_comparison.otherConfig->valuation)));
        m_table->setItem(row, 0, otherLabel);
        m_table->setItem(row, 1, cell(c));
        if (withBaseline) {
            m_table->setItem(row, 4, cell(b));
            m_table->setItem(row, 5, delta(c, b));
        }
    }
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
}

Approval ApprovalDialog::approval() const
{
    return ApprovalRules::approvalOf(m_comparison, m_who->text(), m_note->toPlainText());
}

} // namespace dreamrsi
