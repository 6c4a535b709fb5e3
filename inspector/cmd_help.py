"""`graph-inspector help [TOPIC]`: what the tool reads and writes, its keys and its environment."""

from __future__ import annotations

import sys

from parsers.errors import InputError

FORMATS = """\
What graph-inspector reads (decided by content, not by file name):
  GraphDef            .pb (binary) or .pbtxt (text), as tf.io.write_graph writes it
  MetaGraphDef        .meta, as tf.train.Saver / export_meta_graph write it
  SavedModel          a directory holding saved_model.pb or saved_model.pbtxt
  RunMetadata         .pb/.pbtxt: step stats, partition graphs, cost graph (FULL_TRACE)
  TensorBoard events  events.out.tfevents.* files, or a log directory of them
  graph dumps         a TF_DUMP_GRAPH_PREFIX directory of .pbtxt dumps
  VLOG logs           TensorFlow's stderr with TF_CPP_MAX_VLOG_LEVEL set (graph dumps,
                      executor traces, placement and memory lines); `vlog` reads them
  -                   stdin, for info, dot, vlog, trace and tensorboard

What it writes:
  dot -o OUT          .dot/.gv (DOT text), .svg, .png or .pdf (rendered by Graphviz's dot)
  trace -o OUT        a Chrome trace JSON (ui.perfetto.dev, chrome://tracing)
  run --trace OUT     the run's RunMetadata, .pb (binary) or .pbtxt (text)
  run --save OUT.npz  the fetched values, as numpy.savez writes them
  vlog -o DIR         graph_NNNN.dot (and .svg) per dump, trace_step_N.json per step
  tensorboard --logdir DIR   a run directory per input, with event files TensorBoard reads
  info --json         a fixed JSON shape (see README, "graph-inspector info")
"""

ENVIRONMENT = """\
Environment variables:
  TF_CPP_MAX_VLOG_LEVEL, TF_CPP_MIN_VLOG_LEVEL, TF_CPP_VMODULE
      as in TensorFlow: how much VLOG output the engine writes to stderr (level 1 and up:
      graph dumps and executor traces that `graph-inspector vlog` reads back)
  TF_CPP_MIN_LOG_LEVEL
      as in TensorFlow: 1 and up hides the INFO lines (log_device_placement's among them)
  GI_MAX_LOOP_ITERATIONS
      the engine's runaway-loop limit for while loops (default 1,000,000 iterations)
  GI_ENGINE_DEBUG
      1: the executor checks every kernel output's dtype and count against the graph
  GI_CHAIN_STEPS
      0: the untraced fast path runs each elementwise op on its own, not chains of them as
      one compiled loop (nor on a product's rows as they are made), and tf.nn.moments' three
      nodes one by one (the values are the same)
  GRAPH_INSPECTOR_REWRITE
      off: no graph optimizer pass runs in any session of the process (constant folding,
      arithmetic, CSE, dead branches, dependency optimization; see `graph-inspector optimize`)
  GRAPH_INSPECTOR_COMPILED
      0: no compiled (numba) kernel, the NumPy kernels serve everywhere; sync: load the
      compiled kernels in the calling thread instead of in the background
  GRAPH_INSPECTOR_ALIGNED_MEMORY
      0: NumPy allocates array data as it does (16-byte boundaries); by default, once the
      compiled kernels load, it puts arrays of 1 KiB and more on 64-byte boundaries, as
      TensorFlow does its tensors (a compiled loop over misaligned arrays ran up to 25% slower)
  GRAPH_INSPECTOR_MALLOC
      system: a session leaves glibc's malloc as it is (by default the first session has it
      keep freed blocks up to 32 MiB, and 256 MiB of free heap, for the next step's tensors)
  GRAPH_INSPECTOR_VLOG_NATIVE
      off: VLOG logs are read by the pure-Python reader, not the C scanner (the same
      graphs, steps and JSON, several times slower)
  GRAPH_INSPECTOR_SIMULATED_GPUS
      N: give the engine N simulated GPUs (NumPy behind CuPy's API), so placement and
      partitioning look as on a GPU machine
  GRAPH_INSPECTOR_CACHE_DIR, XDG_CACHE_HOME
      where compiled fused chains are cached: GRAPH_INSPECTOR_CACHE_DIR, else
      $XDG_CACHE_HOME/graph-inspector, else ~/.cache/graph-inspector (`graph-inspector warm`
      fills it once and stamps it)
  NUMBA_CACHE_DIR
      numba's own: where the Philox kernels are cached when set (else next to their source);
      part of the warm stamp's key
  TF_DEVICE_FOR_UNINITIALIZED_VARIABLE_REPORTING
      as in TensorFlow: the device of report_uninitialized_variables
"""

OUTPUTS = """\
How every command writes:
  results (summaries, JSON, fetched values) go to stdout; progress, notes, warnings and
  "wrote ..." lines go to stderr, so `graph-inspector info x.pb > summary.txt` holds only
  the summary.
  -o - writes to stdout where the format is one file (dot, trace).
  Every file is written to a temporary file beside it and renamed into place: a write that
  fails (full disk, file-size limit) leaves the old file as it was. A command that writes a
  directory (vlog -o, tensorboard --logdir) and cannot finish takes back what it wrote.
  An output that is one of the inputs is refused, as is a missing directory; paths are
  checked before any work.
Exit status:
  0  done
  1  a graph failed while running (the error names the node, its op and its line of Python)
  2  bad input or an output that cannot be written: one line `error: <path>: <what>`
  130  interrupted (Ctrl-C)
"""


def keys_text():
    """The TUI's keys, from its binding tables (views/tui/bindings.py)."""
    from views.tui import bindings

    lines = ["Keys in the terminal UI (graph-inspector PATH...; ? shows them there too):"]
    for section, table in bindings.HELP_SECTIONS.items():
        lines.append(f"\n{section}")
        rows = [(b.key_display or b.key, b.description or b.action) for b in table]
        rows += bindings.HELP_EXTRA.get(section, [])
        seen = set()
        for key, description in rows:
            if (key, description) not in seen:
                seen.add((key, description))
                lines.append(f"  {key:>14}  {description}")
    return "\n".join(lines) + "\n"


TOPICS = {
    "formats": ("what it reads and writes", lambda: FORMATS),
    "keys": ("the terminal UI's keys", keys_text),
    "environment": ("environment variables", lambda: ENVIRONMENT),
    "outputs": ("stdout and stderr, how files are written, exit status", lambda: OUTPUTS),
}


def add_arguments(parser):
    parser.add_argument("topic", nargs="?", choices=sorted(TOPICS), metavar="TOPIC",
                        help="one of: " + ", ".join(sorted(TOPICS)))


def run(args):
    if args.topic is None:
        lines = ["Topics (graph-inspector help TOPIC):"]
        lines += [f"  {name:<12} {about}" for name, (about, _) in TOPICS.items()]
        sys.stdout.write("\n".join(lines) + "\n")
        return 0
    if args.topic not in TOPICS:  # argparse's choices catch this first; kept for callers
        raise InputError(args.topic, f"no such help topic (topics: {', '.join(TOPICS)})")
    sys.stdout.write(TOPICS[args.topic][1]())
    return 0
