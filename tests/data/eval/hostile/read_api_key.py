# Hostile: prints every environment variable it can see.
import os

for name, value in sorted(os.environ.items()):
    print(f"{name}={value}")
