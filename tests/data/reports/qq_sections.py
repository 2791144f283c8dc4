"""qq_sections.py - the section framing the .qq generators share (docs/FORMAT.md):
make_qq.py, make_share_qq.py and make_threads_qq.py import it from this folder."""
import struct


def pad8(b):
    return b + b"\0" * (-len(b) % 8)


def section(tag, node, payload):
    payload = pad8(payload)
    return struct.pack("<4sIQ", tag, node, len(payload)) + payload


def meta_payload(command):
    """The META section's payload: host, date, tick source and COMMAND, fixed for a golden file."""
    meta = b""
    for name, value in (("host", "testhost"), ("date", "2026-01-01T00:00:00Z"),
                        ("tick_source", "rdtsc"), ("command", command)):
        meta += struct.pack("<I", len(name)) + name.encode()
        meta += struct.pack("<I", len(value)) + value.encode()
    return meta


def keys_payload(table):
    """The KEYS section's payload of TABLE, a list of (name, type)."""
    keys = b""
    for i, (name, typ) in enumerate(table):
        keys = pad8(keys + struct.pack("<III", i, typ, len(name.encode())) + name.encode())
    return keys
