#!/usr/bin/env python3
"""Damages a checkpoint (format 2) or any file for the bad-input tests.

  edit_checkpoint.py flip IN OUT OFFSET BIT   one bit flipped (any file)
  edit_checkpoint.py counters IN OUT STEPS SKIPPED
      the step and skip counters replaced and the checksum recomputed: a
      well-formed file with impossible counters
"""
import struct
import sys
import zlib

HEADER = 8  # magic; then fingerprint, steps, skipped, number of args (u64)


def main():
    mode, source, target = sys.argv[1:4]
    data = bytearray(open(source, "rb").read())
    if mode == "flip":
        offset, bit = int(sys.argv[4]), int(sys.argv[5])
        data[offset] ^= 1 << bit
    elif mode == "counters":
        steps, skipped = int(sys.argv[4]), int(sys.argv[5])
        struct.pack_into("<qq", data, HEADER + 8, steps, skipped)
        payload = data[:-4]
        data = payload + struct.pack("<I", zlib.crc32(payload))
    else:
        sys.exit(f"unknown mode {mode}")
    open(target, "wb").write(bytes(data))


if __name__ == "__main__":
    main()
