# Prints prose instead of a JSON construction.
print("Here is my packing: twenty-six lovely circles, trust me.")
