# Hostile: asks for 50 GB at once and touches it.
block = bytearray(50 * 1024 ** 3)
block[::4096] = b"x" * len(block[::4096])
print(len(block))
