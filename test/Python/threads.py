"""Sets and reads the runtime's thread count through amp_mlir (threads.test)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import amp_mlir  # noqa: E402

for threads in (1, 2):
    amp_mlir.set_num_threads(threads)
    print("threads", amp_mlir.get_num_threads())
try:
    amp_mlir.set_num_threads(0)
except ValueError as error:
    print(f"ValueError: {error}")
