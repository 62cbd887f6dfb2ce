# Scores a toy program for the round-runner tests: the score is VALUE.
import json
import re
import sys

text = open(sys.argv[-1]).read()
if "FAIL" in text:
    print(json.dumps({"score": None, "valid": False, "fail_class": "runtime",
                      "error": "the program asked to fail"}))
    sys.exit(0)
match = re.search(r"VALUE\s*=\s*(-?\d+)", text)
if not match:
    print(json.dumps({"score": None, "valid": False, "fail_class": "correctness",
                      "error": "no VALUE line"}))
    sys.exit(0)
print(json.dumps({"score": float(match.group(1)), "valid": True, "fail_class": "ok",
                  "error": None, "n_valid": 1, "n_total": 1}))
