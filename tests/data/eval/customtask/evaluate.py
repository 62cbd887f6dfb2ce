"""Custom evaluator of the closest_to_pi test task: runs the candidate given
as the first argument and prints the score JSON on its last line."""
import json
import math
import subprocess
import sys

try:
    run = subprocess.run([sys.executable, sys.argv[1]], capture_output=True, text=True, timeout=10)
    value = float(json.loads(run.stdout.strip().splitlines()[-1])["value"])
except Exception as error:  # any failure of the candidate is its own fault
    print(json.dumps({"score": None, "valid": False, "fail_class": "runtime", "error": str(error)}))
    sys.exit(0)
print("evaluated", value)
print(json.dumps({"score": 1 / (1 + abs(value - math.pi)), "valid": True, "fail_class": "ok",
                  "error": None, "n_valid": 1, "n_total": 1, "metrics": {"value": value}}))
