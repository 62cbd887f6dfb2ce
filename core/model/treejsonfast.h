#pragma once

#include "compacttree.h"
#include "treejson.h"
#include "treesummary.h"

#include <optional>

namespace dreamrsi::TreeJson::detail {

/// The fast reading of a tree file (simdjson), used by TreeJson::parse.
///
/// It decides only files that are valid JSON and pass every check of
/// docs/tree-format.md cell by cell; it then returns the same tree the reference
/// reading (QJsonDocument, parseReference) returns, payload included, every
/// number as QJsonDocument holds it (zeros in any form, "-0.0" as 0,
/// subnormals, integral doubles). For anything else (a syntax error, a wrong
/// type, a repeated key, a number QJsonDocument rejects such as the underflow
/// "1e-400", an integer text beyond 64 bits, which simdjson does not take, a
/// very deep or very large document) it returns nothing and the caller runs
/// the reference reading, so every verdict and message stays exactly the
/// reference's.
std::optional<ParseResult> parseFast(const QByteArray &json);

/// parseFast() of `size` bytes at `data`, which stay readable for
/// paddingBytes() more (so that the parser need not copy the document).
/// With `keepPayload` false, payload keys are checked as always but the
/// tree holds none (TreeJson::Payload::Skip).
std::optional<ParseResult> parseFastPadded(const char *data, qsizetype size, bool keepPayload = true);
qsizetype paddingBytes();

/// The compact form (for replaying built-in policies) of `size` padded bytes
/// at `data`, when parseFastPadded() would return a tree: every check of
/// docs/tree-format.md passes. Nothing for anything else, which the full reading
/// then decides.
std::optional<CompactTree> parseCompactPadded(const char *data, qsizetype size);

/// The summary's facts (treeFacts() of the tree parseFastPadded() would
/// return) of `size` padded bytes at `data`, read as parseCompactPadded()
/// reads them; nothing where that declines.
std::optional<TreeFacts> parseFactsPadded(const char *data, qsizetype size);

} // namespace dreamrsi::TreeJson::detail
