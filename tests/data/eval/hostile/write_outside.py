# Hostile: writes the file named by the first argument (outside its work directory).
import sys

with open(sys.argv[1], "w") as f:
    f.write("escaped")
print("written")
