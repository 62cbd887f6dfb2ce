#pragma once

#include "figures/figuresource.h"
#include "project/comparecurves.h"

#include <QHash>
#include <QWidget>

class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace dreamrsi {

/// The Compare tab (docs/compare.md): best score so far against agent calls,
/// cost or elapsed time for any mix of projects' iterations, tree files and
/// OpenEvolve or ShinkaEvolve runs. Sources with the same label are seeds of
/// one setting, drawn as their mean with a Student-t 95 % band. The set is
/// kept with the open project (in the user's settings, keyed by the
/// project's path) and comes back when the project is opened again; the
/// figure exports like every other (File ▸ Export Figure).
///
/// Sources are read off the GUI thread, each once: changing a label or the
/// axis only redraws.
class ComparePage final : public QWidget, public FigureSource
{
    Q_OBJECT
public:
    explicit ComparePage(QWidget *parent = nullptr);

    /// Shows the set kept with the project at `projectPath` (empty: the set
    /// kept without a project).
    void setProject(const QString &projectPath);
    /// Shows a served project through `copyPath`, its iterations' temporary
    /// copy (docs/remote.md): the copy is a source, in place of an earlier
    /// copy; the set is not kept (its paths go with the connection).
    /// setProject() ends it.
    void setServedProject(const QString &copyPath);
    /// Adds projects, runs or tree files, each of the kind its path says
    /// (CompareCurves::kindOf), labelled by its own name.
    void addPaths(const QStringList &paths);
    void addSource(const CompareSourceSpec &spec);
    void removeSource(int row);
    /// Names a source's setting (empty: its own name).
    void setLabel(int row, const QString &label);
    QList<CompareSourceSpec> sources() const { return m_specs; }
    void setAxis(CompareAxis axis);
    CompareAxis axis() const;
    /// The metric that scores cells (empty: their score).
    void setScoreMetric(const QString &metric);

    /// What is drawn now.
    const CompareResult &result() const { return m_result; }
    /// The notes under the figure: sources without the axis, sources that
    /// could not be read.
    QString notesText() const;
    /// True while sources are being read.
    bool isReading() const { return m_reading > 0; }
    QCustomPlot *plot() const { return m_plot; }
    QTableWidget *sourceTable() const { return m_table; }
    void setDark(bool dark);

    // FigureSource
    QString figureName() const override;
    FigureExport::Painter figurePainter() override;
    FigureTable figureData() const override;

signals:
    /// The figure was redrawn with every source read.
    void refreshed();

private:
    struct Entry
    {
        std::optional<CompareSource> source;
        QString error;
    };
    static QString keyOf(const CompareSourceSpec &spec, const QString &metric);
    void readMissing();
    void redraw();
    void rebuildTable();
    void save() const;
    void load();
    void chooseProjects();
    void chooseRunFolder();
    void chooseFiles();

    QString m_project;
    QString m_served; ///< the served project's copy shown, empty when a project file is
    QList<CompareSourceSpec> m_specs;
    QHash<QString, Entry> m_read; ///< by keyOf(): what reading gave
    int m_reading = 0;            ///< reads in flight
    bool m_loading = false;       ///< load() is filling the page: nothing to save
    QTableWidget *m_table = nullptr;
    QComboBox *m_axis = nullptr;
    QLineEdit *m_metric = nullptr;
    QCustomPlot *m_plot = nullptr;
    QLabel *m_notes = nullptr;
    CompareResult m_result;
    bool m_dark = false;
};

} // namespace dreamrsi
