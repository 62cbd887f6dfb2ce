#include "explorationprompt.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMap>

#include <algorithm>

namespace dreamrsi {

namespace {

const QLatin1String kUserMarker("<!-- user -->");

QString formatScore(double score)
{
    return QString::number(score, 'g', 10);
}

QString verdict(const AttemptRecord &r)
{
    if (r.score)
        return QStringLiteral("score %1").arg(formatScore(*r.score));
    return QStringLiteral("failed (%1)").arg(r.failClass.isEmpty() ? QStringLiteral("unknown") : r.failClass);
}

QString firstLine(const QString &text)
{
    const QStringList lines = text.split(u'\n');
    for (const QString &line : lines) {
        QString l = line.trimmed();
        while (l.startsWith(u'#'))
            l.remove(0, 1);
        l = l.trimmed();
        if (l.isEmpty())
            continue;
        if (l.size() > 140)
            l = l.left(139) + u'…';
        return l;
    }
    return QStringLiteral("(no proposal)");
}

QString clipped(const QString &text, int limit)
{
    if (text.size() <= limit)
        return text;
    return text.left(limit) + QStringLiteral("\n… (%1 more characters not shown)").arg(text.size() - limit);
}

QString fullEntry(const AttemptRecord &r, int proposalLimit)
{
    QString s = QStringLiteral("## %1 · iteration %2 · branch %3 · attempt %4 · %5\n\n")
                    .arg(r.cellId)
                    .arg(r.iteration)
                    .arg(r.branch)
                    .arg(r.attempt)
                    .arg(verdict(r));
    if (!r.error.trimmed().isEmpty())
        s += QStringLiteral("Error:\n\n~~~~\n%1\n~~~~\n\n").arg(clipped(r.error.trimmed(), 2000));
    s += QStringLiteral("Proposal:\n\n%1\n\n")
             .arg(r.proposal.trimmed().isEmpty() ? QStringLiteral("(no proposal)") : clipped(r.proposal.trimmed(), proposalLimit));
    return s;
}

QString summaryLine(const AttemptRecord &r)
{
    return QStringLiteral("- %1 (iteration %2): %3: %4\n").arg(r.cellId).arg(r.iteration).arg(verdict(r), firstLine(r.proposal));
}

QString countBlock(const QList<AttemptRecord> &records)
{
    int scored = 0;
    std::optional<double> best;
    QString bestId;
    QMap<QString, int> failures;
    for (const AttemptRecord &r : records) {
        if (r.score) {
            ++scored;
            if (!best || *r.score > *best) {
                best = r.score;
                bestId = r.cellId;
            }
        } else {
            ++failures[r.failClass.isEmpty() ? QStringLiteral("unknown") : r.failClass];
        }
    }
    QString s = QStringLiteral("The %1 oldest attempts are only counted: %2 scored").arg(records.size()).arg(scored);
    if (best)
        s += QStringLiteral(" (best %1, %2)").arg(formatScore(*best), bestId);
    int failed = 0;
    QStringList classes;
    for (auto it = failures.cbegin(); it != failures.cend(); ++it) {
        failed += it.value();
        classes.append(QStringLiteral("%1 × %2").arg(it.key()).arg(it.value()));
    }
    s += QStringLiteral(", %1 failed").arg(failed);
    if (!classes.isEmpty())
        s += QStringLiteral(" (%1)").arg(classes.join(QStringLiteral(", ")));
    return s + QStringLiteral(".\n");
}

QString languageOf(const QString &fileName)
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    static const QHash<QString, QString> languages{
        {QStringLiteral("py"), QStringLiteral("python")}, {QStringLiteral("cpp"), QStringLiteral("cpp")},
        {QStringLiteral("cc"), QStringLiteral("cpp")},    {QStringLiteral("c"), QStringLiteral("c")},
        {QStringLiteral("cu"), QStringLiteral("cuda")},   {QStringLiteral("js"), QStringLiteral("javascript")},
        {QStringLiteral("rs"), QStringLiteral("rust")},   {QStringLiteral("jl"), QStringLiteral("julia")}};
    return languages.value(suffix);
}

/// A fence longer than any backtick run inside `text`.
QString fenceFor(const QString &text)
{
    int longest = 0;
    int run = 0;
    for (QChar c : text) {
        run = c == u'`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return QString(std::max(3, longest + 1), u'`');
}

QString substitute(const QString &text, const QHash<QString, QString> &values)
{
    QString out;
    out.reserve(text.size() * 2);
    qsizetype pos = 0;
    while (pos < text.size()) {
        const qsizetype open = text.indexOf(QLatin1String("{{"), pos);
        if (open < 0) {
            out += QStringView(text).mid(pos);
            break;
        }
        const qsizetype close = text.indexOf(QLatin1String("}}"), open + 2);
        if (close < 0) {
            out += QStringView(text).mid(pos);
            break;
        }
        const QString name = text.mid(open + 2, close - open - 2).trimmed();
        out += QStringView(text).mid(pos, open - pos);
        auto it = values.constFind(name);
        if (it != values.cend())
            out += *it;
        else
            out += QStringView(text).mid(open, close + 2 - open);
        pos = close + 2;
    }
    return out;
}

/// Collapses the runs of blank lines a removed optional section leaves.
QString tidy(QString text)
{
    while (text.contains(QLatin1String("\n\n\n\n")))
        text.replace(QLatin1String("\n\n\n\n"), QLatin1String("\n\n\n"));
    return text.trimmed() + u'\n';
}

} // namespace

ExplorationPrompt::ExplorationPrompt(QString templateText)
    : m_template(std::move(templateText))
{
}

QString ExplorationPrompt::bundledTemplate()
{
    QFile file(QStringLiteral(":/prompts/exploration.md"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("the bundled exploration prompt :/prompts/exploration.md is missing from this build");
    return QString::fromUtf8(file.readAll());
}

Result<ExplorationPrompt> ExplorationPrompt::load(const AgentConfig &config)
{
    QString path = config.promptFile.trimmed();
    QString origin = QStringLiteral("the prompt file");
    if (path.isEmpty()) {
        path = qEnvironmentVariable("DREAMRSI_EXPLORATION_PROMPT").trimmed();
        origin = QStringLiteral("DREAMRSI_EXPLORATION_PROMPT");
    }
    if (path.isEmpty())
        return Result<ExplorationPrompt>::success(ExplorationPrompt(bundledTemplate()));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Result<ExplorationPrompt>::failure(
            QStringLiteral("cannot read the exploration prompt %1 (from %2): %3").arg(path, origin, file.errorString()));
    const QString text = QString::fromUtf8(file.readAll());
    if (text.trimmed().isEmpty())
        return Result<ExplorationPrompt>::failure(QStringLiteral("the exploration prompt %1 (from %2) is empty").arg(path, origin));
    ExplorationPrompt prompt(text);
    prompt.m_source = QFileInfo(path).absoluteFilePath();
    return Result<ExplorationPrompt>::success(std::move(prompt));
}

ExplorationPrompt::History ExplorationPrompt::renderHistory(const QList<AttemptRecord> &history, int budgetChars)
{
    History h;
    const int n = int(history.size());
    if (n == 0) {
        h.note = QStringLiteral("There are no earlier attempts yet: yours is the first.");
        return h;
    }
    const int budget = std::max(budgetChars, 1000);
    QStringList lines;
    qsizetype allLines = 0;
    for (const AttemptRecord &r : history) {
        lines.append(summaryLine(r));
        allLines += lines.last().size();
    }
    // Newest first in full, leaving up to 30% of the budget for one-liners of the rest.
    const qsizetype fullBudget = budget - std::min<qsizetype>(allLines, budget * 3 / 10);
    const int proposalLimit = std::max(2000, budget / 4);
    QStringList full;
    qsizetype used = 0;
    int firstFull = n;
    for (int i = n - 1; i >= 0; --i) {
        const QString entry = fullEntry(history.at(i), proposalLimit);
        if (used + entry.size() > fullBudget && firstFull < n)
            break;
        // The newest attempt is always shown in full, clipped to the budget if it must be.
        full.prepend(used + entry.size() > fullBudget ? clipped(entry, int(std::max<qsizetype>(fullBudget, 500))) : entry);
        used += full.first().size();
        firstFull = i;
    }
    // One line each for the older ones, newest of them first, while they fit.
    int firstLine = firstFull;
    QStringList summary;
    const qsizetype countReserve = 200;
    for (int i = firstFull - 1; i >= 0; --i) {
        if (used + lines.at(i).size() + countReserve > budget)
            break;
        summary.prepend(lines.at(i));
        used += lines.at(i).size();
        firstLine = i;
    }
    h.full = n - firstFull;
    h.summarised = firstFull - firstLine;
    h.counted = firstLine;

    std::optional<double> best;
    QString bestId;
    for (const AttemptRecord &r : history)
        if (r.score && (!best || *r.score > *best)) {
            best = r.score;
            bestId = r.cellId;
        }
    QString note = QStringLiteral("There are %1 earlier attempts, oldest first below. ").arg(n);
    if (h.summarised == 0 && h.counted == 0) {
        note = n == 1 ? QStringLiteral("There is 1 earlier attempt, shown in full below.")
                      : QStringLiteral("There are %1 earlier attempts, all shown in full below (oldest first).").arg(n);
    } else {
        note += QStringLiteral("To fit the prompt, only the newest %1 are shown in full (result, error, proposal)").arg(h.full);
        if (h.summarised > 0)
            note += QStringLiteral("; the %1 before them (%2 to %3) are summarised in one line each: id, result and "
                                   "the first line of the proposal")
                        .arg(h.summarised)
                        .arg(history.at(firstLine).cellId, history.at(firstFull - 1).cellId);
        if (h.counted > 0)
            note += QStringLiteral("; the %1 oldest (%2 to %3) are only counted")
                        .arg(h.counted)
                        .arg(history.first().cellId, history.at(firstLine - 1).cellId);
        note += QStringLiteral(". Weigh the summarised attempts too: they were measured just the same.");
    }
    if (best)
        note += QStringLiteral("\nBest measured score so far: %1 (%2).").arg(formatScore(*best), bestId);
    else
        note += QStringLiteral("\nNo earlier attempt has a measured score yet.");
    h.note = note;

    QString text;
    if (h.counted > 0)
        text += countBlock(history.mid(0, h.counted)) + u'\n';
    if (h.summarised > 0)
        text += QStringLiteral("Summarised attempts:\n\n") + summary.join(QString()) + u'\n';
    text += full.join(QString());
    h.text = text;
    return h;
}

ChatRequest ExplorationPrompt::build(const AttemptContext &context, Mode mode, int budgetChars, History *historyOut) const
{
    QHash<QString, QString> v;
    const QString programFile = context.programFileName.isEmpty() ? QStringLiteral("main.py") : context.programFileName;
    v.insert(QStringLiteral("task"), context.task);
    v.insert(QStringLiteral("task_statement"), context.taskStatement.trimmed().isEmpty()
                                                   ? QStringLiteral("(no problem statement was given)")
                                                   : context.taskStatement.trimmed());
    v.insert(QStringLiteral("attempt_id"), context.cellId);
    v.insert(QStringLiteral("iteration"), QString::number(context.iteration));
    v.insert(QStringLiteral("branch"), QString::number(context.branch));
    v.insert(QStringLiteral("attempt"), QString::number(context.attempt));
    v.insert(QStringLiteral("program_file"), programFile);
    v.insert(QStringLiteral("baseline_score"),
             context.baselineScore ? formatScore(*context.baselineScore) : QStringLiteral("not measured"));

    QString hint = context.directionHint.trimmed();
    if (hint.startsWith(QLatin1String("direction:")))
        hint = hint.mid(10).trimmed();
    v.insert(QStringLiteral("direction"),
             hint.isEmpty() ? QString()
                            : QStringLiteral("## Direction for this branch\n\nThis branch is asked to explore the "
                                             "direction \"%1\"%2. Let it steer your choice wherever the history "
                                             "leaves room for it.")
                                  .arg(hint, context.directionDetail.trimmed().isEmpty()
                                                 ? QString()
                                                 : QStringLiteral(" (%1)").arg(context.directionDetail.trimmed())));
    if (const QString researcher = context.researcherHint.trimmed(); !researcher.isEmpty()) {
        QString &direction = v[QStringLiteral("direction")];
        if (!direction.isEmpty())
            direction += QStringLiteral("\n\n");
        direction += QStringLiteral("## A hint from the researcher\n\nThe researcher following this search asks you to "
                                    "take this into account for this attempt:\n\n%1")
                         .arg(researcher);
    }
    if (mode == Mode::Chat) {
        v.insert(QStringLiteral("output_instructions"),
                 QStringLiteral("Answer in Markdown, in two parts. First the proposal: the mechanism, the evidence "
                                "from the history that supports it, why it is not a repeat of an earlier attempt, "
                                "and the gain and risk you expect. Then the complete new `%1` as one fenced code "
                                "block at the very end of your answer. Only the last fenced code block of the answer "
                                "is taken as the program, so write the whole file there (no diff, no excerpt) and "
                                "put no other code block after it.")
                     .arg(programFile));
        v.insert(QStringLiteral("files"), QString());
    } else {
        v.insert(QStringLiteral("output_instructions"),
                 QStringLiteral("Write exactly two files in your workspace (the current directory): `proposal.md` "
                                "(the mechanism, the evidence from the history that supports it, why it is not a "
                                "repeat of an earlier attempt, and the gain and risk you expect) and `%1` (the "
                                "complete new program). Everything outside your workspace is read-only.")
                     .arg(programFile));
        QStringList files;
        if (!context.workspaceDir.isEmpty()) {
            files.append(QStringLiteral("Your workspace (the current directory): `%1`.").arg(context.workspaceDir));
            files.append(QStringLiteral("Earlier attempts of this iteration, each with proposal.md, the program, "
                                        "eval/score.json and error.txt when it failed: the folders next to yours in `%1`.")
                             .arg(QDir(context.workspaceDir).absoluteFilePath(QStringLiteral(".."))));
        }
        if (!context.parentWorkspaceDir.isEmpty())
            files.append(QStringLiteral("Your parent's workspace: `%1`.").arg(context.parentWorkspaceDir));
        if (!context.baselineDir.isEmpty())
            files.append(QStringLiteral("The task's initial program: `%1`.").arg(context.baselineDir));
        v.insert(QStringLiteral("files"), files.isEmpty() ? QString() : u'\n' + files.join(u'\n'));
    }

    QString parent;
    if (context.attempt == 0 || context.parentProposal.trimmed().isEmpty()) {
        parent = QStringLiteral("This is the first attempt of its branch: it starts from the task's initial program.\n\n");
    } else {
        parent = QStringLiteral("Your parent attempt's result: %1.\n\n")
                     .arg(context.parentScore ? QStringLiteral("score %1").arg(formatScore(*context.parentScore))
                                              : QStringLiteral("failed"));
        if (!context.parentError.trimmed().isEmpty())
            parent += QStringLiteral("Its error:\n\n~~~~\n%1\n~~~~\n\n").arg(clipped(context.parentError.trimmed(), 4000));
        parent += QStringLiteral("Its proposal:\n\n%1\n\n").arg(context.parentProposal.trimmed());
    }
    const QString fence = fenceFor(context.parentProgram);
    parent += QStringLiteral("Its program, `%1`:\n\n%2%3\n%4%5%2\n")
                  .arg(programFile, fence, languageOf(programFile), context.parentProgram,
                       context.parentProgram.endsWith(u'\n') ? QString() : QStringLiteral("\n"));
    v.insert(QStringLiteral("parent"), parent);

    // Everything but the history first, to learn what the history may take.
    v.insert(QStringLiteral("history"), QString());
    v.insert(QStringLiteral("history_note"), QString());
    const qsizetype fixedSize = substitute(m_template, v).size();
    const int historyBudget = int(std::max<qsizetype>(budgetChars - fixedSize, std::max(4000, budgetChars / 10)));
    const History history = renderHistory(context.history, historyBudget);
    v.insert(QStringLiteral("history"), history.text);
    v.insert(QStringLiteral("history_note"), history.note);
    if (historyOut)
        *historyOut = history;

    const qsizetype marker = m_template.indexOf(kUserMarker);
    ChatRequest request;
    if (marker < 0) {
        request.user = tidy(substitute(m_template, v));
    } else {
        request.system = tidy(substitute(m_template.left(marker), v));
        request.user = tidy(substitute(m_template.mid(marker + kUserMarker.size()), v));
    }
    return request;
}

QString ExplorationPrompt::joined(const ChatRequest &request)
{
    if (request.system.isEmpty())
        return request.user;
    return request.system + u'\n' + request.user;
}

} // namespace dreamrsi
