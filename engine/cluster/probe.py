"""Asking an address what listens there, each question with a deadline: a TCP connect
(`listening`), and a Dask server's identity (`identity`, a handshake and one answer), so a
peer that accepts and never answers is a timeout, not a hang."""

import asyncio
import socket

IDENTITY_TIMEOUT_S = 5


def listening(address, timeout=2.0):
    """Whether anything accepts connections at host:port within `timeout` seconds (Dask's
    own connect retries a refused address until its timeout)."""
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            return True
    except (OSError, ValueError):
        return False


async def identity(address, timeout=IDENTITY_TIMEOUT_S, **kwargs):
    """The Dask server at `address` says what it is; None when nothing answers there
    within `timeout` (refused, or accepted and silent)."""
    from distributed import rpc
    remote = rpc(address, timeout=timeout)
    try:
        return await asyncio.wait_for(remote.identity(**kwargs), timeout)
    except (OSError, asyncio.TimeoutError):
        return None
    finally:
        await remote.close_rpc()
