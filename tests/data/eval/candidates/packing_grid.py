# A valid packing of 26 circles: a 5x5 grid of radius 0.1 plus one small circle
# in a gap between four grid circles.
import json
import math

circles = []
for i in range(5):
    for j in range(5):
        circles.append([0.1 + 0.2 * i, 0.1 + 0.2 * j, 0.0999999])
gap = math.sqrt(2) * 0.1 - 0.1  # room at the centre of four touching circles
circles.append([0.2, 0.2, gap * 0.999])
print(json.dumps({"circles": circles}))
