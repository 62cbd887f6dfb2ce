"""Initial program for sums_differences: Conway's classic set with more sums
than differences, {0, 2, 3, 4, 7, 11, 12, 14}."""
import json

print(json.dumps({"set": [0, 2, 3, 4, 7, 11, 12, 14]}))
