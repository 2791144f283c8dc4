#!/usr/bin/env python3
"""make_threads_qq.py - write a .qq file (version 1.1, docs/FORMAT.md) of one node with many threads.

usage: make_threads_qq.py OUT.qq THREADS

One node at 1000 MHz; thread i (named w<i>, tid 1000+i) turns state 'work'
on at tick 1000+10i and off 5 ticks later: two entries each, in thread
blocks, with a THRD row per thread. 150,000 threads make about 12 MB (the
file of issue 33 that qqbench view drew in quadratic time).
"""
import struct
import sys

from qq_sections import pad8, section


def main():
    out, nthreads = sys.argv[1], int(sys.argv[2])
    keys = pad8(struct.pack("<III", 0, 1, 4) + b"work")
    evts = bytearray()
    rows = bytearray(struct.pack("<II", nthreads, 0))
    for i in range(nthreads):
        evts += struct.pack("<IIqQ", 0, i, 1, 1000 + 10 * i)
        evts += struct.pack("<IIqQ", 0, i, 0, 1005 + 10 * i)
        name = b"w%d" % i
        rows += struct.pack("<IIQQQ", i, len(name), 1000 + i, 2, 0) + name
        rows += b"\0" * (-len(rows) % 8)
    head = 64
    pre = section(b"KEYS", 0xFFFFFFFF, keys)
    pos = head + len(pre) + 16 + 64
    table = struct.pack("<IIQQQdQqd", 0, 1, pos + 16, 2 * nthreads, 1000, 1000.0, 0, 0, 0.0)
    body = pre + section(b"NODE", 0xFFFFFFFF, table)
    body += section(b"EVTS", 0, bytes(evts)) + section(b"THRD", 0, bytes(rows))
    size = head + len(body)
    header = struct.pack("<8sHHIIIIIQ24s", b"QQPROF\r\n", 1, 1, head, 1, 1, 1, 0, size,
                         b"\0" * 24)
    with open(out, "wb") as f:
        f.write(header + body)


main()
