"""A Bolt handshake: the cheapest proof that a Neo4j server answers on a port."""

from __future__ import annotations

import socket

_MAGIC = bytes.fromhex("6060B017")
# Offer 5.0-5.8, then 4.4; Neo4j answers with the version it picked.
_PROPOSALS = bytes.fromhex("00080805000004040000000000000000")


def bolt_answers(host: str, port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            conn.sendall(_MAGIC + _PROPOSALS)
            reply = conn.recv(4)
    except OSError:
        return False
    return len(reply) == 4 and reply != b"\x00\x00\x00\x00"


def port_is_free(host: str, port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True
