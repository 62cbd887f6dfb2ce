#pragma once

#include "base/result.h"

#include <QByteArray>
#include <QHostAddress>
#include <QString>

namespace dreamrsi {

/// Who may read a served project and where a server may listen
/// (docs/remote.md#access): bearer tokens, compared in constant time, and
/// the rule that a server without TLS listens on loopback only.
namespace RemoteAccess {

/// The least length of a token read from a file.
inline constexpr int MinTokenLength = 16;

/// 256 random bits from the system's generator, as 43 characters of
/// base64url without padding: the token a server makes when given none.
QByteArray generateToken();

/// The token kept in `path` (its first line, spaces trimmed). A failure
/// naming the file and `what` ("--token-file") when it cannot be read, is
/// empty, holds a space or a character outside printable ASCII, or is
/// shorter than MinTokenLength characters. The token itself is never part
/// of a message.
Result<QByteArray> readTokenFile(const QString &path, const QString &what);

/// True when `given` is `expected`, in time that does not depend on where
/// they differ (their SHA-256 digests are compared byte for byte, every
/// byte, so their lengths do not show either). An empty `expected` matches
/// nothing.
bool sameToken(const QByteArray &given, const QByteArray &expected);

/// The token of an `Authorization: Bearer TOKEN` header's value; empty
/// when the value is not of that form.
QByteArray bearerOf(const QByteArray &authorization);

/// Where a server listens.
struct ListenAddress
{
    QHostAddress address;
    quint16 port = 0;       ///< 0: a free port the system picks
    QString text;           ///< as given, for messages
};

/// The default: 127.0.0.1, port 8765.
inline constexpr quint16 DefaultPort = 8765;

/// "ADDR:PORT", "[V6ADDR]:PORT", "localhost:PORT" or "PORT" (on 127.0.0.1).
/// A failure saying what is wrong otherwise (a host name other than
/// localhost is refused: the server listens on an address, not a name).
Result<ListenAddress> parseListen(const QString &text);

/// The line a person on another machine runs to reach a loopback server
/// through SSH: `ssh -N -L PORT:127.0.0.1:PORT USER@HOST`.
QString sshForwardLine(quint16 port);

/// Empty when the server may listen on `listen`: any address with TLS, a
/// loopback address without. Else why not, with the `ssh -L` line to use instead.
QString whyNotListen(const ListenAddress &listen, bool tls);

} // namespace RemoteAccess

} // namespace dreamrsi
