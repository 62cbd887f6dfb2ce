#include "exportdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

namespace dreamrsi {

namespace {
struct Preset
{
    const char *name;
    double width;
    double height;
};
const Preset Presets[] = {
    {QT_TRANSLATE_NOOP("dreamrsi::ExportDialog", "Single column (85 × 60 mm)"), 85, 60},
    {QT_TRANSLATE_NOOP("dreamrsi::ExportDialog", "Double column (170 × 100 mm)"), 170, 100},
    {QT_TRANSLATE_NOOP("dreamrsi::ExportDialog", "Slide (254 × 143 mm)"), 254, 143},
};
} // namespace

ExportDialog::ExportDialog(const QString &figureName, QWidget *parent)
    : QDialog(parent)
    , m_figureName(figureName)
{
    setWindowTitle(tr("Export Figure — %1").arg(figureName));
    QSettings settings;
    auto *form = new QFormLayout;

    m_path = new QLineEdit;
    const QString dir = settings.value(QStringLiteral("export/dir"), QDir::homePath()).toString();
    const QString suffix = settings.value(QStringLiteral("export/suffix"), QStringLiteral("pdf")).toString();
    m_path->setText(QDir(dir).filePath(figureName.toLower().replace(QLatin1Char(' '), QLatin1Char('-')) + QLatin1Char('.') + suffix));
    auto *browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    form->addRow(tr("File (.pdf, .svg, .png):"), pathRow);

    m_preset = new QComboBox;
    m_preset->addItem(tr("Custom"));
    for (const Preset &p : Presets)
        m_preset->addItem(tr(p.name));
    form->addRow(tr("Preset:"), m_preset);

    m_width = new QDoubleSpinBox;
    m_height = new QDoubleSpinBox;
    for (QDoubleSpinBox *box : {m_width, m_height}) {
        box->setRange(10, 2000);
        box->setDecimals(1);
        box->setSuffix(tr(" mm"));
    }
    m_width->setValue(settings.value(QStringLiteral("export/widthMm"), 170.0).toDouble());
    m_height->setValue(settings.value(QStringLiteral("export/heightMm"), 100.0).toDouble());
    form->addRow(tr("Width:"), m_width);
    form->addRow(tr("Height:"), m_height);
    m_dpi = new QSpinBox;
    m_dpi->setRange(36, 2400);
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setValue(settings.value(QStringLiteral("export/dpi"), 300).toInt());
    m_dpi->setToolTip(tr("Resolution of PNG files; PDF and SVG stay vector graphics."));
    form->addRow(tr("Resolution:"), m_dpi);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &ExportDialog::applyPreset);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

void ExportDialog::applyPreset(int index)
{
    if (index <= 0 || index > int(std::size(Presets)))
        return;
    m_width->setValue(Presets[index - 1].width);
    m_height->setValue(Presets[index - 1].height);
}

void ExportDialog::browse()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Figure"), m_path->text(),
                                                      tr("PDF (*.pdf);;SVG (*.svg);;PNG image (*.png)"));
    if (!path.isEmpty())
        m_path->setText(path);
}

QString ExportDialog::path() const
{
    return m_path->text().trimmed();
}

FigureExport::Options ExportDialog::options() const
{
    FigureExport::Options o;
    o.sizeMm = QSizeF(m_width->value(), m_height->value());
    o.dpi = m_dpi->value();
    o.title = m_figureName;
    return o;
}

void ExportDialog::accept()
{
    if (!FigureExport::formatForPath(path())) {
        QMessageBox::warning(this, windowTitle(), tr("The file name must end in .pdf, .svg or .png."));
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("export/dir"), QFileInfo(path()).absolutePath());
    settings.setValue(QStringLiteral("export/suffix"), QFileInfo(path()).suffix().toLower());
    settings.setValue(QStringLiteral("export/widthMm"), m_width->value());
    settings.setValue(QStringLiteral("export/heightMm"), m_height->value());
    settings.setValue(QStringLiteral("export/dpi"), m_dpi->value());
    QDialog::accept();
}

} // namespace dreamrsi
