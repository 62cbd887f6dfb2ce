#pragma once

#include "base/result.h"
#include "store/storetypes.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QUrl>

#include <optional>
#include <utility>

namespace dreamrsi {

/// A project served by `dreamrsi serve` (docs/remote.md): where, and the
/// bearer token that reads it.
struct RemoteProject
{
    QUrl base;          ///< scheme, host and port, no path
    QByteArray token;   ///< never printed

    /// "HOST:PORT", for messages and titles.
    QString host() const;
};

/// Reads a served project from this process, blocking (a local event loop
/// turns while a request runs): `dreamrsi status|export URL`, the bench
/// and the tests.
namespace RemoteClient {

/// True when `text` is an http:// or https:// URL (what commands that take
/// a project take instead of a file).
bool isUrl(const QString &text);

/// The root of a served project's URL (http[s]://HOST:PORT[/]): scheme,
/// host and port, no path; a failure saying what is wrong with it (not a
/// URL, another scheme, a path, a token in it).
Result<QUrl> baseOf(const QString &url);

/// The served project at `url` (http[s]://HOST:PORT[/]) with the token kept
/// in `tokenFile` (RemoteAccess::readTokenFile). A failure saying what is
/// wrong with either.
Result<RemoteProject> open(const QString &url, const QString &tokenFile);

/// An answer: the HTTP status and the body.
struct Reply
{
    int status = 0;
    QByteArray body;
    QByteArray contentType;

    bool ok() const { return status >= 200 && status < 300; }
    /// The `error` of a JSON refusal, else the body's start.
    QString errorMessage() const;
};

/// One request (`path` from the root, "/api/v1/..."), with the bearer token.
/// A failure when no answer came (refused, unreachable, TLS, timeout);
/// any HTTP status is an answer.
Result<Reply> request(const RemoteProject &project, const QByteArray &method, const QString &path,
                      const QByteArray &body = {}, int timeoutMs = 30000);

/// GET `path`: the body of a 2xx answer; a failure naming the status and
/// the server's message otherwise.
Result<QByteArray> get(const RemoteProject &project, const QString &path, int timeoutMs = 30000);
/// GET `path` as a JSON object.
Result<QJsonObject> getJson(const RemoteProject &project, const QString &path, int timeoutMs = 30000);

/// The served project's iterations (those with ids in `iterations`, both
/// ends included, when given; all otherwise), each tree from
/// /api/v1/iterations/N/tree, written into a new project file in `dir`
/// named "NAME.dreamrsi" or "NAME [A-B].dreamrsi" (NAME: the project's name,
/// else the host), so whatever reads a project file reads it: `dreamrsi plot
/// compare --project URL` and the window's Progress and Compare tabs
/// (docs/remote.md). The iterations keep their rows, not their policy
/// versions (those stay on the server). Its path, or a failure (the file
/// is there already, a refusal, a tree that does not parse).
Result<QString> copyIterations(const RemoteProject &project, const QString &dir,
                               const std::optional<std::pair<IterationId, IterationId>> &iterations = std::nullopt);

} // namespace RemoteClient

} // namespace dreamrsi
