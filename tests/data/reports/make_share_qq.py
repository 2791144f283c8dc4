#!/usr/bin/env python3
"""make_share_qq.py - a one-node .qq file (docs/FORMAT.md) where a key takes a third of the time
in many tiny intervals interleaved with a long key (tests/integration/test_view_share.sh).

usage: make_share_qq.py OUT.qq

One node at 1000 MHz (a tick is a nanosecond), keys 'tiny' and 'long'
(states, in that order, so 'long' is drawn over 'tiny'). For the first
20 ms only 'long' is on; then 20000 cycles of 'tiny' on for 1 us and
'long' on for 2 us: 'tiny' has a third of those 60 ms, in intervals far
below a picture column (80 us at 1500 columns over 80 ms).
"""
import struct
import sys

from qq_sections import keys_payload, meta_payload, section

STATE = 1
KEYS = [("tiny", STATE), ("long", STATE)]
TINY, LONG = 0, 1


def events():
    t = 1000
    ev = [(LONG, 1, t), (LONG, 0, t + 20_000_000)]
    t += 20_000_000
    for _ in range(20000):
        ev += [(TINY, 1, t), (TINY, 0, t + 1000), (LONG, 1, t + 1000), (LONG, 0, t + 3000)]
        t += 3000
    return ev


def main():
    out = sys.argv[1]
    meta = meta_payload("make_share_qq.py")
    keys = keys_payload(KEYS)
    ev = events()
    body_ev = b"".join(struct.pack("<IIqQ", k, 0, info, tick) for k, info, tick in ev)
    head = 64
    pre = section(b"META", 0xFFFFFFFF, meta) + section(b"KEYS", 0xFFFFFFFF, keys)
    pos = head + len(pre) + 16 + 64
    table = struct.pack("<IIQQQdQqd", 0, 3, pos + 16, len(ev), 1000, 1000.0, 0, 0, 0.0)
    body = pre + section(b"NODE", 0xFFFFFFFF, table) + section(b"EVTS", 0, body_ev)
    header = struct.pack("<8sHHIIIIIQ24s", b"QQPROF\r\n", 1, 0, head, 1, len(KEYS), 1, 0,
                         head + len(body), b"\0" * 24)
    with open(out, "wb") as f:
        f.write(header + body)


main()
