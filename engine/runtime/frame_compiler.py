"""The fast path for control flow: a plan's frames compiled into one Python function.

A plan whose loops and conds have the shapes tf.while_loop and tf.cond build (one LoopCond
per frame; each loop variable Enter -> Merge(Enter, NextIteration) -> Switch(LoopCond) ->
Identity ... NextIteration, and Switch:0 -> Exit; only Enter and Exit cross frames) runs as
straight-line code over the plan's value slots: a frame is a `while True:` loop (its
condition part, a break when LoopCond is false, its body, the Merges taking the
NextIteration values), a nested frame is a loop inside the body, and dead tensors are the
frames.NO_VALUE sentinel in a slot, checked only where a cond's Switch can make one. The
semantics are engine/runtime/frames.py's (which runs everything this declines, and every traced
run); the gain is no per-node dispatch, no per-iteration bookkeeping.
"""

import numpy as np

from engine.runtime import deadline, loop_compiler
from engine.framework import errors
from engine.runtime.frames import (ARG, CONST, ENTER, EXIT, MERGE, NEXT, NO_VALUE, RETVAL, SWITCH,
                           TRIGGER)
from engine.runtime.node_run import read_ref
from engine.framework.topological import kahn_order


class Unsupported(Exception):
    """The plan's control flow has a shape the compiler does not take (frames.py runs it)."""


class _Compiler:
    def __init__(self, executor, items, frame_infos):
        self.executor, self.items, self.frames = executor, items, frame_infos
        self.num_slots = executor.plan.num_slots
        self.lines, self.env = [], {"DEAD": NO_VALUE}
        self.may_dead = {}
        self.flag = {}  # item pos -> slot of its dead flag (dead control sources)

    # -- analysis --

    def compile(self):
        children = {name: [] for name in self.frames}
        for name, info in self.frames.items():
            if info.parent is not None:
                children[info.parent.name].append(name)
        self.children = children
        for item in self.items:
            if item.node.op_type == "_SwitchN":  # a lowered Case: frames.py runs it
                raise Unsupported("a _SwitchN")
            for dst, out, dst_in in item.out_edges:
                if dst.frame is not item.frame and item.kind not in (ENTER, EXIT):
                    raise Unsupported("an edge crosses frames outside Enter/Exit")
        self.loops = {name: self._loop_shape(info) for name, info in self.frames.items()
                      if info.parent is not None}
        self._emit_frame(self.frames[""], 1)
        source = "def run(v, LIMIT):\n    p = -1\n    try:\n" + "\n".join(self.lines) + (
            "\n        pass\n    except Exception as error:\n"
            "        error._gi_position = p\n        raise\n")
        namespace = dict(self.env)
        try:
            code = compile(source, "<engine compiled frames>", "exec")
        except (SyntaxError, RecursionError, MemoryError) as error:
            # loops nested past Python's 100 levels of indentation (50 nested while_loops):
            # an IndentationError traceback from the run; frames.py runs them
            raise Unsupported(f"frames nested too deep to compile ({type(error).__name__})") from None
        exec(code, namespace)  # noqa: S102
        run = namespace["run"]
        run.source = source
        return run

    def _loop_shape(self, info):
        """The Merges, LoopCond, Switches and Exits of one while frame, checked."""
        loop_cond = [i for i in info.items if i.node.op_type == "LoopCond"]
        if len(loop_cond) != 1:
            raise Unsupported(f"frame {info.name} has {len(loop_cond)} LoopConds")
        loop_cond = loop_cond[0]
        switches = [dst for dst, _, _ in loop_cond.out_edges]
        if any(s.kind != SWITCH for s in switches):
            raise Unsupported("LoopCond feeds a non-Switch")
        merges = []
        for item in info.items:
            if item.kind == MERGE and item.num_inputs == 2 and item.initial_pending == 1:
                sources = self._data_sources(item)
                kinds = [s.kind for s, _ in sources]
                if kinds == [ENTER, NEXT] and sources[0][0].child_frame == info.name:
                    merges.append((item, sources[0][0], sources[1][0]))
        for item in info.exits:
            (src, out), = self._data_sources(item)
            if src not in switches or out != 0:
                raise Unsupported("an Exit not fed by a loop Switch's false output")
        for switch in switches:
            if any(dst.kind != EXIT for dst, out, _ in switch.out_edges if out == 0):
                raise Unsupported("a loop Switch's false output feeds a non-Exit")
        return merges, loop_cond, switches

    def _data_sources(self, item):
        sources = [None] * item.num_inputs
        for src in self.items:
            for dst, out, dst_in in src.out_edges:
                if dst is item and dst_in >= 0:
                    sources[dst_in] = (src, out)
        return sources

    def _order(self, units, deps):
        """Kahn's order of `units` (items and child-frame names) given unit -> deps."""
        position = {u: i for i, u in enumerate(units)}
        users = [[] for _ in units]
        for i, u in enumerate(units):
            for d in deps[u]:
                users[position[d]].append(i)
        order = [units[i] for i in kahn_order(users, [len(deps[u]) for u in units])]
        if len(order) != len(units):
            raise Unsupported("a cycle other than a loop's back edge")
        return order

    def _frame_units(self, info):
        """The frame's items (Exits of child frames excluded) and child frames, ordered."""
        unit_of = {}
        for item in info.items:
            unit_of[item.pos] = item
        for child in self.children[info.name]:
            for sub in self._frame_items_deep(self.frames[child]):
                unit_of[sub.pos] = child
        units = list(dict.fromkeys(unit_of.values()))
        deps = {u: set() for u in units}
        for src in self.items:
            su = unit_of.get(src.pos)
            if su is None and src.kind == EXIT:
                continue
            for dst, out, _ in src.out_edges:
                du = unit_of.get(dst.pos)
                if du is None or su is None or du == su:
                    continue
                if dst.kind == MERGE and src.kind == NEXT:
                    continue  # a back edge
                deps[du].add(su)
        return self._order(units, deps)

    def _frame_items_deep(self, info):
        result = list(info.items)
        for child in self.children[info.name]:
            result.extend(self._frame_items_deep(self.frames[child]))
        return result

    # -- emission --

    def _emit_frame(self, info, depth):
        for unit in self._frame_units(info):
            if isinstance(unit, str):
                self._emit_loop(self.frames[unit], depth)
            elif unit.kind != EXIT or info.parent is None:
                self._emit_item(unit, depth)

    def _emit_loop(self, info, depth):
        merges, loop_cond, switches = self.loops[info.name]
        pad = "    " * (depth + 1)
        enters = [enter for _, enter, _ in merges]
        n = f"iterations{len(self.lines)}"  # not n<pos>: those name nodes in env
        dead_enter = " or ".join(f"v[{self._slot(e, 0)}] is DEAD" for e in enters) or "False"
        self.lines.append(f"{pad}if {dead_enter}:")
        for exit_item in info.exits:
            self.lines.append(f"{pad}    v[{self._slot(exit_item, 0)}] = DEAD")
        self._dead_flags(info.exits, pad + "    ", "True")
        self.lines.append(f"{pad}else:")
        live_start = len(self.lines)
        pad2 = pad + "    "
        for merge, enter, _ in merges:
            self.lines.append(f"{pad2}v[{self._slot(merge, 0)}] = v[{self._slot(enter, 0)}]")
        self.env[f"NAME_{n}"] = info.name
        for exit_item in info.exits:
            self.may_dead[exit_item.pos] = any(self.may_dead.get(e.pos) for e in enters)
        self.lines.append(f"{pad2}{n} = 0")
        self.lines.append(f"{pad2}while True:")
        body_start = set(switches)
        units = self._frame_units(info)
        downstream = self._downstream(body_start, units)
        merge_items = {m for m, _, _ in merges}
        pad3 = pad2 + "    "
        for unit in units:
            if unit in downstream or (not isinstance(unit, str) and unit in merge_items):
                continue
            self._emit_unit(unit, depth + 3)
        self.lines.append(f"{pad3}if not v[{self._slot(loop_cond, 0)}]: break")
        for switch in switches:
            data, pred = self._data_sources(switch)
            self.lines.append(f"{pad3}v[{self._slot(switch, 1)}] = v[{self._slot(*data)}]")
        for unit in units:
            if unit in downstream and unit not in body_start and unit not in merge_items:
                self._emit_unit(unit, depth + 3)
        self.lines.append(f"{pad3}{n} += 1")
        next_pos = merges[0][2].pos if merges else loop_cond.pos
        self.lines.append(f"{pad3}if {n} >= LIMIT: p = {next_pos}; runaway(NAME_{n}, LIMIT)")
        self.lines.append(f"{pad3}if not {n} % {deadline.CHECK_EVERY}: p = {next_pos}; check_deadline()")
        for merge, _, next_item in merges:
            self.lines.append(f"{pad3}v[{self._slot(merge, 0)}] = v[{self._slot(next_item, 0)}]")
        for exit_item in info.exits:
            (switch, _), = self._data_sources(exit_item)
            data, _ = self._data_sources(switch)
            self.lines.append(f"{pad2}v[{self._slot(exit_item, 0)}] = v[{self._slot(*data)}]")
        self.env["runaway"] = _runaway
        self.env["check_deadline"] = deadline.check
        if not self.children[info.name]:
            self._compiled_loop(info, live_start, pad2, n, next_pos)

    def _compiled_loop(self, info, live_start, pad, n, next_pos):
        """Where the frame can run compiled (runtime/loop_compiler.py), the Python loop just
        emitted from `live_start` on becomes the fallback of a call to the compiled loop."""
        merges, loop_cond, switches = self.loops[info.name]
        enters = [item for item in self.items
                  if item.kind == ENTER and item.child_frame == info.name]
        planned = loop_compiler.plan(info, merges, loop_cond, switches, enters,
                                     self._data_sources)
        if planned is None:
            return
        loop, arguments, exits = planned
        name = f"LOOP_{n}"
        self.env[name] = loop
        count = len(merges)
        state = "".join(f"v[{self._slot(e, 0)}], " for e in arguments[:count])
        invariants = "".join(f"v[{self._slot(e, 0)}], " for e in arguments[count:])
        fallback = ["    " + line for line in self.lines[live_start:]]
        fallback.append(f"{pad}    {name}.ran({n})")
        call = [f"{pad}p = {next_pos}",
                f"{pad}r = {name}(LIMIT, runaway, ({state}), ({invariants}))",
                f"{pad}if r is not None:"]
        call += [f"{pad}    v[{self._slot(exit_item, 0)}] = r[{variable}]"
                 for exit_item, variable in zip(info.exits, exits)]
        call.append(f"{pad}else:")
        self.lines[live_start:] = call + fallback

    def _downstream(self, starts, units):
        unit_set = set(units)
        seen, stack = set(starts), list(starts)
        while stack:
            item = stack.pop()
            for dst, _, _ in item.out_edges:
                if dst.kind == MERGE and item.kind == NEXT:
                    continue  # the back edge
                unit = dst if dst in unit_set else next(
                    (u for u in units if isinstance(u, str) and self._in_frame(dst, u)), None)
                if unit is None or unit in seen:
                    continue
                seen.add(unit)
                if isinstance(unit, str):
                    for exit_item in self.frames[unit].exits:
                        stack.append(exit_item)
                else:
                    stack.append(unit)
        return seen

    def _in_frame(self, item, name):
        info = item.frame
        while info is not None:
            if info.name == name:
                return True
            info = info.parent
        return False

    def _emit_unit(self, unit, depth):
        if isinstance(unit, str):
            self._emit_loop(self.frames[unit], depth - 1)
        elif unit.kind != EXIT:
            self._emit_item(unit, depth - 1)

    def _slot(self, item, out):
        return item.node.output_slots[out]

    def _dead_flags(self, items, pad, value):
        for item in items:
            if item.pos in self.flag:
                self.lines.append(f"{pad}v[{self.flag[item.pos]}] = {value}")

    def _emit_item(self, item, depth):
        pad = "    " * (depth + 1)
        node = item.node
        sources = self._data_sources(item)
        controls = [src for src in self.items for dst, _, i in src.out_edges
                    if dst is item and i < 0]
        ins = [f"v[{self._slot(s, o)}]" for s, o in sources]
        maybe = [x for (s, o), x in zip(sources, ins) if self.may_dead.get(s.pos)]
        control_dead = [] if item.kind in (MERGE, TRIGGER) else [  # ControlTrigger never dies
            f"v[{self._control_flag(c)}]" for c in controls if self.may_dead.get(c.pos)]
        outs = [f"v[{slot}]" for slot in node.output_slots]
        if item.kind == MERGE:
            self.may_dead[item.pos] = all(self.may_dead.get(s.pos) for s, _ in sources)
            first, rest = ins[0], ins[1:]
            self.lines.append(f"{pad}{outs[0]}, {outs[1]} = {first}, I0")
            self.env["I0"] = np.int32(0)
            for index, x in enumerate(rest, 1):
                self.env[f"I{index}"] = np.int32(index)
                self.lines.append(f"{pad}if {outs[0]} is DEAD: {outs[0]}, {outs[1]} = {x}, I{index}")
            self.lines.append(f"{pad}if {outs[0]} is DEAD: {outs[1]} = DEAD")
            self._flag_from(item, pad, f"{outs[0]} is DEAD")
            return
        dead_terms = [f"{x} is DEAD" for x in maybe] + control_dead
        is_dead = " or ".join(dead_terms)
        self.may_dead[item.pos] = bool(dead_terms) or item.kind == SWITCH
        inner = pad
        if dead_terms:
            self.lines.append(f"{pad}if {is_dead}:")
            for out in outs or ["_"]:
                self.lines.append(f"{pad}    {out} = DEAD")
            self._dead_flags([item], pad + "    ", "True")
            self.lines.append(f"{pad}else:")
            inner = pad + "    "
            self.lines.append(f"{inner}pass")
            if item.kind == CONST:  # a later iteration may find it live again
                self.env[f"K{item.pos}"] = item.const
                self.lines.append(f"{inner}{outs[0]} = K{item.pos}")
        self._emit_live(item, ins, outs, inner)
        self._dead_flags([item], inner, "False")

    def _flag_from(self, item, pad, expr):
        if item.pos in self.flag:
            self.lines.append(f"{pad}v[{self.flag[item.pos]}] = {expr}")

    def _control_flag(self, item):
        if item.pos not in self.flag:
            self.flag[item.pos] = self.num_slots + len(self.flag)
            raise _Restart()
        return self.flag[item.pos]

    def _emit_live(self, item, ins, outs, pad):
        node, kind = item.node, item.kind
        if kind in (CONST, TRIGGER) or (kind == CONST and item.const is not None):
            return
        if kind == ARG:
            return  # the feed is in its slot already
        if kind == RETVAL:
            return
        if kind == SWITCH:
            data, pred = ins
            self.lines.append(f"{pad}if {pred}: {outs[0]}, {outs[1]} = DEAD, {data}")
            self.lines.append(f"{pad}else: {outs[0]}, {outs[1]} = {data}, DEAD")
            return
        if kind in (ENTER, EXIT, NEXT) or node.op_type in ("LoopCond", "Identity") and \
                len(ins) == 1 and not any(node.deref):
            self.lines.append(f"{pad}{outs[0]} = {ins[0]}")
            return
        k, c = f"k{item.pos}", f"c{item.pos}"
        self.env[k], self.env[c] = item.kernel, item.ctx
        if item.deref is not None:
            self.env[f"n{item.pos}"] = node
            self.env["rr"] = read_ref
            ins = [f"rr({x}, n{item.pos})" if d else x for x, d in zip(ins, item.deref)]
        call = f"{k}({', '.join([c] + ins)})"
        self.lines.append(f"{pad}p = {item.pos}")
        if not outs:
            self.lines.append(f"{pad}{call}")
        elif len(outs) == 1:
            self.lines.append(f"{pad}{outs[0]} = {call}")
        else:
            self.lines.append(f"{pad}{', '.join(outs)} = {call}")


class _Restart(Exception):
    """A control source needs a dead flag: emit again now that it has one."""


def _runaway(frame, limit):
    raise errors.ResourceExhaustedError(
        None, None, f"Loop frame '{frame}' ran more than {limit} iterations (the engine's "
                    f"runaway-loop limit; raise it with the GI_MAX_LOOP_ITERATIONS environment "
                    f"variable)")


def compile_plan(executor, items, frame_infos):
    """(run(values, limit), number of value slots it needs) or (None, 0) when unsupported.

    Emitted again once per control source found to need a dead flag (a slot of its own)."""
    flags = {}
    for _ in range(len(items) + 1):
        compiler = _Compiler(executor, items, frame_infos)
        compiler.flag = dict(flags)
        try:
            return compiler.compile(), compiler.num_slots + len(compiler.flag)
        except _Restart:
            flags = compiler.flag
        except Unsupported:
            return None, 0
    return None, 0
