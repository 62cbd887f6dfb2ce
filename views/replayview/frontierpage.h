#pragma once

#include "figures/figuresource.h"
#include "replay/replayresult.h"

#include <QSet>
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
/// versions, in one world or as the mean over all of them. Only versions
/// with a value under the project's replay configuration are drawn; the
/// others' rows say "not valued under this configuration".
class FrontierPage final : public QWidget, public FigureSource
{
    Q_OBJECT
public:
    explicit FrontierPage(Workspace *workspace, QWidget *parent = nullptr);

    QStringList checkedVersions() const;
    /// Ticks exactly these versions: the researcher's choice from now on.
    void setChecked(const QStringList &versionNames);
    /// The versions ticked until the researcher ticks otherwise: the
    /// deployed one, the last dream's proposal and the BestFew others with
    /// the best mean value (never every version a dream stored).
    QStringList defaultVersions() const;
    static constexpr int BestFew = 3;
    /// After a dream: tick the default versions with `proposal` among them.
    void showDream(const QString &proposal);
    /// A replay of `versionName` was asked for: its result is ticked when it arrives.
    void expectResult(const QString &versionName);
    /// The legend sits in a band above the plot, clear of the data.
    bool legendOutsidePlot() const;
    /// Empty for the mean over worlds.
    QString currentWorld() const;
    void setCurrentWorld(const QString &world);
    QCustomPlot *plot() const { return m_plot; }
    /// Whether the attainment axis shows the whole 0–1 instead of fitting the points drawn.
    bool fullAttainmentAxis() const;
    void setFullAttainmentAxis(bool full);
    int seriesShown() const { return m_shown; }
    /// The note under the plot on re-evaluated worlds: whether each shown
    /// world's best cell (its S) is lucky, and its best by mean; empty when none.
    QString reevaluationNote() const;
    void setDark(bool dark);

    // FigureSource
    QString figureName() const override;
    FigureExport::Painter figurePainter() override;
    FigureTable figureData() const override;

signals:
    void replayRequested(const QStringList &versionNames);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateConfigLabel();
    void rebuildVersions();
    void rebuildWorlds();
    void refresh();
    void applyTicks(const QStringList &versionNames);
    void placeLegend();
    void updateReevaluationNote();
    /// The version's result when it has a value under the project's
    /// configuration, else null: only those are drawn and get an HV.
    ReplayResultPtr valuedResult(const QString &versionName) const;
    /// Why a version has no value (its row's tooltip).
    QString notValuedReason(const QString &versionName) const;

    Workspace *m_workspace;
    QListWidget *m_versions = nullptr;
    QComboBox *m_world = nullptr;
    QCheckBox *m_fullAxis = nullptr; ///< attainment axis 0–1 instead of fitted
    QCustomPlot *m_plot = nullptr;
    QLabel *m_config = nullptr; ///< the replay configuration the frontiers are under
    QLabel *m_hint = nullptr;
    QLabel *m_reevaluation = nullptr; ///< under the plot: the shown worlds' re-evaluated best cells
    bool m_dark = false;
    int m_shown = 0;
    bool m_defaultTicks = true;  ///< ticks follow defaultVersions() until changed by hand
    QString m_proposal;          ///< the last dream's proposal, ticked by default
    QSet<QString> m_expected;    ///< versions replayed on request, ticked when their result arrives
    QStringList m_lastChecked;   ///< the ticks as last drawn (a hand-made change differs)
};

} // namespace dreamrsi
