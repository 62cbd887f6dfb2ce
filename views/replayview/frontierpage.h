#pragma once

#include "figures/figuresource.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QListWidget;

namespace dreamrsi {

class Workspace;

/// The Frontiers tab: the (calls, attainment) point of each β, the
/// non-dominated staircase and its hypervolume, for the checked policy
/// versions, in one world or as the mean over all of them.
class FrontierPage final : public QWidget, public FigureSource
{
    Q_OBJECT
public:
    explicit FrontierPage(Workspace *workspace, QWidget *parent = nullptr);

    QStringList checkedVersions() const;
    void setChecked(const QStringList &versionNames);
    /// Empty for the mean over worlds.
    QString currentWorld() const;
    void setCurrentWorld(const QString &world);
    QCustomPlot *plot() const { return m_plot; }
    /// Whether the attainment axis shows the whole 0–1 instead of fitting the points drawn.
    bool fullAttainmentAxis() const;
    void setFullAttainmentAxis(bool full);
    int seriesShown() const { return m_shown; }
    void setDark(bool dark);

    // FigureSource
    QString figureName() const override;
    FigureExport::Painter figurePainter() override;
    FigureTable figureData() const override;

signals:
    void replayRequested(const QStringList &versionNames);

private:
    void updateConfigLabel();
    void rebuildVersions();
    void rebuildWorlds();
    void refresh();

    Workspace *m_workspace;
    QListWidget *m_versions = nullptr;
    QComboBox *m_world = nullptr;
    QCheckBox *m_fullAxis = nullptr; ///< attainment axis 0–1 instead of fitted
    QCustomPlot *m_plot = nullptr;
    QLabel *m_config = nullptr; ///< the replay configuration the frontiers are under
    QLabel *m_hint = nullptr;
    bool m_dark = false;
    int m_shown = 0;
};

} // namespace dreamrsi
