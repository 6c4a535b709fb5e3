"""Whose turn it is: the partition threads of a debugged run move one at a time, in a fixed order.

A run over several devices has one executor thread per partition (engine/runtime/session.py). The
debugger gives one of them the turn at a time; the others wait at their next observer
callback, so stepping shows one order of nodes, and the same order every time for one run:

- a thread may change hands only where a node starts (and at its executor's start): the
  turn then goes to the waiting thread of the first device in the run's order (the client's
  first), once every other thread has come to rest;
- a thread gives the turn up while its kernel runs, so a _Recv waiting for a tensor never
  holds what the sending thread needs; a thread at rest is one waiting for the turn, one in a
  _Recv whose tensor has not been sent, or one whose executor has ended. When any other
  kernel returns, its thread takes the turn back at once (nobody else had it);
- a _Send's tensor counts as sent when its kernel returns, so the receiving thread is awaited
  (not at rest) from then on: a _Recv always finishes after its _Send, and its thread comes
  back in the same place whatever the OS scheduler did.

When no thread has had the turn for STALL_SECONDS while one waits (a kernel that blocks on
something the debugger does not know of), the first waiting thread gets it anyway: the order
may then vary, but the run goes on.
"""

from __future__ import annotations

import time

from engine.framework import op_families

STALL_SECONDS = 2.0

STARTING, WAITING, HOLDING, KERNEL, RECEIVING, DONE = (
    "starting", "waiting", "holding", "in a kernel", "receiving", "done")



class Lane:
    """One partition's executor thread: its device, its place in the order, what it does."""

    __slots__ = ("device", "rank", "state", "key")

    def __init__(self, device, rank):
        self.device, self.rank, self.state, self.key = device, rank, STARTING, None

    def __repr__(self):
        return f"Lane({self.device!r}, {self.state})"


def transfer_key(node):
    """What pairs a _Send with its _Recv (as the rendezvous key does).

    >>> from engine.proto import node_def_pb2
    >>> node_def = node_def_pb2.NodeDef(name="x/_1", op="_Recv")
    >>> for key in ("send_device", "recv_device", "tensor_name"):
    ...     node_def.attr[key].s = key.encode()
    >>> transfer_key(type("Node", (), {"node_def": node_def})())
    (b'send_device', b'recv_device', b'tensor_name')
    """
    attr = node.node_def.attr
    return attr["send_device"].s, attr["recv_device"].s, attr["tensor_name"].s


class Turns:
    """The turn among a run's lanes. Every method is called with `cond`'s lock held."""

    def __init__(self, cond):
        self.cond = cond
        self.lanes = []
        self.holder = None
        self._in_flight = {}      # transfer key -> sent and not yet received
        self._free_since = time.monotonic()   # when the turn last became free

    def add_lane(self, device):
        lane = Lane(device, len(self.lanes))
        self.lanes.append(lane)
        return lane

    # A lane's thread calls these ------------------------------------------------------------

    def take(self, lane, check):
        """Returns once `lane` holds the turn; `check()` raises when the run is stopped."""
        check()
        if self.holder is lane:
            return
        lane.state = WAITING
        self._grant()
        while self.holder is not lane:
            waited = time.monotonic() - (self._free_since or time.monotonic())
            if self.holder is None and waited >= STALL_SECONDS:
                self._grant(stalled=True)
                continue
            self.cond.wait(STALL_SECONDS - waited if self.holder is None else None)
            check()

    def switch(self, lane, check):
        """A node is about to start on `lane`: the turn may go to a lane first in the order."""
        if self.holder is lane:
            self._release(lane, WAITING)
        self.take(lane, check)

    def kernel_starts(self, node, lane):
        """`lane` runs `node`'s kernel without the turn (a _Recv may wait for another lane)."""
        if node.op_type in op_families.RECV:
            lane.key = transfer_key(node)
            self._release(lane, RECEIVING)
        else:
            self._release(lane, KERNEL)

    def kernel_ends(self, node, lane, check):
        if node.op_type in op_families.SEND:
            key = transfer_key(node)
            self._in_flight[key] = self._in_flight.get(key, 0) + 1
        elif node.op_type in op_families.RECV:
            self._in_flight[lane.key] = self._in_flight.get(lane.key, 0) - 1
            lane.key = None
        if lane.state == KERNEL and self.holder is None:
            self._hand(lane)   # it had the turn: nobody moved while its kernel ran
        else:
            self.take(lane, check)

    def done(self, lane):
        """`lane`'s executor has returned or failed."""
        self._release(lane, DONE)

    # -----------------------------------------------------------------------------------------

    def _release(self, lane, state):
        lane.state = state
        if self.holder is lane:
            self.holder = None
            self._free_since = time.monotonic()
            self.cond.notify_all()   # waiting lanes start counting a stall from now
        self._grant()

    def _hand(self, lane):
        self.holder, lane.state = lane, HOLDING
        self._free_since = None
        self.cond.notify_all()

    def _at_rest(self, lane):
        if lane.state == RECEIVING:
            return self._in_flight.get(lane.key, 0) <= 0
        return lane.state in (WAITING, DONE)

    def _grant(self, stalled=False):
        if self.holder is not None:
            return
        if not stalled and not all(self._at_rest(lane) for lane in self.lanes):
            return   # a lane still moving may come to wait with a better place in the order
        waiting = [lane for lane in self.lanes if lane.state == WAITING]
        if waiting:
            self._hand(waiting[0])
