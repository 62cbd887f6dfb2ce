# Hostile: writes 10 GB to stdout.
import sys

chunk = b"x" * (1 << 20)
for _ in range(10 * 1024):
    sys.stdout.buffer.write(chunk)
