#pragma once

#include "figureexport.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace dreamrsi {

/// Asks where and how to export a figure: file (its suffix picks PNG, PDF or
/// SVG), size in millimetres and resolution. Remembers the last choices.
class ExportDialog final : public QDialog
{
    Q_OBJECT
public:
    ExportDialog(const QString &figureName, QWidget *parent = nullptr);

    QString path() const;
    FigureExport::Options options() const;

    void accept() override;

private:
    void browse();
    void applyPreset(int index);

    QString m_figureName;
    QLineEdit *m_path = nullptr;
    QComboBox *m_preset = nullptr;
    QDoubleSpinBox *m_width = nullptr;
    QDoubleSpinBox *m_height = nullptr;
    QSpinBox *m_dpi = nullptr;
};

} // namespace dreamrsi
