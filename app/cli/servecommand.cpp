// `dreamrsi serve`: one project served over HTTP to other machines
// (docs/remote.md): read-only by default, steering with a second token.
#include "commands.h"

#include "commandline.h"
#include "projectserver.h"

#include "remote/remoteaccess.h"
#include "store/projectreader.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QFileInfo>
#include <QTimer>

#include <atomic>
#include <csignal>

namespace dreamrsi {

namespace {

const char *const serveUsage =
    "usage: dreamrsi serve P.dreamrsi [--listen ADDR:PORT] [--token-file F] [--steering-token-file F2]\n"
    "                      [--tls-cert C --tls-key K] [--max-clients N] [--poll-ms MS]\n"
    "\n"
    "Serves the project over HTTP (docs/remote.md) so that another machine watches its\n"
    "rounds: the workbench's File > Connect to Server..., `dreamrsi status|export|path URL`,\n"
    "`dreamrsi plot compare --project URL`, or any HTTP client. It only reads the project (it never takes the\n"
    "writer's lock), so it runs beside `dreamrsi round`, `loop` or a workbench that writes\n"
    "it, and keeps serving across rounds, resumes and the writer's death.\n"
    "\n"
    "  --listen ADDR:PORT  where to listen (default 127.0.0.1:8765; PORT alone: on\n"
    "                      127.0.0.1; port 0: any free port). Without TLS only a loopback\n"
    "                      address is taken: forward the port with ssh -L instead\n"
    "  --token-file F      the token every request must carry (Authorization: Bearer\n"
    "                      TOKEN), on the file's first line, at least 16 characters. Without\n"
    "                      it a 256-bit token is made and printed once, with the URL\n"
    "  --steering-token-file F2\n"
    "                      a second token, for POST /api/v1/steer and /api/v1/approve\n"
    "                      (recorded with the client's name and \"via serve\"); without it\n"
    "                      they answer 403\n"
    "  --tls-cert C --tls-key K\n"
    "                      serve HTTPS with this PEM certificate (chain) and unencrypted\n"
    "                      PEM key; then any address may be listened on\n"
    "  --max-clients N     connections at once, streams included (default 32, 1..1024)\n"
    "  --poll-ms MS        how often the event stream looks at the project (default 200,\n"
    "                      20..5000)\n"
    "\n"
    "Runs until SIGINT or SIGTERM. No token is printed after the start, nor written\n"
    "anywhere. Exit 0 when stopped, 1 when the project cannot be read or the address\n"
    "cannot be listened on, 2 bad usage (a non-loopback address without TLS included).\n";

int serveUsageError(QTextStream &err, const QString &message)
{
    err << "dreamrsi serve: " << message << "\n\n" << serveUsage;
    return 2;
}

std::atomic<bool> stopRequested{false};

void onServeSignal(int)
{
    stopRequested = true;
}

} // namespace

int runServeCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const QCommandLineOption listenOption = CommandLine::value("listen", "ADDR:PORT");
    const QCommandLineOption tokenOption = CommandLine::value("token-file", "F");
    const QCommandLineOption steeringOption = CommandLine::value("steering-token-file", "F2");
    const QCommandLineOption certOption = CommandLine::value("tls-cert", "C");
    const QCommandLineOption keyOption = CommandLine::value("tls-key", "K");
    const QCommandLineOption clientsOption = CommandLine::value("max-clients", "N");
    const QCommandLineOption pollOption = CommandLine::value("poll-ms", "MS");
    QCommandLineParser parser;
    if (const auto rc = CommandLine::parseOrAnswer(
            parser, {listenOption, tokenOption, steeringOption, certOption, keyOption, clientsOption, pollOption}, args,
            serveUsage, out, [&err](const QString &why) { return serveUsageError(err, why); }))
        return *rc;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return serveUsageError(err, positional.isEmpty() ? QStringLiteral("the project is missing")
                                                    : QStringLiteral("one project, not %1").arg(positional.size()));
    for (const QCommandLineOption &o : {listenOption, tokenOption, steeringOption, certOption, keyOption, clientsOption, pollOption}) {
        if (parser.values(o).size() > 1)
            return serveUsageError(err, QStringLiteral("--%1 given more than once").arg(o.names().first()));
    }

    ServeOptions options;
    options.projectPath = QFileInfo(positional.first()).absoluteFilePath();
    const Result<RemoteAccess::ListenAddress> listen = RemoteAccess::parseListen(
        parser.isSet(listenOption) ? parser.value(listenOption) : QStringLiteral("127.0.0.1:%1").arg(RemoteAccess::DefaultPort));
    if (!listen)
        return serveUsageError(err, listen.error);
    options.listen = *listen.value;
    if (parser.isSet(certOption) != parser.isSet(keyOption))
        return serveUsageError(err, QStringLiteral("--tls-cert and --tls-key go together"));
    options.tlsCert = parser.value(certOption);
    options.tlsKey = parser.value(keyOption);
    if (const QString why = RemoteAccess::whyNotListen(options.listen, !options.tlsCert.isEmpty()); !why.isEmpty()) {
        err << "dreamrsi serve: " << why << '\n';
        return 2;
    }
    if (parser.isSet(clientsOption)) {
        bool ok = false;
        options.maxClients = parser.value(clientsOption).toInt(&ok);
        if (!ok || options.maxClients < 1 || options.maxClients > 1024)
            return serveUsageError(err, QStringLiteral("--max-clients must be a number from 1 to 1024, not '%1'").arg(parser.value(clientsOption)));
    }
    if (parser.isSet(pollOption)) {
        bool ok = false;
        options.pollMs = parser.value(pollOption).toInt(&ok);
        if (!ok || options.pollMs < 20 || options.pollMs > 5000)
            return serveUsageError(err, QStringLiteral("--poll-ms must be a number from 20 to 5000, not '%1'").arg(parser.value(pollOption)));
    }

    const bool generated = !parser.isSet(tokenOption);
    if (generated) {
        options.readToken = RemoteAccess::generateToken();
    } else {
        const Result<QByteArray> token = RemoteAccess::readTokenFile(parser.value(tokenOption), QStringLiteral("--token-file"));
        if (!token)
            return serveUsageError(err, token.error);
        options.readToken = *token.value;
    }
    if (parser.isSet(steeringOption)) {
        const Result<QByteArray> token =
            RemoteAccess::readTokenFile(parser.value(steeringOption), QStringLiteral("--steering-token-file"));
        if (!token)
            return serveUsageError(err, token.error);
        if (RemoteAccess::sameToken(*token.value, options.readToken))
            return serveUsageError(err, QStringLiteral("the steering token is the read token; give each its own, or a reader could steer"));
        options.steeringToken = *token.value;
    }

    // The project must be one, and readable, before anything is listened on.
    {
        const StoreResult<std::unique_ptr<ProjectReader>> reader = ProjectReader::open(options.projectPath);
        if (!reader)
            return CommandLine::runtimeError(err, reader.error);
    }

    ProjectServer server(options);
    QObject::connect(&server, &ProjectServer::logLine, &server, [&err](const QString &line) {
        err << "dreamrsi serve: " << line << '\n';
        err.flush();
    });
    const Result<quint16> port = server.start();
    if (!port)
        return CommandLine::runtimeError(err, port.error);
    const QString url = server.url().toString();
    out << "serving " << QFileInfo(options.projectPath).fileName() << " (read-only) at " << url << '\n';
    if (generated)
        out << "token: " << QString::fromLatin1(options.readToken)
            << "\n  (shown this once: keep it in a file readable only by you and pass it with --token-file)\n";
    else
        out << "token: the one in " << parser.value(tokenOption) << '\n';
    out << "steering: "
        << (options.steeringToken.isEmpty() ? QStringLiteral("off (start with --steering-token-file F2 to allow steer and approve)")
                                            : QStringLiteral("on, with the token in %1").arg(parser.value(steeringOption)))
        << '\n';
    if (options.tlsCert.isEmpty())
        out << "from another machine: " << RemoteAccess::sshForwardLine(*port.value) << "\n  then connect to http://127.0.0.1:"
            << *port.value << "/\n";
    out.flush();

    auto previousInt = std::signal(SIGINT, onServeSignal);
    auto previousTerm = std::signal(SIGTERM, onServeSignal);
    QEventLoop loop;
    QTimer watch;
    QObject::connect(&watch, &QTimer::timeout, &loop, [&loop] {
        if (stopRequested)
            loop.quit();
    });
    watch.start(100);
    loop.exec();
    std::signal(SIGINT, previousInt);
    std::signal(SIGTERM, previousTerm);
    err << "dreamrsi serve: stopped\n";
    return 0;
}

} // namespace dreamrsi
