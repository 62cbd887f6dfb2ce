#pragma once

#include <QWidget>

class QAction;
class QLabel;
class QProgressBar;
class QToolButton;

namespace dreamrsi {

/// A round's progress in the main window's status bar: attempts finished
/// against the planned number (a busy bar while that is unknown) and a
/// cancel button that triggers the round's Stop action (a second press
/// kills the running attempts, as in the Live Round panel).
class RoundStatus final : public QWidget
{
    Q_OBJECT
public:
    explicit RoundStatus(QAction *stop, QWidget *parent = nullptr);

    /// `done` attempts of `planned` (at least `done`: probe calls may run
    /// past the plan); planned ≤ 0 = unknown (busy bar).
    void setProgress(qint64 done, qint64 planned);
    /// A short word beside the bar ("Iteration 4", "Following pid 123").
    void setCaption(const QString &text);

    QProgressBar *bar() const { return m_bar; }
    /// What the bar stands for, in words beside it ("3 of 9 attempts").
    QLabel *text() const { return m_text; }
    QToolButton *cancelButton() const { return m_cancel; }

private:
    QLabel *m_caption = nullptr;
    QProgressBar *m_bar = nullptr;
    QLabel *m_text = nullptr;
    QToolButton *m_cancel = nullptr;
};

} // namespace dreamrsi
