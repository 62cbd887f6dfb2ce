#pragma once

#include "figureexport.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

namespace dreamrsi {

/// What Export Figure… starts from: the last export's choices, the defaults before the first.
struct ExportChoices
{
    std::optional<QString> dir; ///< the last folder used; none: the home folder
    QString suffix = QStringLiteral("pdf");
    double widthMm = 170.0;
    double heightMm = 100.0;
    int dpi = 300;
    bool data = false;
};

/// Asks where and how to export a figure: file (its suffix picks PNG, PDF or
/// SVG), size in millimetres (with the common paper and slide sizes as
/// presets) and resolution, with a preview of the figure laid out at that
/// size. Starts from the last choices, which its caller keeps (choices();
/// ProjectPage keeps them with UiState::exportForm); the file goes next to
/// the open project unless one of its subfolders was used last.
class ExportDialog final : public QDialog
{
    Q_OBJECT
public:
    /// `projectDir`: the open project's folder, proposed for the file (or the
    /// last folder used, when it lies inside it); without one, the last
    /// folder used, else the home folder.
    ExportDialog(const QString &figureName, QWidget *parent = nullptr, const QString &projectDir = {},
                 const ExportChoices &last = {});
    /// The choices made (what the next export starts from).
    ExportChoices choices() const;

    QString path() const;
    FigureExport::Options options() const;
    /// Whether the numbers behind the figure go to a CSV beside it (dataPath()).
    bool writesData() const;
    /// path() with the suffix .csv.
    QString dataPath() const;

    /// Common sizes: single column, double column, 16:9 slide.
    struct Preset
    {
        const char *name;
        double widthMm;
        double heightMm;
    };
    static QList<Preset> presets();
    void selectPreset(int index); ///< index into presets()

    /// What the preview draws: the same painter the export will use.
    void setPreview(FigureExport::Painter painter);
    /// The current preview: the figure at the chosen size, rendered at screen resolution.
    QImage previewImage() const { return m_previewImage; }

    void accept() override;

private:
    void browse();
    void applyPreset(int index);
    void updatePreview();

    QString m_figureName;
    QLineEdit *m_path = nullptr;
    QComboBox *m_preset = nullptr;
    QDoubleSpinBox *m_width = nullptr;
    QDoubleSpinBox *m_height = nullptr;
    QSpinBox *m_dpi = nullptr;
    QCheckBox *m_data = nullptr;
    QLabel *m_preview = nullptr;
    QLabel *m_previewCaption = nullptr;
    QTimer *m_previewTimer = nullptr;
    FigureExport::Painter m_previewPainter;
    QImage m_previewImage;
};

} // namespace dreamrsi
