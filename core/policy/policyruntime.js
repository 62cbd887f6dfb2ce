(function (factory, G, lineShift) {
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
    // What typeof answers, as the very strings it answers with: the
    // interpreter compares two string objects character by character unless
    // they are the same object, and a literal here is another object than
    // the interpreter's own "function" (about 100 instructions a test).
    var TYPE_FUNCTION = typeof noClock, TYPE_OBJECT = typeof noClock.prototype, TYPE_NUMBER = typeof rngState,
        TYPE_STRING = typeof "", TYPE_SYMBOL = typeof Symbol === TYPE_FUNCTION ? typeof Symbol.iterator : "symbol";
    // The same for the fail classes the helpers test: addFailClass() keeps
    // these very strings for the classes of those names.
    var CLASS_OK = "ok", CLASS_ENV = "env";
    var helpers = {
        improvedVsParent: function (o) { return o !== null && typeof o === TYPE_OBJECT && typeof o.deltaVsParent === TYPE_NUMBER && o.deltaVsParent > 0; },
        improvedVsBaseline: function (o) { return o !== null && typeof o === TYPE_OBJECT && typeof o.deltaVsBaseline === TYPE_NUMBER && o.deltaVsBaseline > 0; },
        isSuccess: function (o) { return o !== null && typeof o === TYPE_OBJECT && o.evaluated === true && o.error === null && o.failClass === CLASS_OK; },
        failedHard: function (o) { return o !== null && typeof o === TYPE_OBJECT && o.failClass === CLASS_ENV; }
    };
    // Array.prototype.sort as ES2019 defines it: stable (equal elements keep
    // their order), undefined last, holes removed to the end. The engine's
    // own sort is not stable, so a policy that sorts with ties would pick
    // differently than under a current JavaScript engine.
    // cmp: the policy's comparison function, called directly (a wrapper
    // would double the calls, each dear in this interpreter); its answer is
    // converted by + and a NaN fails every test below, so it counts as 0.
    function mergeSort(a, lo, hi, cmp, tmp) {
        if (hi - lo <= 8) {
            for (var i = lo + 1; i < hi; ++i) {
                var v = a[i], j = i;
                while (j > lo && +cmp(a[j - 1], v) > 0) {
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
        if (!(+cmp(a[mid - 1], a[mid]) > 0))
            return;
        for (var t = lo; t < mid; ++t)
            tmp[t] = a[t];
        var l = lo, r = mid, k = lo;
        while (l < mid && r < hi)
            a[k++] = +cmp(a[r], tmp[l]) < 0 ? a[r++] : tmp[l++];
        while (l < mid)
            a[k++] = tmp[l++];
    }
    function defaultCompare(x, y) {
        var a = String(x), b = String(y);
        return a < b ? -1 : (a > b ? 1 : 0);
    }
    function stableSort(comparefn) {
        if (comparefn !== undefined && typeof comparefn !== TYPE_FUNCTION)
            throw fail(TypeErrorType, "Array.prototype.sort: the comparison function must be a function or undefined");
        var obj = this !== null && (typeof this === TYPE_OBJECT || typeof this === TYPE_FUNCTION) ? this : Object(this);
        var len = obj.length >>> 0;
        var values = [], undefs = 0;
        for (var i = 0; i < len; ++i) {
            // Whether a hole or an undefined value: asked only of undefined.
            var v = obj[i];
            if (v !== undefined)
                values.push(v);
            else if (i in obj)
                ++undefs;
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
            // The scratch array has its length from the start: this
            // interpreter stores past an array's end on a slow path.
            mergeSort(values, 0, n, comparefn === undefined ? defaultCompare : comparefn, values.slice());
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
        if (typeof f !== TYPE_FUNCTION)
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
    // Per episode: metadata by engine index and by id, the distinct tag lists
    // (cells share them; sent once each), the legal metas sorted by
    // (branch, attempt), opened branch ids, observations. By id: an object
    // without a prototype (no inherited name can answer), not a Map: this
    // interpreter's Map compares a key with every key it holds, on every
    // get and set, where an object finds a name by its hash (a third of the
    // time of a Map get, measured on 60 ids).
    var metaAt = [], metaById = Object.create(null), tagLists = [], legalMetas = [], opened = [], observed = [];
    // The records below stay inside this closure; a policy only ever gets
    // fresh plain copies (a new state, observations and metas every round and
    // every call), so whatever it changes changes nothing here.
    // Tag lists are copied by an array literal when short (most are): a
    // literal costs this interpreter a fraction of a call to slice().
    function meta(id) {
        // The key is String(id) (a number's digits, an object's toString()),
        // except a symbol, which String(id) turns into "Symbol(...)".
        var m = metaById[id];
        if (m === undefined && typeof id === TYPE_SYMBOL)
            m = metaById[String(id)];
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
            metaAt = []; metaById = Object.create(null); tagLists = []; legalMetas = []; opened = []; observed = [];
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
            tagLists[k] = typeof tags !== TYPE_STRING ? Array.prototype.slice.call(tags)
                                                   : (count === 0 ? [] : tags.split("\u0000"));
        },
        // parent: the parent's index when the interpreter has its metadata,
        // else its id (a hand-made state), or null for attempt 0. place:
        // the position in the legal list the cell takes over (C++ works out
        // the changes from the last round's list), or -1.
        addMeta: function (index, id, branch, attempt, parent, seq, tagList, place) {
            var parentId = typeof parent === TYPE_NUMBER ? metaAt[parent].id : parent;
            // tags: shared by the cells with the same list; handed out only as copies.
            var m = { id: id, branch: branch, attempt: attempt, parentId: parentId, seq: seq, index: index,
                      tags: tagLists[tagList] };
            // Indices come in order: a push (a store past the end is slow here).
            if (index === metaAt.length)
                metaAt.push(m);
            else
                metaAt[index] = m;
            metaById[id] = m;
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
                metaById[metaAt[i].id] = metaAt[i];
        },
        // The whole legal list, in order (indices into metaAt).
        setLegal: function (indices) {
            legalMetas = [];
            for (var i = 0; i < indices.length; ++i)
                legalMetas.push(metaAt[indices[i]]);
        },
        addFailClass: function (k, name) {
            failClasses[k] = name === CLASS_OK ? CLASS_OK : name === CLASS_ENV ? CLASS_ENV : name;
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
            // The new arrays are made by slice() and then overwritten: an
            // array of the right length from the start. This interpreter
            // stores past the end of an array (and into new Array(n), which
            // has a length but no room) on a slow path, about three times
            // the cost of a store inside it.
            var legal = legalMetas.slice(), roots = [];
            for (var i = 0; i < legal.length; ++i) {
                var lm = legalMetas[i];
                legal[i] = lm.id;
                if (lm.attempt === 0)
                    roots.push(lm.id);
            }
            // Fresh copies of the observations, made in the loop (a call per
            // copy would cost more than the copy).
            var obs = observed.slice();
            for (var j = 0; j < obs.length; ++j) {
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
})