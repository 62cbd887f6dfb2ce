"""Initial program for circle_packing_26: a ring layout with safe radii.

Centres: one in the middle, rings of 8 and 17 around it. Radii start at the
distance to the nearest wall and are then shrunk pair by pair until no two
circles overlap, so the output is always valid.
"""
import json
import math


def layout():
    centres = [(0.5, 0.5)]
    for k in range(8):
        a = 2 * math.pi * k / 8
        centres.append((0.5 + 0.23 * math.cos(a), 0.5 + 0.23 * math.sin(a)))
    for k in range(17):
        a = 2 * math.pi * k / 17 + 0.1
        centres.append((0.5 + 0.41 * math.cos(a), 0.5 + 0.41 * math.sin(a)))
    return [(min(max(x, 0.02), 0.98), min(max(y, 0.02), 0.98)) for x, y in centres]


def safe_radii(centres):
    radii = [min(x, 1 - x, y, 1 - y) for x, y in centres]
    changed = True
    while changed:
        changed = False
        for i in range(len(centres)):
            for j in range(i + 1, len(centres)):
                d = math.dist(centres[i], centres[j])
                if radii[i] + radii[j] > d:
                    scale = d / (radii[i] + radii[j]) * (1 - 1e-12)
                    radii[i] *= scale
                    radii[j] *= scale
                    changed = True
    return radii


centres = layout()
radii = safe_radii(centres)
print(json.dumps({"circles": [[x, y, r] for (x, y), r in zip(centres, radii)]}))
