#!/usr/bin/env python3
"""make_qq.py - write a small .qq file byte by byte (docs/FORMAT.md) with known ticks and tick offsets.

usage: make_qq.py OUT.qq [--damage key]

Two nodes at 1000 MHz (one tick is one nanosecond). Node 1's counter runs
500 ticks ahead of node 0's (tick_offset 500, error bound 20 ticks), so on
node 0's time line its tick t is t - 500; the run starts at tick 1000.
Node 1 leaves 'step' on at the end (unbalanced). --damage key gives an
entry a key index past the key table (the reader must refuse the file).
"""
import struct
import sys

from qq_sections import keys_payload, meta_payload, section

STATE, MARK, COUNT, VALUE = 1, 2, 3, 4
KEYS = [("step", STATE), ("MessageBus::Sync", STATE), ("tick", MARK),
        ("queue", COUNT), ("V", VALUE), ('odd,"name"', MARK)]
# (key, info, tick); info is an int, or a float for values.
NODES = [
    dict(base=1000, offset=0, error=0.0, events=[
        (0, 1, 2000), (1, 1, 3000), (1, 0, 5000), (2, 0, 5500),
        (3, 7, 6000), (4, 1.5, 6500), (0, 0, 8000), (5, 0, 8500)]),
    dict(base=1500, offset=500, error=20.0, events=[
        (0, 1, 2600), (1, 1, 3500), (1, 0, 7500), (3, 3, 7600),
        (4, -2.5, 7700), (0, 0, 8600), (0, 1, 9000), (4, 0.5, 9500)]),
]


def main():
    out = sys.argv[1]
    damage = sys.argv[2:] == ["--damage", "key"]
    meta = meta_payload("make_qq.py")
    keys = keys_payload(KEYS)
    evts = []
    for n, node in enumerate(NODES):
        body = b""
        for j, (key, info, tick) in enumerate(node["events"]):
            if damage and n == 1 and j == 2:
                key = len(KEYS) + 3
            if KEYS[key % len(KEYS)][1] == VALUE and isinstance(info, float):
                body += struct.pack("<IIdQ", key, 0, info, tick)
            else:
                body += struct.pack("<IIqQ", key, 0, info, tick)
        evts.append(body)
    head = 64
    pre = section(b"META", 0xFFFFFFFF, meta) + section(b"KEYS", 0xFFFFFFFF, keys)
    node_len = 16 + 64 * len(NODES)
    pos = head + len(pre) + node_len
    table = b""
    for n, node in enumerate(NODES):
        offset = pos + 16  # the EVTS payload
        table += struct.pack("<IIQQQdQqd", n, 3, offset, len(node["events"]),
                             node["base"], 1000.0, 0, node["offset"], node["error"])
        pos += 16 + len(evts[n])
    body = pre + section(b"NODE", 0xFFFFFFFF, table)
    for n in range(len(NODES)):
        body += section(b"EVTS", n, evts[n])
    size = head + len(body)
    header = struct.pack("<8sHHIIIIIQ24s", b"QQPROF\r\n", 1, 0, head, 1, len(KEYS),
                         len(NODES), 0, size, b"\0" * 24)
    with open(out, "wb") as f:
        f.write(header + body)


main()
