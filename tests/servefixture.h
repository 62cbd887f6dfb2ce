#pragma once

// What the suites of `dreamrsi serve` (docs/remote.md) start from, in one
// place for tst_serve and tst_gui_remote: the read and steering token files,
// a project made by a live round or a loop of the built-in agent in a child
// process, and the server itself on 127.0.0.1 in a second child, with the
// URL it prints read back. Each child is stopped when what holds it goes.

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <memory>

namespace dreamrsi::test {

/// Writes `content` to `path`, replacing it; false when it cannot.
[[nodiscard]] bool writeFile(const QString &path, const QByteArray &content);

/// The tokens the suites serve with (docs/remote.md#access: at least 16
/// characters each), and the files they are read from.
struct ServeTokens
{
    QByteArray read = "read-token-0123456789abcdef";
    QByteArray steer = "steer-token-0123456789abcdef";
    QString readFile;  ///< DIR/read.token once written
    QString steerFile; ///< DIR/steer.token once written

    /// Writes both files into `dir` (each token and a newline); false when one cannot be written.
    [[nodiscard]] bool writeInto(const QString &dir);
    /// `--token-file READ`: a server that answers reads and refuses writes.
    QStringList readArgs() const;
    /// readArgs() and `--steering-token-file STEER`: one that takes steering requests too.
    QStringList steeringArgs() const;
};

/// A child `dreamrsi` that makes a project as it runs: a live round or a
/// loop of the built-in agent on circle packing. Killed when it goes if it
/// still runs.
class ProjectMaker final : public QProcess
{
public:
    ProjectMaker() = default;
    ~ProjectMaker() override;

    /// Starts `dreamrsi round` in `project` with 4 workers and `rounds`
    /// rounds, then `extra`, and waits until it has made the project
    /// (waitForProject): empty, or what did not happen in time.
    [[nodiscard]] QString startRound(const QString &project, int rounds, const QStringList &extra = {});
    /// Starts `dreamrsi loop --await-approval` in `project` (2 iterations,
    /// 2 versions, 4 workers, 2 rounds: it waits for an approval after its
    /// first dream, docs/steering.md) and waits as startRound() does.
    [[nodiscard]] QString startApprovalLoop(const QString &project);

private:
    /// Waits until the child has started (10 s) and `project` is there
    /// (20 s) and opens (20 s more), the event loop turning.
    QString waitForProject(const QString &project);
};

/// `dreamrsi serve` in a child process, and what it printed when it started.
struct Served
{
    std::unique_ptr<QProcess> process;
    QUrl base;         ///< http://127.0.0.1:PORT/ (https with --tls-cert); empty when not said in time
    quint16 port = 0;  ///< 0 when the server did not say where it listens in time
    QByteArray banner; ///< its output up to the URL's last line

    Served() = default;
    Served(Served &&) noexcept = default;
    /// The server this held is stopped first.
    Served &operator=(Served &&other) noexcept;
    Served(const Served &) = delete;
    Served &operator=(const Served &) = delete;
    ~Served();

    /// The root URL as text ("http://127.0.0.1:PORT/"), as a client is given it.
    QString url() const { return base.toString(); }
    /// Ends the server: terminated, killed if it is still there after 10 s.
    void stop();
};

/// Starts `dreamrsi serve PROJECT --listen 127.0.0.1:PORT --poll-ms 100`
/// with `extra` (the token files, limits, TLS) and reads the URL it prints,
/// within 20 s. `port` 0: any free port.
Served serve(const QString &project, const QStringList &extra, quint16 port = 0);

} // namespace dreamrsi::test
