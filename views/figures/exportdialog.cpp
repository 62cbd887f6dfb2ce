#include "exportdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {
constexpr int PreviewWidth = 420;
constexpr int PreviewHeight = 260;
} // namespace

QList<ExportDialog::Preset> ExportDialog::presets()
{
    return {
        {QT_TRANSLATE_NOOP("dreamrsi::ExportDialog", "Single column (85 × 60 mm)"), 85, 60},
        {QT_TRANSLATE_NOOP("dreamrsi::ExportDialog", "Double column (175 × 90 mm)"), 175, 90},
        {QT_TRANSLATE_NOOP("dreamrsi::ExportDialog", "Slide 16:9 (160 × 90 mm, as Beamer)"), 160, 90},
    };
}

ExportDialog::ExportDialog(const QString &figureName, QWidget *parent, const QString &projectDir, const ExportChoices &last)
    : QDialog(parent)
    , m_figureName(figureName)
{
    setWindowTitle(tr("Export Figure — %1").arg(figureName));
    auto *form = new QFormLayout;

    m_path = new QLineEdit;
    QString dir = last.dir.value_or(QDir::homePath());
    if (!projectDir.isEmpty()) {
        const QString project = QDir(projectDir).absolutePath();
        const QString lastDir = QDir(dir).absolutePath();
        if (lastDir != project && !lastDir.startsWith(project + QLatin1Char('/')))
            dir = project;
    }
    const QString &suffix = last.suffix;
    m_path->setText(QDir(dir).filePath(figureName.toLower().replace(QLatin1Char(' '), QLatin1Char('-')) + QLatin1Char('.') + suffix));
    auto *browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    form->addRow(tr("File (.pdf, .svg, .png):"), pathRow);

    m_preset = new QComboBox;
    m_preset->addItem(tr("Custom"));
    for (const Preset &p : presets())
        m_preset->addItem(tr(p.name));
    form->addRow(tr("Preset:"), m_preset);

    m_width = new QDoubleSpinBox;
    m_height = new QDoubleSpinBox;
    for (QDoubleSpinBox *box : {m_width, m_height}) {
        box->setRange(10, 2000);
        box->setDecimals(2);
        box->setSuffix(tr(" mm"));
    }
    m_width->setValue(last.widthMm);
    m_height->setValue(last.heightMm);
    form->addRow(tr("Width:"), m_width);
    form->addRow(tr("Height:"), m_height);
    m_dpi = new QSpinBox;
    m_dpi->setRange(36, 2400);
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setValue(last.dpi);
    m_dpi->setToolTip(tr("Resolution of PNG files; PDF and SVG stay vector graphics."));
    form->addRow(tr("Resolution:"), m_dpi);
    m_data = new QCheckBox(tr("Also write the numbers behind the figure (CSV, same name)"));
    m_data->setObjectName(QStringLiteral("exportData"));
    m_data->setToolTip(tr("Points, staircases, curves, cells or progress steps, one row per plotted point, "
                          "with a header naming each column, to re-plot them with other tools."));
    m_data->setChecked(last.data);
    form->addRow(QString(), m_data);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &ExportDialog::applyPreset);

    m_preview = new QLabel;
    m_preview->setAlignment(Qt::AlignCenter);
    m_preview->setMinimumSize(PreviewWidth, PreviewHeight);
    m_preview->setFrameShape(QFrame::StyledPanel);
    m_previewCaption = new QLabel;
    m_previewCaption->setAlignment(Qt::AlignCenter);
    m_previewTimer = new QTimer(this);
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(120); // coalesces spin-box steps; the render itself is synchronous
    connect(m_previewTimer, &QTimer::timeout, this, &ExportDialog::updatePreview);
    for (QDoubleSpinBox *box : {m_width, m_height}) {
        connect(box, &QDoubleSpinBox::valueChanged, m_previewTimer, qOverload<>(&QTimer::start));
        // A size typed by hand is no longer the preset.
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] {
            const int i = m_preset->currentIndex();
            const auto all = presets();
            if (i > 0 && (m_width->value() != all.at(i - 1).widthMm || m_height->value() != all.at(i - 1).heightMm)) {
                const QSignalBlocker blocker(m_preset);
                m_preset->setCurrentIndex(0);
            }
        });
    }

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_preview, 1);
    layout->addWidget(m_previewCaption);
    layout->addWidget(buttons);
    m_preview->setVisible(false);
    m_previewCaption->setVisible(false);
}

void ExportDialog::selectPreset(int index)
{
    if (index >= 0 && index < presets().size())
        m_preset->setCurrentIndex(index + 1);
}

void ExportDialog::setPreview(FigureExport::Painter painter)
{
    m_previewPainter = std::move(painter);
    m_preview->setVisible(bool(m_previewPainter));
    m_previewCaption->setVisible(bool(m_previewPainter));
    updatePreview();
}

void ExportDialog::updatePreview()
{
    if (!m_previewPainter)
        return;
    // Rendered as on paper at the chosen size (fonts at their final point
    // size), then shrunk to the preview box if it is larger.
    FigureExport::Options o = options();
    const double logicalDpi = FigureExport::logicalDpi();
    const QSize full = FigureExport::pixelSize(o.sizeMm, int(logicalDpi));
    const double fit = std::min({1.0, double(PreviewWidth) / full.width(), double(PreviewHeight) / full.height()});
    o.dpi = std::max(36, int(std::lround(logicalDpi * devicePixelRatioF())));
    m_previewImage = FigureExport::render(o, m_previewPainter);
    if (m_previewImage.isNull()) {
        m_preview->setText(tr("Too large to preview."));
        return;
    }
    QPixmap pixmap = QPixmap::fromImage(m_previewImage);
    pixmap.setDevicePixelRatio(devicePixelRatioF());
    if (fit < 1.0)
        pixmap = pixmap.scaled(pixmap.size() * fit, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    m_preview->setPixmap(pixmap);
    m_previewCaption->setText(tr("Preview at %1 × %2 mm (shown at %3 %)")
                                  .arg(o.sizeMm.width(), 0, 'g', 4)
                                  .arg(o.sizeMm.height(), 0, 'g', 4)
                                  .arg(int(std::lround(fit * 100))));
}

void ExportDialog::applyPreset(int index)
{
    const auto all = presets();
    if (index <= 0 || index > all.size())
        return;
    {
        const QSignalBlocker w(m_width), h(m_height);
        m_width->setValue(all.at(index - 1).widthMm);
        m_height->setValue(all.at(index - 1).heightMm);
    }
    updatePreview();
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

bool ExportDialog::writesData() const
{
    return m_data->isChecked();
}

QString ExportDialog::dataPath() const
{
    const QFileInfo info(path());
    return info.dir().filePath(info.completeBaseName() + QStringLiteral(".csv"));
}

ExportChoices ExportDialog::choices() const
{
    ExportChoices c;
    c.dir = QFileInfo(path()).absolutePath();
    c.suffix = QFileInfo(path()).suffix().toLower();
    c.widthMm = m_width->value();
    c.heightMm = m_height->value();
    c.dpi = m_dpi->value();
    c.data = m_data->isChecked();
    return c;
}

void ExportDialog::accept()
{
    if (!FigureExport::formatForPath(path())) {
        QMessageBox::warning(this, windowTitle(), tr("The file name must end in .pdf, .svg or .png."));
        return;
    }
    QDialog::accept();
}

} // namespace dreamrsi
