#include "scriptedpolicy.h"

#include "scriptwatchdog.h"

#include <QJSEngine>
#include <QJSValue>
#include <QHash>
#include <QVarLengthArray>

#include <algorithm>
#include <memory>
#include <optional>

namespace dreamrsi {

namespace {

// The runtime that stands between the engine and the policy. It lives in a
// closure: the policy's global scope cannot reach it. It installs the
// helpers, the seeded Math.random and the clock-less Date as globals and
// re-installs them at every episode start.
const char *const runtimeSource = R"JS((function (factory, G, lineShift) {
    "use strict";
    var ErrorType = Error, TypeErrorType = TypeError; // as they are before any policy code runs
    // An error of the runtime's own making: it carries no line, since a
    // line of this file would mean nothing to the policy's author.
    function fail(Type, message) {
        var e = new Type(message);
        e.lineNumber = 0;
        return e;
    }
    var rngState = 0;
    function random() {
        var x = rngState;
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        rngState = x | 0;
        return (x >>> 0) / 4294967296;
    }
    function noClock() { throw fail(ErrorType, "Date is not available to policies (no clock access)"); }
    noClock.now = noClock;
    noClock.parse = noClock;
    noClock.UTC = noClock;
    var helpers = {
        improvedVsParent: function (o) { return o !== null && typeof o === "object" && typeof o.deltaVsParent === "number" && o.deltaVsParent > 0; },
        improvedVsBaseline: function (o) { return o !== null && typeof o === "object" && typeof o.deltaVsBaseline === "number" && o.deltaVsBaseline > 0; },
        isSuccess: function (o) { return o !== null && typeof o === "object" && o.evaluated === true && o.error === null && o.failClass === "ok"; },
        failedHard: function (o) { return o !== null && typeof o === "object" && o.failClass === "env"; }
    };
    // Array.prototype.sort as ES2019 defines it: stable (equal elements keep
    // their order), undefined last, holes removed to the end. The engine's
    // own sort is not stable, so a policy that sorts with ties would pick
    // differently than under a current JavaScript engine.
    function mergeSort(a, lo, hi, cmp, tmp) {
        if (hi - lo <= 8) {
            for (var i = lo + 1; i < hi; ++i) {
                var v = a[i], j = i;
                while (j > lo && cmp(a[j - 1], v) > 0) {
                    a[j] = a[j - 1];
                    --j;
                }
                a[j] = v;
            }
            return;
        }
        var mid = (lo + hi) >>> 1;
        mergeSort(a, lo, mid, cmp, tmp);
        mergeSort(a, mid, hi, cmp, tmp);
        if (cmp(a[mid - 1], a[mid]) <= 0)
            return;
        for (var t = lo; t < mid; ++t)
            tmp[t] = a[t];
        var l = lo, r = mid, k = lo;
        while (l < mid && r < hi)
            a[k++] = cmp(a[r], tmp[l]) < 0 ? a[r++] : tmp[l++];
        while (l < mid)
            a[k++] = tmp[l++];
    }
    function stableSort(comparefn) {
        if (comparefn !== undefined && typeof comparefn !== "function")
            throw fail(TypeErrorType, "Array.prototype.sort: the comparison function must be a function or undefined");
        var obj = Object(this);
        var len = obj.length >>> 0;
        var values = [], undefs = 0;
        for (var i = 0; i < len; ++i) {
            if (i in obj) {
                var v = obj[i];
                if (v === undefined)
                    ++undefs;
                else
                    values.push(v);
            }
        }
        var n = values.length;
        if (comparefn !== undefined && n <= 8) {
            // Few values with a comparison function (the usual case): an
            // insertion sort that calls it directly, without a wrapper
            // (every call costs this interpreter dearly). NaN counts as 0.
            for (var s = 1; s < n; ++s) {
                var moving = values[s], at = s;
                while (at > 0 && +comparefn(values[at - 1], moving) > 0) {
                    values[at] = values[at - 1];
                    --at;
                }
                values[at] = moving;
            }
        } else {
            var cmp = comparefn === undefined
                ? function (x, y) { var a = String(x), b = String(y); return a < b ? -1 : (a > b ? 1 : 0); }
                : function (x, y) { var r = +comparefn(x, y); return r !== r ? 0 : r; };
            mergeSort(values, 0, n, cmp, []);
        }
        var k = 0;
        for (; k < values.length; ++k)
            obj[k] = values[k];
        for (var u = 0; u < undefs; ++u)
            obj[k++] = undefined;
        for (; k < len; ++k)
            delete obj[k];
        return obj;
    }
    function integer(x) { var n = Math.trunc(+x); return n === n ? n : 0; }
    function relativeAt(o, index) {
        var len = o.length >>> 0, rel = integer(index), k = rel >= 0 ? rel : len + rel;
        return k < 0 || k >= len ? undefined : o[k];
    }
    function flatten(target, source, depth) {
        for (var i = 0, n = source.length >>> 0; i < n; ++i) {
            if (!(i in source))
                continue;
            var v = source[i];
            if (depth > 0 && Array.isArray(v))
                flatten(target, v, depth - 1);
            else
                target.push(v);
        }
        return target;
    }
    function callable(f, what) {
        if (typeof f !== "function")
            throw fail(TypeErrorType, what + ": the callback must be a function");
    }
    function lastMatch(o, fn, thisArg, what) {
        callable(fn, what);
        for (var i = (o.length >>> 0) - 1; i >= 0; --i) {
            if (fn.call(thisArg, o[i], i, o))
                return i;
        }
        return -1;
    }
    // Built-ins of ES2019-2022 that this interpreter lacks, so that policies
    // written for a current engine run here too (BigInt cannot be added).
    var additions = [
        [Array.prototype, "sort", stableSort],
        [Array.prototype, "at", function (index) { return relativeAt(Object(this), index); }],
        [Array.prototype, "flat", function (depth) {
            return flatten([], Object(this), depth === undefined ? 1 : integer(depth));
        }],
        [Array.prototype, "flatMap", function (fn, thisArg) {
            callable(fn, "flatMap");
            var o = Object(this), out = [];
            for (var i = 0, n = o.length >>> 0; i < n; ++i) {
                if (!(i in o))
                    continue;
                var v = fn.call(thisArg, o[i], i, o);
                if (Array.isArray(v))
                    flatten(out, v, 0);
                else
                    out.push(v);
            }
            return out;
        }],
        [Array.prototype, "findLast", function (fn, thisArg) {
            var o = Object(this), i = lastMatch(o, fn, thisArg, "findLast");
            return i < 0 ? undefined : o[i];
        }],
        [Array.prototype, "findLastIndex", function (fn, thisArg) {
            return lastMatch(Object(this), fn, thisArg, "findLastIndex");
        }],
        [String.prototype, "at", function (index) { return relativeAt(String(this), index); }],
        [String.prototype, "replaceAll", function (search, replacement) {
            if (search instanceof RegExp) {
                if (search.flags.indexOf("g") < 0)
                    throw fail(TypeErrorType, "replaceAll must be called with a global RegExp");
                return String(this).replace(search, replacement);
            }
            var pattern = String(search).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
            return String(this).replace(new RegExp(pattern, "g"), replacement);
        }],
        [Object, "fromEntries", function (entries) {
            var o = {};
            for (var e of entries)
                o[e[0]] = e[1];
            return o;
        }],
        [Object, "hasOwn", function (o, key) {
            if (o === null || o === undefined)
                throw fail(TypeErrorType, "Object.hasOwn: cannot convert undefined or null to object");
            return Object.prototype.hasOwnProperty.call(o, key);
        }]
    ];
    // What the runtime itself calls, taken before any policy code runs: a
    // policy that replaces Object.defineProperty or Math changes nothing here.
    var defineProperty = Object.defineProperty, ownNames = Object.getOwnPropertyNames, MathObject = Math;
    var helperNames = ["improvedVsParent", "improvedVsBaseline", "isSuccess", "failedHard"];
    // One descriptor per addition, made once (the policy cannot reach them).
    var descriptors = additions.map(function (a) {
        return { value: a[2], writable: true, configurable: true, enumerable: false };
    });
    function install() {
        G.Date = noClock;
        MathObject.random = random;
        for (var h = 0; h < helperNames.length; ++h)
            G[helperNames[h]] = helpers[helperNames[h]];
        G.globalThis = G;
        // Re-installed at every episode: a policy that replaced one of them
        // does not leak that into the next episode.
        for (var i = 0; i < additions.length; ++i)
            defineProperty(additions[i][0], additions[i][1], descriptors[i]);
    }
    install();
    var baseNames = ownNames(G);
    var baseGlobals = new Set(baseNames);
    // The standard globals as they were (Math, JSON, Object, ...): one that a
    // policy replaced is put back at the next episode start.
    var baseValues = baseNames.map(function (name) { return G[name]; });
    // Whether a base global holds another value than its base one: a
    // function made here that names each global in its code, so that the
    // interpreter looks each up through a cache (a lookup by a computed
    // name is several times slower). Globals that cannot change (NaN,
    // Infinity, undefined: neither writable nor configurable) are left out.
    var baseValuesChanged = (function () {
        var tests = [];
        for (var i = 0; i < baseNames.length; ++i) {
            var d = Object.getOwnPropertyDescriptor(G, baseNames[i]);
            if (d.writable === false && d.configurable === false)
                continue;
            var key = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(baseNames[i]) ? "." + baseNames[i] : "[" + JSON.stringify(baseNames[i]) + "]";
            tests.push("G" + key + " !== v[" + i + "]");
        }
        return new Function("G", "v", "return " + (tests.length ? tests.join(" || ") : "false") + ";");
    })();
    // Equal, or both NaN (the global NaN is never !== itself).
    function same(a, b) {
        return a === b || (a !== a && b !== b);
    }
    // Whether every addition and the seeded Math.random are as install()
    // left them (the helpers, Date and globalThis are base globals).
    function installed() {
        if (MathObject.random !== random)
            return false;
        for (var i = 0; i < additions.length; ++i) {
            if (additions[i][0][additions[i][1]] !== additions[i][2])
                return false;
        }
        return true;
    }

    // Heap ballast. The interpreter's collector hands every 64 KB chunk it
    // finds empty back to the system (madvise, mprotect) and asks for it
    // again at the next allocation: page faults and, with engines on two
    // threads, TLB shootdowns, a quarter of a scripted replay's time. One
    // object kept alive out of every 64 made in a row at start keeps each
    // chunk they filled occupied, so the collector reuses their free slots
    // instead (12 fields each: fewer objects to make than small ones). It
    // must stay reachable: the object returned below holds it (a local of
    // this function alone dies when the function returns). Measured on
    // 1,000 synthetic worlds: 4,096 objects still keep the faults away,
    // 2,048 do not (16.7k faults instead of 8.5k); 8,192 leave a margin,
    // at about 2 ms an engine.
    var ballast = [];
    for (var count = 0; count < 8192; ++count) {
        var piece = { a: 0, b: 0, c: 0, d: 0, e: 0, f: 0, g: 0, h: 0, i: 0, j: 0, k: 0, l: 0 };
        if ((count & 63) === 0)
            ballast.push(piece);
    }
    var inst = null, beta = 0, W = 1;
    var failClasses = []; // fail-class names by the index C++ gave them (kept across episodes)
    // Per episode: metadata by engine index and by id (a Map: a plain object
    // changes its hidden class with every new key), the distinct tag lists
    // (cells share them; sent once each), the legal metas sorted by
    // (branch, attempt), opened branch ids, observations.
    var metaAt = [], metaById = new Map(), tagLists = [], legalMetas = [], opened = [], observed = [];
    // The records below stay inside this closure; a policy only ever gets
    // fresh plain copies (a new state, observations and metas every round and
    // every call), so whatever it changes changes nothing here.
    // Tag lists are copied by an array literal when short (most are): a
    // literal costs this interpreter a fraction of a call to slice().
    function meta(id) {
        var m = metaById.get(String(id));
        if (m === undefined)
            throw fail(ErrorType, "meta: " + String(id) + " is neither a legal nor a revealed cell");
        var t = m.tags, n = t.length;
        return { id: m.id, branch: m.branch, attempt: m.attempt, parentId: m.parentId, seq: m.seq,
                 tags: n === 2 ? [t[0], t[1]] : n === 1 ? [t[0]] : n === 0 ? [] : n === 3 ? [t[0], t[1], t[2]] : t.slice() };
    }
    function thrown(e) {
        var text;
        try { text = String(e); } catch (e2) { text = "an unprintable value"; }
        var line = (e !== null && typeof e === "object" && typeof e.lineNumber === "number") ? e.lineNumber : 0;
        // Errors the interpreter numbered in code compiled with a header
        // (see ScriptedPolicy::create): back to the lines of the file.
        if (line > lineShift && e instanceof ErrorType)
            line -= lineShift;
        return { e: text, line: line };
    }
    function instantiate() {
        var made = factory();
        if (made === null || typeof made !== "object" || typeof made.selectBatch !== "function")
            throw fail(ErrorType, "the script does not define function selectBatch(state)");
        return made;
    }
    return {
        ballast: ballast,
        probe: function () {
            try {
                var made = instantiate();
                return { v: { hasPlanGrid: typeof made.planGrid === "function",
                              defaultBeta: typeof made.defaultBeta === "number" ? made.defaultBeta : null } };
            } catch (e) {
                return thrown(e);
            }
        },
        begin: function (b, w, seed) {
            // Globals the last episode made or replaced go back to what they
            // were. Usually nothing changed: the same number of names, each
            // base name holding its base value (so no name was added), and
            // every addition in place; that is checked first, cheaply.
            // A getter that throws counts as a change.
            var changed = true;
            try { changed = ownNames(G).length !== baseNames.length || baseValuesChanged(G, baseValues); } catch (e) { /* changed */ }
            if (changed) {
                var names = ownNames(G);
                for (var i = 0; i < names.length; ++i) {
                    if (!baseGlobals.has(names[i])) {
                        try { delete G[names[i]]; } catch (e) { /* non-configurable: left as is */ }
                    }
                }
                for (var g = 0; g < baseNames.length; ++g) {
                    try {
                        if (!same(G[baseNames[g]], baseValues[g]))
                            G[baseNames[g]] = baseValues[g];
                    } catch (e) {
                        // An accessor now (or read-only): defined back as it
                        // was, unless the policy made it non-configurable.
                        try {
                            defineProperty(G, baseNames[g], { value: baseValues[g], writable: true, configurable: true, enumerable: false });
                        } catch (e2) { /* left as is */ }
                    }
                }
            }
            var complete = false;
            try { complete = installed(); } catch (e) { /* a getter that throws: install again */ }
            if (!complete)
                install();
            rngState = seed | 0;
            beta = b; W = w;
            metaAt = []; metaById = new Map(); tagLists = []; legalMetas = []; opened = []; observed = [];
            inst = null;
            try {
                inst = instantiate();
                return { v: true };
            } catch (e) {
                return thrown(e);
            }
        },
        // A tag list comes joined by NUL characters (one string crosses
        // much faster than an array), or as an array when a tag holds one.
        addTags: function (k, tags, count) {
            tagLists[k] = typeof tags !== "string" ? Array.prototype.slice.call(tags)
                                                   : (count === 0 ? [] : tags.split("\u0000"));
        },
        // parent: the parent's index when the interpreter has its metadata,
        // else its id (a hand-made state), or null for attempt 0. place:
        // the position in the legal list the cell takes over (C++ works out
        // the changes from the last round's list), or -1.
        addMeta: function (index, id, branch, attempt, parent, seq, tagList, place) {
            var parentId = typeof parent === "number" ? metaAt[parent].id : parent;
            // tags: shared by the cells with the same list; handed out only as copies.
            var m = { id: id, branch: branch, attempt: attempt, parentId: parentId, seq: seq, index: index,
                      tags: tagLists[tagList] };
            metaAt[index] = m;
            metaById.set(id, m);
            if (place >= 0)
                legalMetas[place] = m;
        },
        placeLegal: function (place, index) {
            legalMetas[place] = metaAt[index];
        },
        dropLegal: function (place) {
            legalMetas.splice(place, 1);
        },
        // The first round's records, for the next episode that starts with
        // the same legal cells (the other β of a world): C++ keeps what
        // firstRound() returns, not this closure, and hands it back to
        // reuseFirstRound(). The records are never changed once made.
        firstRound: function () {
            return [metaAt.slice(), tagLists.slice(), legalMetas.slice()];
        },
        reuseFirstRound: function (kept) {
            metaAt = kept[0].slice();
            tagLists = kept[1].slice();
            legalMetas = kept[2].slice();
            for (var i = 0; i < metaAt.length; ++i)
                metaById.set(metaAt[i].id, metaAt[i]);
        },
        // The whole legal list, in order (indices into metaAt).
        setLegal: function (indices) {
            legalMetas = [];
            for (var i = 0; i < indices.length; ++i)
                legalMetas.push(metaAt[indices[i]]);
        },
        addFailClass: function (k, name) {
            failClasses[k] = name;
        },
        addObs: function (index, score, evaluated, valid, failClassIndex, error, nValid, nTotal, dB, dP) {
            var m = metaAt[index], failClass = failClasses[failClassIndex];
            var j = opened.length;
            if (opened.indexOf(m.branch) < 0) {
                opened.push(m.branch);
                while (j > 0 && opened[j - 1] > m.branch) {
                    opened[j] = opened[j - 1];
                    --j;
                }
                opened[j] = m.branch;
            }
            observed.push({ id: m.id, branch: m.branch, attempt: m.attempt, parentId: m.parentId, seq: m.seq,
                            tags: m.tags, index: index, score: score, evaluated: evaluated, valid: valid, failClass: failClass,
                            error: error, nValid: nValid, nTotal: nTotal, deltaVsBaseline: dB, deltaVsParent: dP });
        },
        // w: this round's maxParallelism (W less the cells a person pinned
        // in a live round); steer: {closed, pinned, hints} or null.
        select: function (round, base, w, steer) {
            var legal = [], roots = [];
            for (var i = 0; i < legalMetas.length; ++i) {
                legal.push(legalMetas[i].id);
                if (legalMetas[i].attempt === 0)
                    roots.push(legalMetas[i].id);
            }
            // Fresh copies of the observations, made in the loop (a call per
            // copy would cost more than the copy).
            var obs = new Array(observed.length);
            for (var j = 0; j < observed.length; ++j) {
                var r = observed[j], t = r.tags, n = t.length;
                obs[j] = { id: r.id, branch: r.branch, attempt: r.attempt, parentId: r.parentId, seq: r.seq,
                           tags: n === 2 ? [t[0], t[1]] : n === 1 ? [t[0]] : n === 0 ? [] : n === 3 ? [t[0], t[1], t[2]] : t.slice(),
                           score: r.score, evaluated: r.evaluated, valid: r.valid,
                           failClass: r.failClass, error: r.error, nValid: r.nValid, nTotal: r.nTotal,
                           deltaVsBaseline: r.deltaVsBaseline, deltaVsParent: r.deltaVsParent };
            }
            var state = { round: round, beta: beta, maxParallelism: w, baselineScore: base,
                          observed: obs, legal: legal, legalRoots: roots,
                          openedBranches: opened.slice(), meta: meta,
                          steering: steer !== null ? steer : { closed: [], pinned: [], hints: {} } };
            try {
                return { v: inst.selectBatch(state) };
            } catch (e) {
                return thrown(e);
            }
        },
        plan: function (context) {
            try {
                return { v: inst.planGrid(context) };
            } catch (e) {
                return thrown(e);
            }
        }
    };
}))JS";

QString typeName(const QJSValue &v)
{
    if (v.isNull())
        return QStringLiteral("null");
    if (v.isUndefined())
        return QStringLiteral("undefined");
    if (v.isBool())
        return QStringLiteral("a boolean");
    if (v.isNumber())
        return QStringLiteral("a number");
    if (v.isString())
        return QStringLiteral("a string");
    if (v.isArray())
        return QStringLiteral("an array");
    if (v.isCallable())
        return QStringLiteral("a function");
    return QStringLiteral("an object");
}

QJSValue optionalNumber(const std::optional<double> &v)
{
    return v ? QJSValue(*v) : QJSValue(QJSValue::NullValue);
}

QJSValue optionalInteger(const std::optional<qint64> &v)
{
    return v ? QJSValue(double(*v)) : QJSValue(QJSValue::NullValue);
}

} // namespace

class ScriptedPolicy::Private
{
public:
    QJSEngine engine;
    std::unique_ptr<ScriptWatchdog> watchdog;
    QJSValue runtime;
    QJSValue fnBegin, fnAddTags, fnAddMeta, fnPlaceLegal, fnDropLegal, fnSetLegal, fnAddFailClass, fnAddObs, fnSelect, fnPlan,
        fnFirstRound, fnReuseFirstRound;
    // Argument lists reused from call to call: building a QJSValueList per
    // call costs more than the call (Qt 6.4: ~0.1 us, plus ~0.1 us a string).
    QJSValueList metaArgs = QJSValueList(8);
    QJSValueList obsArgs = QJSValueList(10);
    QHash<QString, int> failClassIndex; ///< fail-class names the interpreter has (all episodes)
    QString label;
    int timeLimitMs = 2000;
    quint32 seed = 0;
    bool hasPlanGrid = false;
    std::optional<double> defaultBeta;
    QString pendingError; ///< from beginEpisode, reported by the next call
    qsizetype pushedObservations = 0;
    QHash<QString, int> indexOf;     ///< cells whose metadata the interpreter has, by id
    /// A legal cell as the interpreter's legal list holds it.
    struct Slot
    {
        QString id;
        int branch = 0;
    };
    QList<Slot> sentLegal;           ///< the interpreter's legal list, in its order
    QHash<QStringList, int> tagList; ///< tag lists the interpreter has this episode
    /// The first round of the last episode that started afresh: its legal
    /// cells, what the interpreter made of them (firstRound()) and the
    /// records above as they were then. An episode whose first round has
    /// the same legal cells (the next β of the same world) takes them over
    /// instead of sending each cell again.
    struct FirstRound
    {
        QList<CellMeta> legal;
        QJSValue records;
        QHash<QString, int> indexOf;
        QList<Slot> sentLegal;
        QHash<QStringList, int> tagList;
    };
    std::optional<FirstRound> firstRound;

    /// `place`: the legal list position the cell takes over, or -1.
    void addMeta(const CellMeta &m, int place)
    {
        const int index = int(indexOf.size());
        indexOf.insert(m.id, index);
        auto known = tagList.constFind(m.tags);
        if (known == tagList.cend()) {
            known = tagList.insert(m.tags, int(tagList.size()));
            const bool joinable = std::none_of(m.tags.cbegin(), m.tags.cend(),
                                               [](const QString &t) { return t.contains(QChar(0)); });
            fnAddTags.call({QJSValue(known.value()),
                            joinable ? QJSValue(m.tags.join(QChar(0))) : stringArray(m.tags),
                            QJSValue(int(m.tags.size()))});
        }
        const int parent = m.parentId.isEmpty() ? -1 : indexOf.value(m.parentId, -1);
        metaArgs[0] = QJSValue(index);
        metaArgs[1] = QJSValue(m.id);
        metaArgs[2] = QJSValue(m.branch);
        metaArgs[3] = QJSValue(m.attempt);
        metaArgs[4] = parent >= 0            ? QJSValue(parent)
                      : m.parentId.isEmpty() ? QJSValue(QJSValue::NullValue)
                                             : QJSValue(m.parentId);
        metaArgs[5] = QJSValue(double(m.seq));
        metaArgs[6] = QJSValue(known.value());
        metaArgs[7] = QJSValue(place);
        fnAddMeta.call(metaArgs);
    }

    void addObservation(const Observation &o)
    {
        auto failClass = failClassIndex.constFind(o.failClass);
        if (failClass == failClassIndex.cend()) {
            failClass = failClassIndex.insert(o.failClass, int(failClassIndex.size()));
            fnAddFailClass.call({QJSValue(failClass.value()), QJSValue(o.failClass)});
        }
        obsArgs[0] = QJSValue(indexOf.value(o.meta.id));
        obsArgs[1] = optionalNumber(o.score);
        obsArgs[2] = QJSValue(o.evaluated);
        obsArgs[3] = o.valid ? QJSValue(*o.valid) : QJSValue(QJSValue::NullValue);
        obsArgs[4] = QJSValue(failClass.value());
        obsArgs[5] = o.error ? QJSValue(*o.error) : QJSValue(QJSValue::NullValue);
        obsArgs[6] = optionalInteger(o.nValid);
        obsArgs[7] = optionalInteger(o.nTotal);
        obsArgs[8] = optionalNumber(o.deltaVsBaseline);
        obsArgs[9] = optionalNumber(o.deltaVsParent);
        fnAddObs.call(obsArgs);
    }

    /// Calls `fn` under the watchdog; on a throw or a timeout returns an
    /// undefined value and fills *error.
    QJSValue guardedCall(QJSValue &fn, const QJSValueList &args, const QString &what, QString *error)
    {
        watchdog->arm(timeLimitMs);
        const QJSValue result = fn.call(args);
        const bool timedOut = watchdog->disarm();
        if (timedOut) {
            *error = QStringLiteral("%1 ran past its time limit of %2 ms").arg(what).arg(timeLimitMs);
            return {};
        }
        // The runtime wraps every call in try/catch and answers {v} or {e, line}.
        if (result.isError() || !result.isObject()) {
            *error = QStringLiteral("%1 failed: %2").arg(what, result.toString());
            return {};
        }
        const QJSValue thrown = result.property(QStringLiteral("e"));
        if (!thrown.isUndefined()) {
            QString message = thrown.toString();
            const int line = result.property(QStringLiteral("line")).toInt();
            if (line > 0)
                message += QStringLiteral(" (line %1)").arg(line);
            *error = QStringLiteral("%1 threw: %2").arg(what, message);
            return {};
        }
        return result.property(QStringLiteral("v"));
    }

    QJSValue stringArray(const QStringList &list)
    {
        QJSValue array = engine.newArray(uint(list.size()));
        for (int i = 0; i < list.size(); ++i)
            array.setProperty(quint32(i), list.at(i));
        return array;
    }
};

ScriptedPolicy::ScriptedPolicy()
    : d(std::make_unique<Private>())
{
    d->watchdog = std::make_unique<ScriptWatchdog>(&d->engine);
}

ScriptedPolicy::~ScriptedPolicy()
{
    d->watchdog.reset();
}

std::unique_ptr<ScriptedPolicy> ScriptedPolicy::create(const QString &source, const QString &label, int timeLimitMs,
                                                       quint32 seed, QString *error)
{
    std::unique_ptr<ScriptedPolicy> policy(new ScriptedPolicy);
    Private &p = *policy->d;
    p.label = label;
    p.timeLimitMs = timeLimitMs > 0 ? timeLimitMs : 2000;
    p.seed = seed == 0 ? 0x9E3779B9u : seed;

    // The policy's top level becomes the body of a factory so that each
    // episode starts it afresh; the first line stays line 1 of the file.
    const QString wrapped = QStringLiteral("(function () {") + source
        + QStringLiteral(
              "\n;return { selectBatch: typeof selectBatch === \"function\" ? selectBatch : undefined,"
              " planGrid: typeof planGrid === \"function\" ? planGrid : undefined,"
              " defaultBeta: typeof defaultBeta !== \"undefined\" ? defaultBeta : undefined };\n})");
    // Qt compiles code given to QJSEngine::evaluate as if it could see a
    // caller's scope, and so without the interpreter's property lookup
    // caches; code made by the Function constructor has them (about a fifth
    // less CPU over a scripted replay). The policy and the runtime are made
    // that way when the policy compiles so; evaluate() stays the judge of
    // every other case and of syntax errors, so each message is as before.
    // The constructor's header moves line numbers down by `lineShift`,
    // which the runtime takes off again.
    const QJSValue viaConstructor =
        p.engine.evaluate(QStringLiteral("(function (src) { return (new Function('return ' + src))(); })"));
    QJSValue factory = viaConstructor.call({QJSValue(wrapped)});
    QJSValue maker;
    int lineShift = 0;
    if (factory.isCallable() && !factory.isError()) {
        maker = viaConstructor.call({QJSValue(QString::fromUtf8(runtimeSource))});
        lineShift = viaConstructor.call({QJSValue(QStringLiteral("(new Error().lineNumber)"))}).toInt() - 1;
    }
    if (!maker.isCallable() || lineShift < 0) {
        factory = p.engine.evaluate(wrapped, label, 1);
        maker = QJSValue();
        lineShift = 0;
    }
    if (factory.isError() || !factory.isCallable()) {
        if (error) {
            *error = QStringLiteral("%1: line %2: %3")
                         .arg(label)
                         .arg(factory.property(QStringLiteral("lineNumber")).toInt())
                         .arg(factory.toString());
        }
        return nullptr;
    }
    if (!maker.isCallable())
        maker = p.engine.evaluate(QString::fromUtf8(runtimeSource), QStringLiteral("dreamrsi-runtime"), 1);
    if (!maker.isCallable()) {
        if (error)
            *error = QStringLiteral("internal error: policy runtime failed to load: %1").arg(maker.toString());
        return nullptr;
    }
    p.runtime = maker.call({factory, p.engine.globalObject(), QJSValue(lineShift)});
    if (p.runtime.isError()) {
        if (error)
            *error = QStringLiteral("internal error: policy runtime failed to start: %1").arg(p.runtime.toString());
        return nullptr;
    }
    p.fnBegin = p.runtime.property(QStringLiteral("begin"));
    p.fnAddTags = p.runtime.property(QStringLiteral("addTags"));
    p.fnAddMeta = p.runtime.property(QStringLiteral("addMeta"));
    p.fnSetLegal = p.runtime.property(QStringLiteral("setLegal"));
    p.fnPlaceLegal = p.runtime.property(QStringLiteral("placeLegal"));
    p.fnDropLegal = p.runtime.property(QStringLiteral("dropLegal"));
    p.fnAddFailClass = p.runtime.property(QStringLiteral("addFailClass"));
    p.fnAddObs = p.runtime.property(QStringLiteral("addObs"));
    p.fnSelect = p.runtime.property(QStringLiteral("select"));
    p.fnFirstRound = p.runtime.property(QStringLiteral("firstRound"));
    p.fnReuseFirstRound = p.runtime.property(QStringLiteral("reuseFirstRound"));
    p.fnPlan = p.runtime.property(QStringLiteral("plan"));

    QJSValue probe = p.runtime.property(QStringLiteral("probe"));
    QString probeError;
    const QJSValue info = p.guardedCall(probe, {}, QStringLiteral("the script's top level"), &probeError);
    if (!probeError.isEmpty()) {
        if (error)
            *error = label + QStringLiteral(": ") + probeError;
        return nullptr;
    }
    p.hasPlanGrid = info.property(QStringLiteral("hasPlanGrid")).toBool();
    const QJSValue beta = info.property(QStringLiteral("defaultBeta"));
    if (beta.isNumber())
        p.defaultBeta = beta.toNumber();
    return policy;
}

QString ScriptedPolicy::name() const
{
    return d->label;
}

std::optional<double> ScriptedPolicy::defaultBeta() const
{
    return d->defaultBeta;
}

bool ScriptedPolicy::hasGridPlanner() const
{
    return d->hasPlanGrid;
}

void ScriptedPolicy::beginEpisode(double beta, int maxParallelism)
{
    d->pendingError.clear();
    d->pushedObservations = 0;
    d->indexOf.clear();
    d->sentLegal.clear();
    d->tagList.clear();
    QString error;
    d->guardedCall(d->fnBegin,
                   {QJSValue(beta), QJSValue(maxParallelism), QJSValue(int(d->seed))},
                   QStringLiteral("the script's top level"), &error);
    d->pendingError = error;
}

GridPlanResult ScriptedPolicy::planGrid(const GridContext &context)
{
    GridPlanResult result;
    if (!d->pendingError.isEmpty()) {
        result.error = d->pendingError;
        return result;
    }
    QJSEngine &e = d->engine;
    QJSValue ctx = e.newObject();
    QJSValue history = e.newArray(uint(context.history.size()));
    for (int i = 0; i < context.history.size(); ++i) {
        const GridHistoryEntry &h = context.history.at(i);
        QJSValue entry = e.newObject();
        entry.setProperty(QStringLiteral("iteration"), double(h.iteration));
        entry.setProperty(QStringLiteral("plannedBranches"), h.plannedBranches);
        entry.setProperty(QStringLiteral("plannedRefinements"), h.plannedRefinements);
        entry.setProperty(QStringLiteral("openedBranches"), h.openedBranches);
        entry.setProperty(QStringLiteral("depth"), h.depth);
        entry.setProperty(QStringLiteral("probes"), h.probes);
        entry.setProperty(QStringLiteral("rounds"), h.rounds);
        entry.setProperty(QStringLiteral("bestScore"), optionalNumber(h.bestScore));
        entry.setProperty(QStringLiteral("beta"), h.beta);
        history.setProperty(quint32(i), entry);
    }
    ctx.setProperty(QStringLiteral("history"), history);
    ctx.setProperty(QStringLiteral("hardMaxBranches"), context.hardMaxBranches);
    ctx.setProperty(QStringLiteral("hardMaxRefinements"), context.hardMaxRefinements);
    QJSValue fallback = e.newObject();
    fallback.setProperty(QStringLiteral("branches"), context.fallback.branches);
    fallback.setProperty(QStringLiteral("refinements"), context.fallback.refinements);
    ctx.setProperty(QStringLiteral("fallbackGrid"), fallback);
    ctx.setProperty(QStringLiteral("maxWorkers"), context.maxWorkers);
    if (context.recordedBranches && context.recordedRefinements) {
        QJSValue recorded = e.newObject();
        recorded.setProperty(QStringLiteral("branches"), *context.recordedBranches);
        recorded.setProperty(QStringLiteral("refinements"), *context.recordedRefinements);
        ctx.setProperty(QStringLiteral("recordedGrid"), recorded);
        ctx.setProperty(QStringLiteral("recordedBranches"), *context.recordedBranches);
        ctx.setProperty(QStringLiteral("recordedRefinements"), *context.recordedRefinements);
    }
    QString error;
    const QJSValue plan = d->guardedCall(d->fnPlan, {ctx}, QStringLiteral("planGrid"), &error);
    if (!error.isEmpty()) {
        result.error = error;
        return result;
    }
    if (!plan.isObject() || plan.isArray() || plan.isCallable()) {
        result.error = QStringLiteral("planGrid returned %1, not an object {branches, refinements, reason}")
                           .arg(typeName(plan));
        return result;
    }
    GridPlan g;
    const char *const fields[] = {"branches", "refinements"};
    int *targets[] = {&g.branches, &g.refinements};
    for (int i = 0; i < 2; ++i) {
        const QJSValue v = plan.property(QLatin1String(fields[i]));
        const double x = v.toNumber();
        if (!v.isNumber() || x != double(qint64(x)) || x < -1e9 || x > 1e9) {
            result.error = QStringLiteral("planGrid returned %1 = %2, not an integer")
                               .arg(QLatin1String(fields[i]), v.toString());
            return result;
        }
        *targets[i] = int(x);
    }
    const QJSValue reason = plan.property(QStringLiteral("reason"));
    if (!reason.isUndefined() && !reason.isNull())
        g.reason = reason.toString();
    result.plan = g;
    return result;
}

PolicyDecision ScriptedPolicy::selectBatch(const PolicyState &state)
{
    if (!d->pendingError.isEmpty())
        return PolicyDecision::failure(d->pendingError);

    // Only what changed crosses into the interpreter: the metadata of cells
    // revealed or legal for the first time, the observations revealed since
    // the last round, and the changes to the legal list. The first call of
    // an episode (nothing sent yet, nothing revealed) may take over the
    // records of the last episode that started with the same legal cells.
    const bool firstCall = d->indexOf.isEmpty() && state.observed().isEmpty();
    const bool reused = firstCall && d->firstRound && d->firstRound->legal == state.legal();
    if (reused) {
        d->fnReuseFirstRound.call({d->firstRound->records});
        d->indexOf = d->firstRound->indexOf;
        d->sentLegal = d->firstRound->sentLegal;
        d->tagList = d->firstRound->tagList;
    }
    const QList<Observation> &observed = state.observed();
    for (qsizetype i = d->pushedObservations; i < observed.size(); ++i) {
        const Observation &o = observed.at(i);
        if (!d->indexOf.contains(o.meta.id))
            d->addMeta(o.meta, -1); // a hand-made state may reveal a cell never legal
        d->addObservation(o);
    }
    d->pushedObservations = observed.size();

    // The legal list is sorted by (branch, attempt) (docs/policy-api.md#state), as the
    // engine keeps it; a hand-made one in another order is sorted here.
    const QList<CellMeta> &legal = state.legal();
    const auto before = [](const CellMeta *a, const CellMeta *b) {
        return a->branch != b->branch ? a->branch < b->branch : a->attempt < b->attempt;
    };
    QVarLengthArray<const CellMeta *, 32> next;
    for (const CellMeta &m : legal)
        next.append(&m);
    if (!std::is_sorted(next.cbegin(), next.cend(), before))
        std::stable_sort(next.begin(), next.end(), before);
    // In the engine a revealed cell's place goes to its branch's next
    // attempt, or the place goes when the branch has none left: walking the
    // interpreter's list against the new one finds the places to change and
    // to drop (the changes keep list positions valid when made in order).
    // When that does not give the new list, the whole list is sent.
    struct Change
    {
        int place;
        const CellMeta *cell; ///< the cell that takes the place; null: the place goes
    };
    QVarLengthArray<Change, 32> changes;
    qsizetype matched = 0;
    for (const Private::Slot &slot : d->sentLegal) {
        if (matched < next.size() && next.at(matched)->branch == slot.branch) {
            if (next.at(matched)->id != slot.id)
                changes.append(Change{int(matched), next.at(matched)});
            ++matched;
        } else {
            changes.append(Change{int(matched), nullptr});
        }
    }
    if (matched == next.size()) {
        for (const Change &change : changes) {
            if (!change.cell)
                d->fnDropLegal.call({QJSValue(change.place)});
            else if (const auto known = d->indexOf.constFind(change.cell->id); known != d->indexOf.cend())
                d->fnPlaceLegal.call({QJSValue(change.place), QJSValue(known.value())});
            else
                d->addMeta(*change.cell, change.place);
        }
    } else {
        QJSValue indices = d->engine.newArray(uint(next.size()));
        for (qsizetype i = 0; i < next.size(); ++i) {
            if (!d->indexOf.contains(next.at(i)->id))
                d->addMeta(*next.at(i), -1);
            indices.setProperty(quint32(i), d->indexOf.value(next.at(i)->id));
        }
        d->fnSetLegal.call({indices});
    }
    d->sentLegal.resize(next.size());
    for (qsizetype i = 0; i < next.size(); ++i)
        d->sentLegal[i] = Private::Slot{next.at(i)->id, next.at(i)->branch};
    if (firstCall && !reused)
        d->firstRound = Private::FirstRound{legal, d->fnFirstRound.call(), d->indexOf, d->sentLegal, d->tagList};

    QString error;
    QJSValue steering(QJSValue::NullValue);
    if (!state.steering().isEmpty()) {
        const PolicySteering &s = state.steering();
        steering = d->engine.newObject();
        QJSValue closed = d->engine.newArray(uint(s.closed.size()));
        for (qsizetype i = 0; i < s.closed.size(); ++i)
            closed.setProperty(quint32(i), s.closed.at(i));
        steering.setProperty(QStringLiteral("closed"), closed);
        steering.setProperty(QStringLiteral("pinned"), d->stringArray(s.pinned));
        QJSValue hints = d->engine.newObject();
        for (const auto &[key, text] : s.hints)
            hints.setProperty(key, text);
        steering.setProperty(QStringLiteral("hints"), hints);
    }
    QJSValue result = d->guardedCall(d->fnSelect,
                                     {QJSValue(state.round()), optionalNumber(state.baselineScore()),
                                      QJSValue(state.maxParallelism()), steering},
                                     QStringLiteral("selectBatch"), &error);
    if (!error.isEmpty())
        return PolicyDecision::failure(error);
    if (!result.isArray())
        return PolicyDecision::failure(QStringLiteral("selectBatch returned %1, not an array").arg(typeName(result)));
    PolicyDecision decision;
    const int length = result.property(QStringLiteral("length")).toInt();
    decision.batch.reserve(length);
    for (int i = 0; i < length; ++i) {
        const QJSValue item = result.property(quint32(i));
        if (!item.isString()) {
            return PolicyDecision::failure(
                QStringLiteral("batch item %1 is %2, not a cell id string").arg(i).arg(typeName(item)));
        }
        decision.batch.append(item.toString());
    }
    return decision;
}

} // namespace dreamrsi
