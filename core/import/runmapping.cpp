#include "runmapping.h"

#include <QHash>
#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace dreamrsi::RunImport::detail {

namespace {

/// Where a program's parent leads once copies are seen through (rule 1).
struct Parent
{
    enum Kind { None, Missing, Program } kind = None;
    int index = -1; ///< the program, when kind == Program
};

QString describe(const RunProgram &p)
{
    return QStringLiteral("%1: program \"%2\"").arg(p.file, p.id);
}

} // namespace

std::optional<double> finiteNumber(const QJsonValue &v)
{
    if (!v.isDouble())
        return std::nullopt;
    const double d = v.toDouble();
    if (!std::isfinite(d))
        return std::nullopt;
    return d;
}

QByteArray withoutNonFiniteWords(const QByteArray &json)
{
    // Fast path: none of the words' first letters outside strings is rare to
    // check for, so look for the words at all first.
    if (!json.contains("NaN") && !json.contains("Infinity"))
        return json;
    QByteArray out;
    out.reserve(json.size());
    bool inString = false;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json.at(i);
        if (inString) {
            out.append(c);
            if (c == '\\' && i + 1 < json.size()) {
                out.append(json.at(++i));
            } else if (c == '"') {
                inString = false;
            }
            continue;
        }
        if (c == '"') {
            inString = true;
            out.append(c);
            continue;
        }
        const QByteArrayView rest = QByteArrayView(json).sliced(i);
        if (rest.startsWith("NaN")) {
            out.append("null");
            i += 2;
        } else if (rest.startsWith("Infinity")) {
            out.append("null");
            i += 7;
        } else if (rest.startsWith("-Infinity")) {
            out.append("null");
            i += 8;
        } else {
            out.append(c);
        }
    }
    return out;
}

namespace {

using Failure = std::optional<QString>;

/// The programs by id; fails on a program without an id or an id twice.
Failure indexIds(const QList<RunProgram> &programs, QHash<QString, int> &byId)
{
    const qsizetype n = programs.size();
    byId.reserve(n);
    for (int i = 0; i < int(n); ++i) {
        const RunProgram &p = programs.at(i);
        if (p.id.isEmpty())
            return QStringLiteral("%1: a program has no id").arg(p.file);
        const auto seen = byId.constFind(p.id);
        if (seen != byId.constEnd()) {
            const RunProgram &first = programs.at(*seen);
            return first.file == p.file ? QStringLiteral("%1: program id \"%2\" appears twice").arg(p.file, p.id)
                                        : QStringLiteral("%1: program id \"%2\" appears twice (also in %3)")
                                              .arg(p.file, p.id, first.file);
        }
        byId.insert(p.id, i);
    }
    return std::nullopt;
}

/// Rule 1: a copy stands for the program it copies, through chains of copies.
/// Counts the copies; fails on a cycle of copies or a program its own parent.
Failure resolveParents(const QList<RunProgram> &programs, const QHash<QString, int> &byId, QList<Parent> &parentOf,
                       qint64 &copies)
{
    const qsizetype n = programs.size();
    parentOf = QList<Parent>(n);
    for (int i = 0; i < int(n); ++i) {
        const RunProgram &p = programs.at(i);
        if (p.isCopy) {
            ++copies;
            continue;
        }
        if (!p.parentId)
            continue;
        std::optional<QString> next = p.parentId;
        QSet<int> through; // copies passed, to stop on a cycle of copies
        Parent resolved{Parent::Missing, -1};
        while (next) {
            const int at = byId.value(*next, -1);
            if (at < 0)
                break;
            if (!programs.at(at).isCopy) {
                resolved = Parent{Parent::Program, at};
                break;
            }
            if (through.contains(at))
                return QStringLiteral("%1: a cycle of copies through \"%2\"").arg(describe(p), programs.at(at).id);
            through.insert(at);
            next = programs.at(at).copyOf;
        }
        if (resolved.kind == Parent::Program && resolved.index == i)
            return QStringLiteral("%1: a cycle of parents: it is its own parent").arg(describe(p));
        parentOf[i] = resolved;
    }
    return std::nullopt;
}

/// The failure for programs left unordered: they hang from a cycle of
/// parents; walk up from the first of them to it.
QString cycleOfParents(const QList<RunProgram> &programs, const QList<Parent> &parentOf, const QList<int> &sorted,
                       const QList<bool> &emitted)
{
    int at = -1;
    for (const int i : std::as_const(sorted)) {
        if (!emitted.at(i)) {
            at = i;
            break;
        }
    }
    QSet<int> seen;
    while (!seen.contains(at)) {
        seen.insert(at);
        at = parentOf.at(at).index;
    }
    QStringList cycle{programs.at(at).id};
    for (int j = parentOf.at(at).index; j != at; j = parentOf.at(j).index)
        cycle.append(programs.at(j).id);
    cycle.append(programs.at(at).id);
    return QStringLiteral("%1: a cycle of parents: %2")
        .arg(describe(programs.at(at)), cycle.join(QStringLiteral(" -> ")));
}

/// Rule 2: creation order by timestamp, then id bytes; a child stamped
/// before its parent comes right after its parent. Fails on a cycle of parents.
Failure creationOrder(const QList<RunProgram> &programs, const QList<Parent> &parentOf, QList<int> &order)
{
    const qsizetype n = programs.size();
    QList<int> sorted;
    sorted.reserve(n);
    QList<QByteArray> idBytes(n);
    for (int i = 0; i < int(n); ++i) {
        if (!programs.at(i).isCopy) {
            sorted.append(i);
            idBytes[i] = programs.at(i).id.toUtf8();
        }
    }
    std::sort(sorted.begin(), sorted.end(), [&](int a, int b) {
        const double ta = programs.at(a).timestamp, tb = programs.at(b).timestamp;
        if (ta != tb)
            return ta < tb;
        return idBytes.at(a) < idBytes.at(b);
    });
    QList<bool> emitted(n, false);
    QHash<int, QList<int>> waiting; // parent -> children stamped before it, in order
    order.reserve(sorted.size());
    const auto emitFrom = [&](int first) {
        QList<int> stack{first};
        while (!stack.isEmpty()) {
            const int i = stack.takeLast();
            emitted[i] = true;
            order.append(i);
            const QList<int> children = waiting.take(i);
            for (auto it = children.crbegin(); it != children.crend(); ++it)
                stack.append(*it);
        }
    };
    for (const int i : std::as_const(sorted)) {
        const Parent &parent = parentOf.at(i);
        if (parent.kind == Parent::Program && !emitted.at(parent.index))
            waiting[parent.index].append(i);
        else
            emitFrom(i);
    }
    if (order.size() != sorted.size())
        return cycleOfParents(programs, parentOf, sorted, emitted);
    return std::nullopt;
}

/// Rule 4's cells, with the forks and orphans the placing made.
struct Placed
{
    QList<Cell> cells;
    qint64 forks = 0;
    qint64 orphans = 0;
};

/// Rule 4: every program but the initial one is a cell, in creation order.
/// Moves the programs' payloads into the cells.
Placed placeCells(QList<RunProgram> &programs, const QList<Parent> &parentOf, const QList<int> &order, int initial)
{
    struct Place
    {
        int branch = -1;
        int attempt = -1;
        bool continued = false; ///< its branch already goes on after it
    };
    QList<Place> place(programs.size());
    Placed placed;
    QList<Cell> &cells = placed.cells;
    cells.reserve(order.size());
    int nextBranch = 0;
    for (const int i : std::as_const(order)) {
        if (i == initial)
            continue;
        RunProgram &p = programs[i];
        const Parent &parent = parentOf.at(i);
        Cell c;
        if (parent.kind == Parent::Program && parent.index == initial) {
            c.branch = nextBranch++;
            c.attempt = 0;
        } else if (parent.kind == Parent::Program) {
            Place &from = place[parent.index];
            if (!from.continued) {
                from.continued = true;
                c.branch = from.branch;
                c.attempt = from.attempt + 1;
            } else {
                c.branch = nextBranch++;
                c.attempt = 0;
                ++placed.forks;
                p.payload.insert(key("forked_from"),
                                 QStringLiteral("b%1a%2").arg(from.branch).arg(from.attempt));
            }
        } else {
            c.branch = nextBranch++;
            c.attempt = 0;
            ++placed.orphans;
            p.payload.insert(key("orphan"), true);
        }
        // The stored parent was a copy: the origin also names the program it
        // stands for (docs/tree-format.md#imported-runs).
        if (parent.kind == Parent::Program && programs.at(parent.index).id != p.parentId.value_or(QString())) {
            QJsonObject origin = p.payload.value(key("origin")).toObject();
            origin.insert(key("real_parent_id"), programs.at(parent.index).id);
            p.payload.insert(key("origin"), origin);
        }
        place[i] = Place{c.branch, c.attempt, false};
        c.id = QStringLiteral("b%1a%2").arg(c.branch).arg(c.attempt);
        c.seq = cells.size();
        c.score = p.score;
        c.evaluated = p.evaluated;
        c.valid = p.valid;
        c.failClass = p.failClass;
        c.error = p.error;
        c.payload = std::move(p.payload);
        cells.append(std::move(c));
    }
    return placed;
}

/// Rule 7: the top level, from the initial program (if any) and the counts.
TreeMeta topLevel(const QList<RunProgram> &programs, int initial, Framework framework, const RunExtras &extras,
                  qint64 copies, const Placed &placed)
{
    const qsizetype n = programs.size();
    TreeMeta meta;
    meta.approximate = placed.forks + placed.orphans > 0;
    if (initial >= 0) {
        const RunProgram &p = programs.at(initial);
        if (p.failClass == QLatin1String(FailClass::Ok))
            meta.baselineScore = p.score;
        meta.payload.insert(key("initial_program"), p.code);
        if (const QJsonValue origin = p.payload.value(key("origin")); origin.isObject())
            meta.payload.insert(key("initial_origin"), origin);
    }
    QJsonObject from{{key("framework"), frameworkName(framework)},
                     {key("source"), extras.source},
                     {key("programs"), qint64(n)},
                     {key("copies_dropped"), copies},
                     {key("orphans"), placed.orphans},
                     {key("forks"), placed.forks},
                     {key("failed_proposals"), extras.failedProposals}};
    if (extras.snapshotIterations > 0) {
        from.insert(key("population_snapshot"),
                    QStringLiteral("%1 of %2 iterations").arg(n - copies).arg(extras.snapshotIterations));
    }
    meta.payload.insert(key("imported_from"), from);
    return meta;
}

} // namespace

Result<DiscoveryTree> buildTree(QList<RunProgram> programs, Framework framework, const RunExtras &extras)
{
    using Built = Result<DiscoveryTree>;

    QHash<QString, int> byId;
    if (const Failure failed = indexIds(programs, byId))
        return Built::failure(*failed);
    QList<Parent> parentOf;
    qint64 copies = 0;
    if (const Failure failed = resolveParents(programs, byId, parentOf, copies))
        return Built::failure(*failed);
    QList<int> order;
    if (const Failure failed = creationOrder(programs, parentOf, order))
        return Built::failure(*failed);

    // Rule 3: the initial program, the earliest without a parent.
    int initial = -1;
    for (const int i : std::as_const(order)) {
        if (!programs.at(i).parentId) {
            initial = i;
            break;
        }
    }

    Placed placed = placeCells(programs, parentOf, order, initial);
    TreeMeta meta = topLevel(programs, initial, framework, extras, copies, placed);
    TreeError error;
    std::optional<DiscoveryTree> tree = DiscoveryTree::build(std::move(meta), std::move(placed.cells), &error);
    if (!tree)
        return Built::failure(QStringLiteral("%1: %2").arg(extras.source, error.message));
    return Built::success(std::move(*tree));
}

} // namespace dreamrsi::RunImport::detail
